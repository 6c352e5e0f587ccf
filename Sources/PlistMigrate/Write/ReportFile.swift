#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileAccess

/// Every file the tool writes that is not a plist it migrates (`--output`, `lint --write-baseline`,
/// the build-tool plugin's stamp): written to a temporary file beside FILE and renamed over it
/// once the run has reported, so a run that dies, or fails before reporting anything, leaves the
/// old file as it was. `refusal(output:option:reading:)` and `refusal(output:option:readingFound:)`
/// refuse, before any work, a destination that is a file the run reads.
///
/// Only a regular file, or a new one, is ever written: a device, FIFO, socket or
/// directory would be replaced by the report or never receive it, and a symbolic link is
/// followed to the file it names (a link to nothing is refused: writing through it would
/// create a file wherever it points). Every refusal and failure is one line naming the path;
/// no temporary file outlives the value.
public final class ReportFile {
    /// The path given, for messages.
    public let path: String
    /// Where the report lands: `path`, or the file a symbolic link at `path` names.
    public let destination: String
    /// The temporary file beside `destination`, renamed over it by `finish`.
    public let temporary: String
    private let descriptor: Int32
    /// The first error writing (`errno`): later writes are skipped and `finish` reports it.
    public private(set) var failure: Int32?
    /// Whether any report bytes were written.
    public private(set) var wrote = false
    private var finished = false
    /// Whether `destination` held a file when the report was opened (what a failure keeps).
    private let replacesAFile: Bool

    private init(path: String, destination: String, temporary: String, descriptor: Int32, replacesAFile: Bool) {
        self.path = path
        self.destination = destination
        self.temporary = temporary
        self.descriptor = descriptor
        self.replacesAFile = replacesAFile
    }

    /// A one-line refusal or failure, `path: error: reason`.
    public struct Refusal: Error, Equatable {
        public let line: String
    }

    /// Opens the temporary file for `path` (given to `option`), or says in one line why nothing
    /// can be written there.
    public static func open(_ path: String, option: String = "--output") -> Result<ReportFile, Refusal> {
        func refuse(_ reason: String) -> Result<ReportFile, Refusal> {
            .failure(Refusal(line: "\(PathBytes.display(path)): error: \(reason)"))
        }
        guard !path.isEmpty else { return refuse("\(option) names no file") }
        var destination = path
        var link = stat()
        if lstat(PathBytes.c(path), &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
            guard case .success(let resolved) = FileIO.canonicalPath(path) else {
                return refuse("\(option) is a symbolic link to nothing (or a loop); the file would be created wherever it points")
            }
            destination = resolved
        }
        var found = stat()
        let exists = stat(PathBytes.c(destination), &found) == 0
        if exists, (found.st_mode & S_IFMT) != S_IFREG {
            return refuse("\(option) must be a regular file or a new one; this is \(describe(found.st_mode))")
        }
        let (directory, name) = split(destination)
        guard !name.isEmpty, name != ".", name != ".." else {
            return refuse("\(option) names a directory; give a file name")
        }
        removeLeftovers(of: name, in: directory)
        // `.NAME.PID.RANDOM.plist-migrate-tmp`, the shape of every temporary file the tool makes:
        // a later run can tell that the run that made it is gone (`FileIO.removeStaleTemporaryFile`).
        var template = Array((directory + "/.\(name).\(getpid()).XXXXXX\(FileIO.tempMarker)").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemps($0, Int32(FileIO.tempMarker.utf8.count)) } ?? -1
        }
        guard descriptor >= 0 else { return refuse("cannot write the report there (\(errorText(errno)))") }
        fchmod(descriptor, 0o644)
        let temporary = template.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { String(cString: $0) } ?? ""
        }
        return .success(ReportFile(path: path, destination: destination, temporary: temporary, descriptor: descriptor, replacesAFile: exists))
    }

    /// Removes the temporary files of earlier reports to `name` whose runs are gone (killed
    /// before they could remove their own): `.NAME.PID.RANDOM.plist-migrate-tmp` with no process `PID`.
    private static func removeLeftovers(of name: String, in directory: String) {
        let prefix = ".\(name)."
        var stale: [String] = []
        DirectoryEntries.forEach(at: PathBytes.c(directory)) { bytes, _ in
            let found = PathBytes.string(bytes)
            guard found.hasPrefix(prefix), found.hasSuffix(FileIO.tempMarker) else { return }
            // The name's own fields, then exactly a PID and the random part.
            guard found.dropFirst(prefix.count).dropLast(FileIO.tempMarker.count).split(separator: ".").count == 2 else { return }
            stale.append(found)
        }
        for found in stale { _ = FileIO.removeStaleTemporaryFile(directory + "/" + found) }
    }

    /// Appends `bytes` to the report; after a failure, nothing.
    public func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, failure == nil, !finished else { return }
        wrote = true
        failure = Self.writeAll(bytes, to: descriptor)
    }

    /// The report in place once the run ended with `status`: renamed over `destination`, unless
    /// writing failed (exit 2, the old file kept) or a failed run (exit 2) reported nothing.
    /// Returns the run's final status and the line to tell, if any.
    public func finish(status: Int32) -> (status: Int32, message: String?) {
        guard !finished else { return (status, nil) }
        finished = true
        defer { close(descriptor) }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            let kept = replacesAFile ? "the old file is kept" : "no report was written"
            return (2, "\(PathBytes.display(path)): error: cannot write the report (\(Self.errorText(failure))); \(kept)")
        }
        guard wrote || status < 2 else {
            unlink(temporary)
            return (status, nil)
        }
        if rename(temporary, destination) == 0 { return (status, nil) }
        let reason = Self.errorText(errno)
        unlink(temporary)
        return (2, "\(PathBytes.display(path)): error: cannot put the report there (\(reason))")
    }

    deinit {
        // Not finished: the run ended abnormally, so the old report is kept.
        if !finished {
            close(descriptor)
            unlink(temporary)
        }
    }

    /// The names a walk reads beside the plists: a destination with one of them inside a walked
    /// directory would be read by the next run (a report written as `.plist-migrate.json`
    /// replaces the team's config).
    static let namesAWalkReads: Set<String> = [".plist-migrate.json", "project.pbxproj", "project.yml"]

    /// The reason, when `output` (given to `option`) is a file the run reads: the same file as one
    /// of `inputs` (by device and inode, however spelled; `-` is standard input's file); a
    /// `.plist`, config or project file inside a directory of `inputs` that the walk would read;
    /// or a config in a directory above an input, which the run reads for it. `nil` when it may
    /// be written.
    public static func refusal(output: String, option: String = "--output", reading inputs: [String]) -> Refusal? {
        guard output != "-" else { return nil }
        func refuse(_ reason: String) -> Refusal { Refusal(line: "\(PathBytes.display(output)): error: \(reason)") }
        var target = stat()
        let exists = stat(PathBytes.c(output), &target) == 0
        // Where it would land, existing or not: its folder resolved, then its name.
        let (folder, name) = split(output)
        let canonicalOutput = exists ? ((try? FileIO.canonicalPath(output).get()) ?? output)
            : ((try? FileIO.canonicalPath(folder).get()).map { $0 == "/" ? "/" + name : $0 + "/" + name } ?? FileIO.absolute(output))
        let landing = split(canonicalOutput).name
        let readByWalk = [name, landing].contains { $0.hasSuffix(".plist") || $0.hasSuffix(".xcconfig") || namesAWalkReads.contains($0) }
        for input in inputs {
            var found = stat()
            guard input == "-" ? fstat(STDIN_FILENO, &found) == 0 : stat(PathBytes.c(input), &found) == 0 else { continue }
            if exists, isSameFile(found, target) {
                let named = input == "-" ? "standard input's file" : PathBytes.display(input)
                return refuse("\(option) is \(named), which this run reads: it would be replaced")
            }
            guard input != "-", let resolved = try? FileIO.canonicalPath(input).get() else { continue }
            let directory = (found.st_mode & S_IFMT) == S_IFDIR ? resolved : split(resolved).directory
            let inside = canonicalOutput.hasPrefix(directory.hasSuffix("/") ? directory : directory + "/")
            if readByWalk, inside, (found.st_mode & S_IFMT) == S_IFDIR {
                return refuse("\(option) lies in \(PathBytes.display(input)), which this run walks and reads: "
                    + "the file would be read as one of the tree's (and replace it if it is there)")
            }
            // A config in a folder above an input (or beside it) is that input's config.
            let outputFolder = split(canonicalOutput).directory
            if name == ".plist-migrate.json", directory == outputFolder || directory.hasPrefix(outputFolder == "/" ? "/" : outputFolder + "/") {
                return refuse("\(option) is the config this run reads for \(PathBytes.display(input)): it would be replaced")
            }
        }
        return nil
    }

    /// The reason, when `output` is the same file (device and inode, links followed) as one of
    /// the files a walk found and the run will read; `nil` when it is none of them or does not
    /// exist yet. One `stat` per file, asked only when there is an `--output`.
    public static func refusal(output: String, option: String = "--output", readingFound files: [String]) -> Refusal? {
        var target = stat()
        guard output != "-", stat(PathBytes.c(output), &target) == 0, (target.st_mode & S_IFMT) == S_IFREG else { return nil }
        for file in files where file != "-" {
            var found = stat()
            guard stat(PathBytes.c(file), &found) == 0, isSameFile(found, target) else { continue }
            return Refusal(line: "\(PathBytes.display(output)): error: \(option) is \(PathBytes.display(file)), which this run reads: "
                + "it would be replaced; nothing was read or written")
        }
        return nil
    }

    /// The same file: device and inode, however it was named.
    private static func isSameFile(_ a: stat, _ b: stat) -> Bool { a.st_dev == b.st_dev && a.st_ino == b.st_ino }

    /// `path` split at its last `/`: the directory (`.` when there is none) and the name after it.
    /// Plain string work: Foundation's path methods stopped the process on some one-character
    /// names.
    public static func split(_ path: String) -> (directory: String, name: String) {
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

    /// Writes all of `bytes` to `descriptor`; the `errno` of a failure, or `nil`.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { systemWrite(descriptor, $0 + offset, bytes.count - offset) } ?? 0
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            offset += written
        }
        return nil
    }

    public static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// `write(2)`, named apart from `ReportFile.write`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
