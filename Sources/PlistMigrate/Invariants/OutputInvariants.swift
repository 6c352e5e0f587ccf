#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileAccess

extension Invariants {
    /// What may sit where `--output` points, for the output-path target.
    enum OutputPlace: UInt8, CaseIterable {
        case newFile, regularFile, directory, fifo, socket, linkToFile, linkToDirectory, linkToFIFO
        case linkToNothing, linkLoop, fuzzedName, anInput

        /// Whether the report may be written there.
        var writable: Bool { [.newFile, .regularFile, .linkToFile, .fuzzedName].contains(self) }
    }

    /// The report's output path on places anyone can make: the first byte picks what
    /// is at the path (a new or old file, a directory, FIFO, socket, a link to each, a link to
    /// nothing, a loop, a name made of fuzzed bytes, a file the run reads), the second how the
    /// report is cut into writes, the third the run's status and whether it is finished at all;
    /// the rest is the report. Checked: every place but a file (or a new one, or a link to one)
    /// is refused with one line and left as it was; a written report is exactly its bytes at
    /// the file, the link still a link; a failed or unfinished run keeps the old file; no
    /// temporary file is ever left; a closed pipe or descriptor is an error code, not a signal.
    public static func outputViolation(in data: [UInt8], directory: String) -> String? {
        guard data.count >= 3 else { return nil }
        let place = OutputPlace(rawValue: data[0] % UInt8(OutputPlace.allCases.count)) ?? .newFile
        let cut = max(1, Int(data[1]))
        let status = Int32(data[2] % 3)
        let finishes = data[2] & 0x80 == 0
        var report = Array(data.dropFirst(3))
        let work = directory + "/output"
        removeTree(work)
        defer { removeTree(work) }
        guard mkdir(work, 0o755) == 0 else { return nil }
        var name = work + "/r"
        let old: [UInt8] = Array("old report\n".utf8)
        switch place {
        case .newFile: break
        case .regularFile, .anInput: _ = store(old, at: name)
        case .directory: mkdir(name, 0o755)
        case .fifo: mkfifo(name, 0o644)
        case .socket: bindSocket(at: name)
        case .linkToFile: _ = store(old, at: work + "/f"); symlink("f", name)
        case .linkToDirectory: mkdir(work + "/d", 0o755); symlink("d", name)
        case .linkToFIFO: mkfifo(work + "/p", 0o644); symlink("p", name)
        case .linkToNothing: symlink("missing/x", name)
        case .linkLoop: symlink("r", name)
        case .fuzzedName:
            // A name of up to 12 bytes from the report, drawn from the characters that trip path
            // code (`/`, `.`, `-`, a space); `..` is kept out so nothing leaves `work`.
            let alphabet: [Character] = ["a", "/", ".", "-", " ", "x"]
            let length = min(report.count, Int(data[1] % 12))
            var made = ""
            for byte in report.prefix(length) {
                let next = alphabet[Int(byte) % alphabet.count]
                made.append(next == "." && made.last == "." ? "a" : next)
            }
            name = work + "/" + made
            report.removeFirst(length)
        }
        let before = snapshot(work)

        if place == .anInput {
            guard ReportFile.refusal(output: name, reading: [name]) != nil else {
                return "an --output that is the run's own input was not refused"
            }
            return snapshot(work) == before ? nil : "refusing --output changed \(work)"
        }
        // The file is opened, written and finished (or dropped) here, so it is gone before the
        // folder is looked at.
        let outcome: Result<String, Failure> = {
            let file: ReportFile
            switch ReportFile.open(name) {
            case .failure(let refusal):
                if refusal.line.contains("\n") { return .failure(Failure("a refusal of more than one line: \(refusal.line)")) }
                if place.writable && place != .fuzzedName { return .failure(Failure("a \(place) was refused: \(refusal.line)")) }
                return .failure(Failure(nil))
            case .success(let opened):
                if !place.writable { return .failure(Failure("a \(place) was accepted as --output")) }
                file = opened
            }
            var offset = 0
            while offset < report.count {
                file.write(Array(report[offset..<min(report.count, offset + cut)]))
                offset += cut
            }
            if finishes {
                let (ended, message) = file.finish(status: status)
                if ended != status { return .failure(Failure("finishing a report that could be written said \(ended): \(message ?? "")")) }
            }
            return .success(file.destination)
        }()
        let destination: String
        switch outcome {
        case .failure(let failure):
            if let violation = failure.violation { return violation }
            return snapshot(work) == before ? nil : "refusing --output (\(place)) changed the folder"
        case .success(let written): destination = written
        }
        let kept = !finishes || (status == 2 && report.isEmpty)
        let expected: [UInt8]? = kept ? (place == .regularFile || place == .linkToFile ? old : nil) : report
        if contents(destination) != expected {
            return "\(place), status \(status), finished \(finishes): the file holds \(contents(destination)?.count ?? -1) bytes, not \(expected?.count ?? -1)"
        }
        if place == .linkToFile {
            var link = stat()
            if lstat(name, &link) != 0 || (link.st_mode & S_IFMT) != S_IFLNK { return "the link at --output was replaced" }
        }
        return leftovers(work)
    }

    struct Failure: Error {
        let violation: String?
        init(_ violation: String?) { self.violation = violation }
    }

    /// The output path's other half: writing to a pipe nobody reads or to a closed descriptor is
    /// an error code, never a signal (SIGPIPE is ignored by the tool's `main`, and by the target).
    public static func closedStreamViolation(_ bytes: [UInt8]) -> String? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        close(ends[0])
        let broken = ReportFile.writeAll(bytes, to: ends[1])
        close(ends[1])
        if !bytes.isEmpty && broken != EPIPE { return "a write to a closed pipe said \(broken.map(String.init) ?? "nothing")" }
        let closed = ReportFile.writeAll(bytes, to: ends[1])
        if !bytes.isEmpty && closed != EBADF { return "a write to a closed descriptor said \(closed.map(String.init) ?? "nothing")" }
        return nil
    }

    /// A regular file's bytes (`nil` for anything else, or nothing there).
    private static func contents(_ path: String) -> [UInt8]? {
        try? FileIO.load(path).bytes
    }

    /// Every entry under `path`: its name, type, inode and (for files) bytes.
    private static func snapshot(_ path: String) -> [String] {
        var lines: [String] = []
        for name in entries(of: path) ?? [] {
            let full = path + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            lines.append("\(name) \(info.st_mode) \(info.st_ino) \(contents(full).map { "\($0)" } ?? "")")
            if (info.st_mode & S_IFMT) == S_IFDIR { lines += snapshot(full).map { name + "/" + $0 } }
        }
        return lines
    }

    private static func leftovers(_ path: String) -> String? {
        for line in snapshot(path) where line.contains("plist-migrate-") {
            return "a temporary file was left behind: \(line.prefix(80))"
        }
        return nil
    }

    public static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            for name in entries(of: path) ?? [] { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    private static func bindSocket(at path: String) {
        #if canImport(Glibc)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
