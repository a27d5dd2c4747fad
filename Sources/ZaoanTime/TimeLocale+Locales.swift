/// The LC_TIME of zh_TW, ja_JP, ko_KR, de_DE, fr_FR and es_ES (UTF-8), as glibc 2.36
/// compiles them from Debian 12's `locales` package (`localedef -i ja_JP -f UTF-8`, then
/// `locale -k LC_TIME`; see TimeLocale). Kept as glibc has them: the leading space of
/// ` 1月`, the empty `am_pm` of de/fr/es (whose `%p` writes nothing), the eras of ja_JP and
/// zh_TW (`%EY` is 令和08年, 民國115年) and ja_JP's alternative digits (`%Od` is 二十一).
extension TimeLocale {
    package static let traditionalChinese = TimeLocale(  // zh_TW
        abbreviatedWeekdays: ["日", "一", "二", "三", "四", "五", "六"],
        weekdays: ["週日", "週一", "週二", "週三", "週四", "週五", "週六"],
        abbreviatedMonths: [" 1月", " 2月", " 3月", " 4月", " 5月", " 6月", " 7月", " 8月", " 9月", "10月", "11月", "12月"],
        months: ["一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月"],
        abbreviatedAlternativeMonths: [" 1月", " 2月", " 3月", " 4月", " 5月", " 6月", " 7月", " 8月", " 9月", "10月", "11月", "12月"],
        alternativeMonths: ["一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月"],
        am: "上午", pm: "下午",
        dateAndTimeFormat: "%Y年%m月%d日 (%A) %H時%M分%S秒", dateFormat: "%Y年%m月%d日", timeFormat: "%H時%M分%S秒",
        twelveHourTimeFormat: "%p %I時%M分%S秒",
        eraDateAndTimeFormat: "", eraDateFormat: "", eraTimeFormat: "",
        eras: [
            Era("+:2:1913/01/01:+*:民國:%EC%Ey年"),
            Era("+:1:1912/01/01:1912/12/31:民國:%EC元年"),
            Era("+:1:1911/12/31:-*:民前:%EC%Ey年"),
        ])

    package static let japanese = TimeLocale(  // ja_JP
        abbreviatedWeekdays: ["日", "月", "火", "水", "木", "金", "土"],
        weekdays: ["日曜日", "月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日"],
        abbreviatedMonths: [" 1月", " 2月", " 3月", " 4月", " 5月", " 6月", " 7月", " 8月", " 9月", "10月", "11月", "12月"],
        months: ["1月", "2月", "3月", "4月", "5月", "6月", "7月", "8月", "9月", "10月", "11月", "12月"],
        abbreviatedAlternativeMonths: [" 1月", " 2月", " 3月", " 4月", " 5月", " 6月", " 7月", " 8月", " 9月", "10月", "11月", "12月"],
        alternativeMonths: ["1月", "2月", "3月", "4月", "5月", "6月", "7月", "8月", "9月", "10月", "11月", "12月"],
        am: "午前", pm: "午後",
        dateAndTimeFormat: "%Y年%m月%d日 %H時%M分%S秒", dateFormat: "%Y年%m月%d日", timeFormat: "%H時%M分%S秒",
        twelveHourTimeFormat: "%p%I時%M分%S秒",
        eraDateAndTimeFormat: "%EY%m月%d日 %H時%M分%S秒", eraDateFormat: "%EY%m月%d日", eraTimeFormat: "",
        eras: [
            Era("+:2:2020/01/01:+*:令和:%EC%Ey年"),
            Era("+:1:2019/05/01:2019/12/31:令和:%EC元年"),
            Era("+:2:1990/01/01:2019/04/30:平成:%EC%Ey年"),
            Era("+:1:1989/01/08:1989/12/31:平成:%EC元年"),
            Era("+:2:1927/01/01:1989/01/07:昭和:%EC%Ey年"),
            Era("+:1:1926/12/25:1926/12/31:昭和:%EC元年"),
            Era("+:2:1913/01/01:1926/12/24:大正:%EC%Ey年"),
            Era("+:1:1912/07/30:1912/12/31:大正:%EC元年"),
            Era("+:6:1873/01/01:1912/07/29:明治:%EC%Ey年"),
            Era("+:1:0001/01/01:1872/12/31:西暦:%EC%Ey年"),
            Era("+:1:-0001/12/31:-*:紀元前:%EC%Ey年"),
        ],
        alternativeDigits: [
            "〇", "一", "二", "三", "四", "五", "六", "七", "八", "九",
            "十", "十一", "十二", "十三", "十四", "十五", "十六", "十七", "十八", "十九",
            "二十", "二十一", "二十二", "二十三", "二十四", "二十五", "二十六", "二十七", "二十八", "二十九",
            "三十", "三十一", "三十二", "三十三", "三十四", "三十五", "三十六", "三十七", "三十八", "三十九",
            "四十", "四十一", "四十二", "四十三", "四十四", "四十五", "四十六", "四十七", "四十八", "四十九",
            "五十", "五十一", "五十二", "五十三", "五十四", "五十五", "五十六", "五十七", "五十八", "五十九",
            "六十", "六十一", "六十二", "六十三", "六十四", "六十五", "六十六", "六十七", "六十八", "六十九",
            "七十", "七十一", "七十二", "七十三", "七十四", "七十五", "七十六", "七十七", "七十八", "七十九",
            "八十", "八十一", "八十二", "八十三", "八十四", "八十五", "八十六", "八十七", "八十八", "八十九",
            "九十", "九十一", "九十二", "九十三", "九十四", "九十五", "九十六", "九十七", "九十八", "九十九",
        ])

    package static let korean = TimeLocale(  // ko_KR
        abbreviatedWeekdays: ["일", "월", "화", "수", "목", "금", "토"],
        weekdays: ["일요일", "월요일", "화요일", "수요일", "목요일", "금요일", "토요일"],
        abbreviatedMonths: [" 1월", " 2월", " 3월", " 4월", " 5월", " 6월", " 7월", " 8월", " 9월", "10월", "11월", "12월"],
        months: ["1월", "2월", "3월", "4월", "5월", "6월", "7월", "8월", "9월", "10월", "11월", "12월"],
        abbreviatedAlternativeMonths: [" 1월", " 2월", " 3월", " 4월", " 5월", " 6월", " 7월", " 8월", " 9월", "10월", "11월", "12월"],
        alternativeMonths: ["1월", "2월", "3월", "4월", "5월", "6월", "7월", "8월", "9월", "10월", "11월", "12월"],
        am: "오전", pm: "오후",
        dateAndTimeFormat: "%x (%a) %r", dateFormat: "%Y년 %m월 %d일", timeFormat: "%H시 %M분 %S초",
        twelveHourTimeFormat: "%p %I시 %M분 %S초")

    package static let german = TimeLocale(  // de_DE
        abbreviatedWeekdays: ["So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"],
        weekdays: ["Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"],
        abbreviatedMonths: ["Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez"],
        months: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
        abbreviatedAlternativeMonths: ["Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez"],
        alternativeMonths: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
        am: "", pm: "",
        dateAndTimeFormat: "%a %d %b %Y %T %Z", dateFormat: "%d.%m.%Y", timeFormat: "%T",
        twelveHourTimeFormat: "")

    package static let french = TimeLocale(  // fr_FR
        abbreviatedWeekdays: ["dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."],
        weekdays: ["dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"],
        abbreviatedMonths: ["janv.", "févr.", "mars", "avril", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."],
        months: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
        abbreviatedAlternativeMonths: ["janv.", "févr.", "mars", "avril", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."],
        alternativeMonths: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
        am: "", pm: "",
        dateAndTimeFormat: "%a %d %b %Y %T", dateFormat: "%d/%m/%Y", timeFormat: "%T",
        twelveHourTimeFormat: "")

    package static let spanish = TimeLocale(  // es_ES
        abbreviatedWeekdays: ["dom", "lun", "mar", "mié", "jue", "vie", "sáb"],
        weekdays: ["domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"],
        abbreviatedMonths: ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"],
        months: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
        abbreviatedAlternativeMonths: ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"],
        alternativeMonths: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
        am: "", pm: "",
        dateAndTimeFormat: "%a %d %b %Y %T", dateFormat: "%d/%m/%y", timeFormat: "%T",
        twelveHourTimeFormat: "")
}
