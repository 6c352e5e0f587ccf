import ArgumentParser
import Foundation
import PlistMigrate

/// Where a command's report goes: standard output, or `--output FILE`; messages always go to
/// standard error.
final class StandardStreams: OutputSink {
    private let file: FileHandle?

    init() {
        file = nil
    }

    /// Writes the report to `path` (created or truncated); a path that cannot be written is a
    /// one-line error and exit 2.
    init(output path: String?) throws {
        guard let path else {
            file = nil
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            FileHandle.standardError.write(Data("\(path): error: cannot write the report there (\(String(cString: strerror(errno))))\n".utf8))
            throw ExitCode(2)
        }
        file = handle
    }

    deinit {
        try? file?.close()
    }

    func standardOutput(_ bytes: [UInt8]) {
        (file ?? FileHandle.standardOutput).write(Data(bytes))
    }

    func migratedPlist(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// `--output FILE`: the report to a file instead of standard output (CI artefacts).
struct ReportOutputOption: ParsableArguments {
    @Option(help: ArgumentHelp("Write the report (diffs, JSON, patch, SARIF, …) to FILE instead of standard output.", valueName: "FILE"))
    var output: String?
}
