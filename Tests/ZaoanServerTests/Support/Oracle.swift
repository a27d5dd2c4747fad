import Foundation
import Testing

/// The scripts of Tests/Oracles, run by Debian's python with the pinned packages
/// scripts/ensure-oracles installs into .build/oracle-python.
enum Oracle {
    /// The script's output; a failure names it and what installs its packages.
    static func run(_ script: String, _ arguments: [String] = [], timeout: Double = 60) throws -> String {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        var environment = Tool.baseEnvironment(home: scratch.path)
        environment["PYTHONPATH"] = Locations.packageRoot + "/.build/oracle-python"
        let result = try Tool.run("/usr/bin/python3", [Locations.packageRoot + "/Tests/Oracles/" + script] + arguments,
                                  environment: environment, timeout: timeout, scratch: scratch)
        try #require(result.status == 0, "\(script): \(result) (scripts/ensure-oracles installs what it needs)")
        return result.output
    }
}

extension TestService {
    /// The service in `language` and `zone` (its TZ too) at a faked wall-clock `time` there
    /// (faketime), with `config`.
    static func start(at time: String, zone: String = "Asia/Shanghai", language: String = "zh", config: String? = nil) throws -> TestService {
        var configuration = Configuration()
        configuration.fakeTime = time
        configuration.environment["TZ"] = zone
        configuration.arguments = ["--language", language, "--timezone", zone]
        configuration.config = config
        return try start(configuration)
    }
}
