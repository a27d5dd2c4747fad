import Foundation
import Testing

/// Issue 34, point 4: the functions one tick of a bar clock runs are laid out side by side in
/// the release zaoan-server (each in a section of its own, ordered by
/// packaging/link/tick-order.txt through gold's --section-ordering-file). A bar wakes the
/// service once a second and finds its code cold; on a dozen pages instead of some sixty, a
/// tick costs about a quarter less CPU (docs/benchmarks.md, "A bar clock"). The linker
/// ignores a name the binary no longer has without a word, so this says when the list is
/// stale.
@Suite struct TickLayoutTests {
    @Test("every function the tick order names is in the release zaoan-server, and they start on a few pages")
    func tickOrderIsCurrent() throws {
        guard let release = Locations.releaseZaoan else {
            try Test.cancel("no release build at .build/release/zaoan; scripts/test builds it (swift build -c release --product zaoan-server --static-swift-stdlib)")
        }
        let server = (release as NSString).deletingLastPathComponent + "/zaoan-server"
        let order = try String(contentsOfFile: Locations.packageRoot + "/packaging/link/tick-order.txt", encoding: .utf8)
        let names = order.split(separator: "\n").map { String($0.dropFirst(".text.".count)) }
        #expect(names.count >= 30, "the tick order lists \(names.count) functions")

        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let nm = try Tool.run("/usr/bin/nm", [server], environment: Tool.baseEnvironment(home: scratch.path), timeout: 60, scratch: scratch)
        try #require(nm.status == 0, "nm \(server): \(nm)")
        var addresses: [String: UInt64] = [:]
        for line in nm.output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let address = UInt64(fields[0], radix: 16) else { continue }
            addresses[String(fields[2])] = addresses[String(fields[2])] ?? address
        }
        let missing = names.filter { addresses[$0] == nil }
        #expect(missing.isEmpty, "\(missing.count) of the \(names.count) functions in packaging/link/tick-order.txt are not in \(server) (the code changed since the list was made): run bench/tick-order.sh, then build again. First: \(missing.prefix(3))")

        // Laid out: about 12 pages (a few of the standard library's functions cannot be
        // moved); as the compiler places them, some sixty.
        let pages = Set(names.compactMap { addresses[$0] }.map { $0 >> 12 })
        #expect(pages.count <= 20, "the tick's \(names.count) functions start on \(pages.count) pages of \(server): were they laid out (Package.swift: `sectioned`, --section-ordering-file)?")
    }
}
