import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `--write` never loses a concurrent edit, and two runs at once do not trip over each other.
@Suite(.serialized) struct ConcurrentWriteTests {
    static func tree(files: Int) throws -> (directory: URL, paths: [String]) {
        let directory = try temporaryDirectory(onDisk: true)
        var paths: [String] = []
        for index in 0..<files {
            paths.append(try copyFixture("ATS001/tabs.before.plist", to: directory, as: "App\(index)/Info.plist").path)
        }
        return (directory, paths)
    }

    /// `count` runs of `--write --jobs 1 .` in `directory`, started together; each one's exit
    /// status and error lines once all have ended.
    static func writeRunsAtOnce(_ count: Int, in directory: URL) throws -> [(status: Int32, errorLines: [Substring])] {
        let runs = (0..<count).map { _ -> (Process, Pipe, ExitSignal) in
            let process = Process()
            process.executableURL = Paths.executable
            process.arguments = ["--write", "--no-config", "--jobs", "1", "."]
            process.currentDirectoryURL = directory
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            return (process, errors, ExitSignal(process))
        }
        for (process, _, _) in runs { try process.run() }
        return runs.map { process, errors, exited in
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            exited.wait()
            return (process.terminationStatus, stderr.split(separator: "\n").filter { $0.contains("error:") })
        }
    }

    static func append(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return write(fd, bytes, bytes.count) == bytes.count
    }

    /// Another process keeps appending comments to the files while `--write` runs over them:
    /// every append must still be in its file afterwards, whether the file was migrated before,
    /// after or not at all.
    @Test func noAppendIsLostWhileWriting() throws {
        let (directory, paths) = try Self.tree(files: 300)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = Paths.executable
        process.arguments = ["--write", "--no-config", "."]
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let exited = ExitSignal(process)
        try process.run()
        var appended: [[String]] = Array(repeating: [], count: paths.count)
        var round = 0
        while process.isRunning || round < 2 {
            for (index, path) in paths.enumerated() where Self.append("<!-- \(round) -->\n", to: path) {
                appended[index].append("<!-- \(round) -->\n")
            }
            round += 1
        }
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        exited.wait()

        var lost = 0, migrated = 0
        for (index, path) in paths.enumerated() {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let tail = text[text.range(of: "</plist>\n")!.upperBound...]
            if tail != appended[index].joined()[...] { lost += 1 }
            if text.contains("<key>NSExceptionAllowsInsecureHTTPLoads</key>") { migrated += 1 }
        }
        #expect(lost == 0, "\(lost) files lost appends")
        #expect(!stderr.contains("internal error"), "\(stderr)")
        print("concurrent appends: \(round) rounds over \(paths.count) files, \(migrated) migrated while appended to, \(lost) lost")
    }

    /// Two `--write` runs over one tree at once: both succeed, and every file ends migrated.
    @Test func twoWriteRunsAtOnceAgree() throws {
        let (directory, paths) = try Self.tree(files: 400)
        defer { try? FileManager.default.removeItem(at: directory) }
        for run in try Self.writeRunsAtOnce(2, in: directory) {
            #expect(run.status == 0 && run.errorLines.isEmpty, "\(run.errorLines.joined(separator: "\n"))")
        }
        let migrated = try Data(contentsOf: Paths.fixtures.appendingPathComponent("ATS001/tabs.after.plist"))
        for path in paths { #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == migrated) }
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: directory.path).filter { $0.contains("plist-migrate-tmp") }
        #expect(leftovers.isEmpty)
    }

    /// Ten `--write` runs over one tree at once, twenty times: every run succeeds (a run that
    /// finds exactly its own result written by another is no conflict, whenever it looks), and
    /// every file ends migrated. A true concurrent change of other bytes is still refused:
    /// `noAppendIsLostWhileWriting` and `FileIdentityTests`.
    @Test func tenWriteRunsAtOnceAllSucceedRoundAfterRound() throws {
        let migrated = try Data(contentsOf: Paths.fixtures.appendingPathComponent("ATS001/tabs.after.plist"))
        var failures: [String] = []
        for _ in 0..<20 {
            let (directory, paths) = try Self.tree(files: 12)
            defer { try? FileManager.default.removeItem(at: directory) }
            for run in try Self.writeRunsAtOnce(10, in: directory) where run.status != 0 {
                failures.append(run.errorLines.joined(separator: "; "))
            }
            for path in paths where try Data(contentsOf: URL(fileURLWithPath: path)) != migrated { failures.append("\(path) not migrated") }
        }
        #expect(failures.isEmpty, "\(failures.count) of 200 runs failed: \(failures.prefix(3))")
    }
}
