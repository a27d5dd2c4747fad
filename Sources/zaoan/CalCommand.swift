import Glibc
import ZaoanClient
import ZaoanCommandLine
import ZaoanSystem
import ZaoanText

/// `zaoan cal [--socket PATH] [--timeout DURATION] [YYYY-MM|+N|-N] [@ZONE]`: the month's grid
/// in a terminal, as the service's `month` draws it for waybar's tooltip — in colour (today
/// bold, weekends and holidays red, make-up workdays amber, days with events underlined) when
/// stdout is a terminal, plain text otherwise. For a floating terminal opened from a bar.
struct CalCommand {
    let options: ClientOptions
    let environment: [String: String]

    /// The option words before the month's arguments: those starting with `--` (a month step
    /// `-1` is not an option), each with its value unless written `--name=value`.
    static func optionCount(_ arguments: [String]) -> Int {
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("--"), arguments[index] != "--" {
            index += arguments[index].contains("=") ? 1 : 2
        }
        return min(index, arguments.count)
    }

    func run() -> Never {
        let answer = AskCommand.answer(options, environment: environment)
        let line = String(decoding: answer.prefix { $0 != 0x0A }, as: UTF8.self)
        guard let object = WaybarObject(json: line), let tooltip = object.tooltip else {
            fail("the service's answer to month is not the grid zaoan cal expects; is it an older zaoan? (zaoan --version, zaoan ask version)", status: 69)
        }
        _ = Posix.writeAll(1, PangoTerminal.render(tooltip, colours: isatty(1) == 1) + "\n")
        exit(0)
    }
}
