import ArgumentParser
import Foundation
import PlistMigrate
import FileAccess

/// Where a command's report goes: standard output, or `--output FILE`; messages always go to
/// standard error.
///
/// `--output FILE` is written to a temporary file beside FILE and renamed over it by `finish()`
/// once the run has reported: a run that dies, or that fails before reporting anything, leaves
/// the old report as it was.
final class StandardStreams: OutputSink {
    private let file: ReportFile?
    /// The first error writing to standard output (`errno`): later writes are skipped, and
    /// `finish` turns it into a message and exit 2 (never a signal, never lost output).
    private var failure: Int32?

    init() {
        file = nil
    }

    /// Writes the report to a temporary file beside `path` (see `ReportFile`); a place that
    /// cannot be written is a one-line error and exit 2.
    init(output path: String?) throws {
        guard let path else {
            file = nil
            return
        }
        file = try WrittenFile.opened(path, option: "--output")
    }

    /// The report in place once the run ended with `status` (see `ReportFile.finish`).
    /// Returns the run's exit status, 2 when the report could not be written whole.
    func finish(status: Int32) -> Int32 {
        guard let file else {
            guard let failure else { return status }
            Self.writeError("error: cannot write the report to standard output (\(ReportFile.errorText(failure)))\n")
            return 2
        }
        let (final, message) = file.finish(status: status)
        if let message { Self.writeError(message + "\n") }
        return final
    }

    /// A message on standard error; an error writing it has nowhere left to be told.
    static func writeError(_ text: String) {
        _ = ReportFile.writeAll(Array(text.utf8), to: STDERR_FILENO)
    }

    /// Standard output for commands without a report file (`edit`, `targets`): a failed write
    /// is a message and exit 2.
    static func standardOutputOrExit(_ bytes: [UInt8]) throws {
        guard let failure = ReportFile.writeAll(bytes, to: STDOUT_FILENO) else { return }
        writeError("error: cannot write to standard output (\(ReportFile.errorText(failure)))\n")
        throw ExitCode(2)
    }

    func standardOutput(_ bytes: [UInt8]) {
        if let file { return file.write(bytes) }
        guard !bytes.isEmpty, failure == nil else { return }
        failure = ReportFile.writeAll(bytes, to: STDOUT_FILENO)
    }

    func migratedPlist(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        failure = ReportFile.writeAll(bytes, to: STDOUT_FILENO)
    }

    func standardError(_ text: String) {
        Self.writeError(text)
    }
}

/// A file a command writes besides its report (`lint --write-baseline`, `--build-stamp`): through
/// the same gate as `--output` (`ReportFile`), before any work. `-` is standard output (`nil`).
enum WrittenFile {
    static func open(_ path: String?, option: String, reading inputs: [String], besides others: [(option: String, path: String?)]) throws -> ReportFile? {
        guard let path, path != "-" else { return nil }
        if let other = others.first(where: { $0.path != nil && $0.path != "-" && FileIO.absolutePath($0.path!) == FileIO.absolutePath(path) }) {
            StandardStreams.writeError("\(PathBytes.display(path)): error: \(option) and \(other.option) name the same file; give each its own\n")
            throw ExitCode(2)
        }
        if let refusal = ReportFile.refusal(output: path, option: option, reading: inputs) {
            StandardStreams.writeError(refusal.line + "\n")
            throw ExitCode(2)
        }
        return try opened(path, option: option)
    }

    /// `path` opened through `ReportFile`, or its refusal on one line and exit 2.
    static func opened(_ path: String, option: String) throws -> ReportFile {
        switch ReportFile.open(path, option: option) {
        case .success(let file): return file
        case .failure(let refusal):
            StandardStreams.writeError(refusal.line + "\n")
            throw ExitCode(2)
        }
    }
}

/// `--output FILE`: the report to a file instead of standard output (CI artefacts).
struct ReportOutputOption: ParsableArguments {
    @Option(help: ArgumentHelp("Write the report to FILE (- is standard output); never a file the run reads.", valueName: "FILE"))
    var output: String?

    /// The report's file: `nil` for standard output (no `--output`, or `--output -`, as `-`
    /// means everywhere else).
    var file: String? { output == "-" ? nil : output }

    /// Refuses (exit 2 and one line, before anything is opened) an `--output` that is a file
    /// the run reads: the same file as one of `inputs` (by device and inode, however it is
    /// spelled; `-` is standard input's file, and `--files-from` entries count), or a `.plist`
    /// inside a directory of `inputs` that the walk would read.
    func refuseIfRead(_ inputs: [String]) throws {
        guard let file, let refusal = ReportFile.refusal(output: file, reading: inputs) else { return }
        StandardStreams.writeError(refusal.line + "\n")
        throw ExitCode(2)
    }
}
