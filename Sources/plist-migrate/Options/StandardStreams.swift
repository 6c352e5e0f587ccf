import ArgumentParser
import Foundation
import PlistMigrate

/// Where a command's report goes: standard output, or `--output FILE`; messages always go to
/// standard error.
///
/// `--output FILE` is written to a temporary file beside FILE and renamed over it by `finish()`
/// once the run has reported: a run that dies, or that fails before reporting anything, leaves
/// the old report as it was (issue #44 §1).
final class StandardStreams: OutputSink {
    private let file: FileHandle?
    private let destination: String?
    private let temporary: String?
    private var wrote = false
    /// The first error writing the report (`errno`): later writes are skipped, and `finish`
    /// turns it into a message and exit 2 (issue #55: never a signal, never lost output).
    private var failure: Int32?

    init() {
        file = nil
        destination = nil
        temporary = nil
    }

    /// Writes the report to a temporary file beside `path`; a place that cannot be written is a
    /// one-line error and exit 2.
    init(output path: String?) throws {
        guard let path else {
            file = nil
            destination = nil
            temporary = nil
            return
        }
        func refuse(_ reason: String) -> ExitCode { Self.refusal(of: path, reason) }
        // Only a regular file, or a new one: a device, FIFO, socket or directory (or a link to
        // one) would be replaced by the report, or never receive it (issue #55).
        var found = stat()
        if stat(PathBytes.c(path), &found) == 0, (found.st_mode & S_IFMT) != S_IFREG {
            throw refuse("--output must be a regular file or a new one; this is \(Self.describe(found.st_mode))")
        }
        let (directory, name) = Self.split(path)
        guard !name.isEmpty, name != ".", name != ".." else {
            throw refuse("--output names a directory; give a file name")
        }
        var template = Array((directory + "/.\(name).plist-migrate-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            FileHandle.standardError.write(Data("\(path): error: cannot write the report there (\(String(cString: strerror(errno))))\n".utf8))
            throw ExitCode(2)
        }
        fchmod(descriptor, 0o644)
        file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        destination = path
        temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// `path` split at its last `/`: the directory (`.` when there is none) and the name after it.
    /// Plain string work: Foundation's path methods stopped the process on some one-character
    /// names (issue #55).
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// The report in place: the temporary file renamed over `--output`'s file once the run has
    /// ended with `status`. A run that failed (exit 2) before reporting anything leaves the old
    /// file as it was; any other run's report, even an empty one, replaces it.
    /// Returns the run's exit status, 2 when the report could not be written whole.
    func finish(status: Int32) -> Int32 {
        guard let destination, let temporary, let file else {
            guard let failure else { return status }
            Self.writeError("error: cannot write the report to standard output (\(String(cString: strerror(failure))))\n")
            return 2
        }
        if failure == nil, fsync(file.fileDescriptor) != 0 { failure = errno }
        if let failure {
            Self.writeError("\(PathBytes.display(destination)): error: cannot write the report (\(String(cString: strerror(failure)))); the old file is kept\n")
            unlink(temporary)
            return 2
        }
        let keep = wrote || status < 2
        if keep, rename(temporary, destination) == 0 { return status }
        if keep {
            Self.writeError("\(PathBytes.display(destination)): error: cannot put the report there (\(String(cString: strerror(errno))))\n")
        }
        unlink(temporary)
        return keep ? 2 : status
    }

    /// Writes all of `bytes` to `descriptor`; the `errno` of a failure, or `nil`.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    /// `--output` refused before the run: one line naming it, and exit 2.
    static func refusal(of path: String, _ reason: String) -> ExitCode {
        writeError("\(PathBytes.display(path)): error: \(reason)\n")
        return ExitCode(2)
    }

    /// A message on standard error; an error writing it has nowhere left to be told.
    static func writeError(_ text: String) {
        _ = writeAll(Array(text.utf8), to: STDERR_FILENO)
    }

    /// Standard output for commands without a report file (`edit`, `targets`): a failed write
    /// is a message and exit 2.
    static func standardOutputOrExit(_ bytes: [UInt8]) throws {
        guard let failure = writeAll(bytes, to: STDOUT_FILENO) else { return }
        writeError("error: cannot write to standard output (\(String(cString: strerror(failure))))\n")
        throw ExitCode(2)
    }

    deinit {
        // Not finished: the run ended abnormally, so the old report is kept.
        if let temporary, access(temporary, F_OK) == 0, destination != nil { unlink(temporary) }
    }

    func standardOutput(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, failure == nil else { return }
        wrote = true
        failure = Self.writeAll(bytes, to: file?.fileDescriptor ?? STDOUT_FILENO)
    }

    func migratedPlist(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        failure = Self.writeAll(bytes, to: STDOUT_FILENO)
    }

    func standardError(_ text: String) {
        Self.writeError(text)
    }
}

/// `--output FILE`: the report to a file instead of standard output (CI artefacts).
struct ReportOutputOption: ParsableArguments {
    @Option(help: ArgumentHelp("Write the report (diffs, JSON, patch, SARIF and the others) to FILE instead of standard output; never a file the run reads.", valueName: "FILE"))
    var output: String?

    /// Refuses (exit 2 and one line, before anything is opened) an `--output` that is a file
    /// the run reads: the same file as one of `inputs` (by device and inode, however it is
    /// spelled; `-` is standard input's file, and `--files-from` entries count), or a `.plist`
    /// inside a directory of `inputs` that the walk would read.
    func refuseIfRead(_ inputs: [String]) throws {
        guard let output, output != "-" else { return }
        var target = stat()
        guard stat(PathBytes.c(output), &target) == 0 else { return }
        func refuse(_ reason: String) -> ExitCode { StandardStreams.refusal(of: output, reason) }
        let canonicalOutput = (try? FileIO.canonicalPath(output).get()) ?? output
        for input in inputs {
            var found = stat()
            guard input == "-" ? fstat(STDIN_FILENO, &found) == 0 : stat(PathBytes.c(input), &found) == 0 else { continue }
            if found.st_dev == target.st_dev && found.st_ino == target.st_ino {
                let named = input == "-" ? "standard input's file" : PathBytes.display(input)
                throw refuse("--output is \(named), which this run reads: the report would replace it")
            }
            if input != "-", (found.st_mode & S_IFMT) == S_IFDIR, output.hasSuffix(".plist"),
                let directory = try? FileIO.canonicalPath(input).get(),
                canonicalOutput.hasPrefix(directory.hasSuffix("/") ? directory : directory + "/")
            {
                throw refuse("--output lies in \(PathBytes.display(input)), which this run walks and reads: the report would replace a plist it read")
            }
        }
    }
}
