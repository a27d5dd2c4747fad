import Foundation

/// What the fuzz targets share: handing a test function to libFuzzer (when built with
/// -DFUZZING and -sanitize=fuzzer, see fuzz/run.sh), or running it once on each file named
/// on the command line (the plain build: how the tests replay seeds and regressions).
public enum FuzzDriver {
    public typealias Test = @convention(c) (UnsafePointer<UInt8>, Int) -> CInt

    #if FUZZING
    @_silgen_name("LLVMFuzzerRunDriver")
    private static func runFuzzer(_ argc: UnsafeMutablePointer<CInt>,
                                  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                                  _ test: Test) -> CInt

    /// The process's entry point under libFuzzer.
    public static func run(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ test: Test) -> CInt {
        var count = argc
        var vector = argv
        return runFuzzer(&count, &vector, test)
    }
    #endif

    /// Runs `test` once on the contents of each file given as an argument.
    public static func replay(_ test: Test) {
        for path in CommandLine.arguments.dropFirst() {
            let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
            _ = bytes.withUnsafeBufferPointer { test($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
        }
    }
}
