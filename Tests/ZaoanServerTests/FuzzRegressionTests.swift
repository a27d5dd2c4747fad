import Foundation
import Testing

/// Every input the fuzzers found a crash with (fuzz/regressions/NAME), and every seed, runs
/// through the target's replayer (the same code as the fuzz target, built without libFuzzer)
/// without trapping.
@Suite("Fuzzing: seeds and regressions")
struct FuzzRegressionTests {
    @Test("each fuzz target replays its seeds and regression inputs cleanly",
          arguments: ["request", "framer", "statefile", "config", "calendar", "rule"])
    func replay(target: String) throws {
        let replayer = (Locations.zaoan as NSString).deletingLastPathComponent + "/fuzz-" + target
        try #require(FileManager.default.isExecutableFile(atPath: replayer), "no \(replayer); swift build builds it")
        var inputs: [String] = []
        for folder in ["seeds", "regressions"] {
            let directory = Locations.packageRoot + "/fuzz/\(folder)/\(target)"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            inputs += names.filter { !$0.hasPrefix(".") }.sorted().map { directory + "/" + $0 }
        }
        #expect(inputs.count >= 3, "seeds for \(target)")
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let result = try Tool.run(replayer, inputs, environment: Tool.baseEnvironment(home: scratch.path), timeout: 60, scratch: scratch)
        #expect(result.status == 0, "\(target): \(result)")
    }
}
