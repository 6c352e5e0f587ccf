#if FUZZING
/// libFuzzer's driver, declared here: SwiftPM aliases an executable's `main` to
/// `PlistFuzz_main`, so the fuzzer is started from there (see Fuzz/run.sh).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzCheck.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

@_cdecl("PlistFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzOneInput)
}
#else
import Foundation
import PlistMigrate

/// Without the fuzzer: replays the checks over the files given (e.g. Fuzz/regressions/*).
@main
struct Replay {
    static func main() throws {
        for path in CommandLine.arguments.dropFirst() {
            let data = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            if FuzzCheck.target == "recipe", ProcessInfo.processInfo.environment["PLIST_FUZZ_SHOW"] != nil,
                let recipe = Invariants.recipeBytes(for: data)
            {
                FileHandle.standardError.write(Data(recipe + [0x0A]))
            }
            FuzzCheck.run(data)
        }
        print("replayed \(CommandLine.arguments.count - 1) inputs")
    }
}
#endif
