/// The built-in greeting tables of the languages other than zh and en. Each row's day part
/// (for bars) is the one its start falls in, except where a row runs through the afternoon
/// from before 14:00 (`こんにちは`, `Guten Tag`): that row is `afternoon`, as English's is.
extension GreetingTable {
    /// zh-Hant: Taiwan's greetings — 早安 in the morning, 午安 from noon through the
    /// afternoon, 晚安 from the evening (Taiwan greets the evening with 晚安; 下午好 and 晚上好
    /// are mainland usage: docs/languages.md has the sources).
    public static let traditionalChinese = GreetingTable([
        GreetingPeriod(start: 5 * 60, text: "早安"),
        GreetingPeriod(start: 11 * 60, text: "午安"),
        GreetingPeriod(start: 14 * 60, text: "午安", dayPart: .afternoon),
        GreetingPeriod(start: 18 * 60, text: "晚安", dayPart: .evening),
        GreetingPeriod(start: 23 * 60, text: "晚安"),
    ])

    public static let japanese = GreetingTable([
        GreetingPeriod(start: 5 * 60, text: "おはよう"),
        GreetingPeriod(start: 11 * 60, text: "こんにちは", dayPart: .afternoon),
        GreetingPeriod(start: 18 * 60, text: "こんばんは"),
        GreetingPeriod(start: 23 * 60, text: "おやすみ"),
    ])

    /// Korean greets with 안녕하세요 at any hour (좋은 저녁 is a calque of "good evening");
    /// the morning may say 좋은 아침이에요. The later rows only mark the day parts for bars.
    public static let korean = GreetingTable([
        GreetingPeriod(start: 5 * 60, text: "좋은 아침이에요"),
        GreetingPeriod(start: 11 * 60, text: "안녕하세요", dayPart: .afternoon),
        GreetingPeriod(start: 18 * 60, text: "안녕하세요", dayPart: .evening),
        GreetingPeriod(start: 23 * 60, text: "안녕하세요", dayPart: .night),
    ])

    public static let german = GreetingTable([
        GreetingPeriod(start: 5 * 60, text: "Guten Morgen"),
        GreetingPeriod(start: 11 * 60, text: "Guten Tag", dayPart: .afternoon),
        GreetingPeriod(start: 18 * 60, text: "Guten Abend"),
        GreetingPeriod(start: 23 * 60, text: "Gute Nacht"),
    ])

    /// French greets with Bonjour from dawn until about 18:00, then Bonsoir through the
    /// night (Bon après-midi and Bonne nuit are said on leaving). The later rows only mark
    /// the day parts for bars.
    public static let french = GreetingTable([
        GreetingPeriod(start: 5 * 60, text: "Bonjour"),
        GreetingPeriod(start: 12 * 60, text: "Bonjour", dayPart: .afternoon),
        GreetingPeriod(start: 18 * 60, text: "Bonsoir"),
        GreetingPeriod(start: 23 * 60, text: "Bonsoir", dayPart: .night),
    ])

    /// Spanish says buenas tardes until dark and buenas noches from then through the night;
    /// the last row only marks the night for bars.
    public static let spanish = GreetingTable([
        GreetingPeriod(start: 5 * 60, text: "Buenos días"),
        GreetingPeriod(start: 12 * 60, text: "Buenas tardes", dayPart: .afternoon),
        GreetingPeriod(start: 20 * 60, text: "Buenas noches"),
        GreetingPeriod(start: 23 * 60, text: "Buenas noches"),
    ])
}
