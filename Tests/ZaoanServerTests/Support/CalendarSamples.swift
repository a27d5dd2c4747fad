import Foundation

/// The calendar samples of Tests/ZaoanCalendarTests/Samples through the real service: a
/// folder of them, the service's clock faked, `schedule 744` read back.
enum CalendarSamples {
    static let folder = Locations.packageRoot + "/Tests/ZaoanCalendarTests/Samples"

    /// A service reading a calendar folder holding copies of `samples` (file names in the
    /// samples folder), its clock at `clock` (UTC, faketime), in `zone`, with a window of 744
    /// hours. The caller stops the service and removes `directory`.
    static func service(reading samples: [String], in directory: TemporaryDirectory, clock: String,
                        zone: String = "Europe/Berlin") throws -> TestService {
        let calendar = try directory.makeDirectory("calendar")
        for sample in samples {
            try FileManager.default.copyItem(atPath: "\(folder)/\(sample)", toPath: "\(calendar)/\(sample)")
        }
        var configuration = TestService.Configuration()
        configuration.fakeTime = clock
        configuration.arguments = ["--language", "en", "--timezone", zone]
        configuration.config = #"{"calendars": ["\#(calendar)"], "calendar_window_hours": 744}"#
        return try TestService.start(configuration)
    }
}

extension TestService {
    /// `START END TITLE` of each row of `schedule HOURS` (a row that is not four fields as it is).
    func scheduleRows(hours: Int = 744) throws -> [String] {
        try ask("schedule \(hours)").split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return fields.count == 4 ? "\(fields[0]) \(fields[1]) \(fields[3])" : String(line)
        }
    }
}
