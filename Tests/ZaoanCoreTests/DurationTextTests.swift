import Testing
@testable import ZaoanCore
@testable import ZaoanTime

@Suite struct DurationTextTests {
    @Test(arguments: [
        (0, "00:00"),
        (5, "00:05"),
        (59, "00:59"),
        (60, "01:00"),
        (125, "02:05"),
        (599, "09:59"),
        (3599, "59:59"),
        (3600, "1:00:00"),
        (3725, "1:02:05"),
        (36_000, "10:00:00"),
        (86_399, "23:59:59"),
        (90_000, "25:00:00"),
        (360_000, "100:00:00"),
    ])
    func format(seconds: Int, expected: String) {
        #expect(DurationText.format(seconds: seconds) == expected)
    }

    @Test(arguments: [("0", 0), ("125", 125), ("3725", 3725), ("007", 7), ("+5", 5), ("1000000000000", 1_000_000_000_000)])
    func parsesWholeSeconds(text: String, expected: Int) throws {
        #expect(try DurationText.parse(text) == expected)
    }

    @Test(arguments: [
        "-1", "-0.5", "abc", "", " ", " 5", "5 ", "1.5", "1e3", "0x10", "02:05", "５",
        "1000000000001", "99999999999999999999", "-9223372036854775808",
    ])
    func rejectsAnythingElse(text: String) {
        let error = protocolError { () throws(ProtocolError) in try DurationText.parse(text) }
        #expect(error?.code == .badArgument)
        #expect(error?.message.contains("is not a whole number of seconds") == true)
    }
}
