/// The built-in greeting tables of the languages other than zh and en. Each row's day part
/// (for bars) is the one its start falls in, except where a row runs through the afternoon
/// from before 14:00 (`こんにちは`, `Guten Tag`): that row is `afternoon`, as English's is.
extension GreetingTable {
    /// zh-Hant: the zh table, whose words are the same in Traditional characters.
    public static let traditionalChinese = GreetingTable([
        GreetingPeriod(start: 5 * 60, text: "早安"),
        GreetingPeriod(start: 11 * 60, text: "午安"),
        GreetingPeriod(start: 14 * 60, text: "下午好"),
        GreetingPeriod(start: 18 * 60, text: "晚上好"),
        GreetingPeriod(start: 23 * 60, text: "晚安"),
    ])

    public static let japanese = GreetingTable([
        GreetingPeriod(start: 5 * 60, text: "おはよう"),
        GreetingPeriod(start: 11 * 60, text: "こんにちは", dayPart: .afternoon),
        GreetingPeriod(start: 18 * 60, text: "こんばんは"),
        GreetingPeriod(start: 23 * 60, text: "おやすみ"),
    ])

    public static let korean = GreetingTable([
        GreetingPeriod(start: 5 * 60, text: "좋은 아침"),
        GreetingPeriod(start: 11 * 60, text: "안녕하세요", dayPart: .afternoon),
        GreetingPeriod(start: 18 * 60, text: "좋은 저녁"),
        GreetingPeriod(start: 23 * 60, text: "안녕히 주무세요"),
    ])

    public static let german = GreetingTable([
        GreetingPeriod(start: 5 * 60, text: "Guten Morgen"),
        GreetingPeriod(start: 11 * 60, text: "Guten Tag", dayPart: .afternoon),
        GreetingPeriod(start: 18 * 60, text: "Guten Abend"),
        GreetingPeriod(start: 23 * 60, text: "Gute Nacht"),
    ])

    public static let french = GreetingTable([
        GreetingPeriod(start: 5 * 60, text: "Bonjour"),
        GreetingPeriod(start: 12 * 60, text: "Bon après-midi", dayPart: .afternoon),
        GreetingPeriod(start: 18 * 60, text: "Bonsoir"),
        GreetingPeriod(start: 23 * 60, text: "Bonne nuit"),
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
