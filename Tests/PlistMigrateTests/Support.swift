import Foundation
import Testing
import PlistMigrate

/// How a test waits for a process it started: `ExitSignal(process)` before `run()`, `wait()`
/// after, told by the termination handler. `waitUntilExit()` polls in 50 ms steps on Linux,
/// which held a test thread ~40 ms per run of the tool (some 850 runs per `swift test`). The
/// library's `Subprocess.ExitSignal` is the same; tests keep their own, as they do `run`.
final class ExitSignal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    init(_ process: Process) {
        process.terminationHandler = { [semaphore] _ in semaphore.signal() }
    }

    func wait() { semaphore.wait() }
}

enum Paths {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Fixtures")
    static let corpus = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// The `plist-migrate` executable `swift test` built beside the test bundle.
    static var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("plist-migrate")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return repository.appendingPathComponent(".build/debug/plist-migrate")
    }
}

struct ProcessResult {
    var status: Int32
    var stdout: Data
    var stderr: String
    /// Ended by a signal (`status` is its number).
    var wasSignalled = false
    var text: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs a command with `arguments` in `directory`, feeding `input` on standard input; with
/// `environment` instead of this process's, standard error into standard output when
/// `mergingErrors`, and killed (SIGKILL) after `killAfter` seconds when given.
func run(
    _ command: URL, _ arguments: [String], in directory: URL, input: Data? = nil, environment: [String: String]? = nil,
    mergingErrors: Bool = false, killAfter seconds: Double? = nil
) throws -> ProcessResult {
    #if os(Linux)
    // Not `Process`: its `run()` can crash the test process on Linux (see `ChildProcess`).
    let ended = try ChildProcess.run(command.path, arguments, in: directory.path, environment: environment, input: input.map(Array.init),
                                     standardError: mergingErrors ? .intoStandardOutput : .collected, killAfter: seconds)
    return ProcessResult(status: ended.status, stdout: Data(ended.standardOutput), stderr: String(decoding: ended.standardError, as: UTF8.self),
                         wasSignalled: ended.wasSignalled)
    #else
    let process = Process()
    process.executableURL = command
    process.arguments = arguments
    process.currentDirectoryURL = directory
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe(), inPipe = Pipe()
    process.standardOutput = out
    process.standardError = mergingErrors ? out : err
    process.standardInput = inPipe
    let exited = ExitSignal(process)
    try process.run()
    let pid = process.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    if let seconds { DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog) }
    // Both streams are drained at once: a full stderr pipe would otherwise block the tool while
    // this reads stdout.
    // (Merged, standard error has no pipe of its own to drain: `err` is never the program's.)
    let errors = mergingErrors ? nil : PipeDrain(err.fileHandleForReading)
    if let input { inPipe.fileHandleForWriting.write(input) }
    try inPipe.fileHandleForWriting.close()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = errors?.wait() ?? Data()
    exited.wait()
    watchdog.cancel()
    return ProcessResult(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self),
                         wasSignalled: process.terminationReason == .uncaughtSignal)
    #endif
}

/// `run`, with the process killed after `seconds`: a hang becomes a failure (status 9, signalled),
/// not a stuck test run.
func runWithWatchdog(_ command: URL, _ arguments: [String], in directory: URL, seconds: Double) throws -> ProcessResult {
    try run(command, arguments, in: directory, killAfter: seconds)
}

func tool(_ arguments: [String], in directory: URL, input: Data? = nil) throws -> ProcessResult {
    try run(Paths.executable, arguments, in: directory, input: input)
}

func git(_ arguments: [String], in directory: URL) throws -> ProcessResult {
    try run(URL(fileURLWithPath: "/usr/bin/env"), ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"] + arguments, in: directory)
}

/// A fresh temporary directory, removed by the caller's `defer`: on a memory file system when
/// there is one (`Scratch`), or on disk (`onDisk`) for the tests whose subject is what a disk
/// file system keeps (owner, mode, extended attributes, ACLs, links, leases).
func temporaryDirectory(onDisk: Bool = false) throws -> URL {
    let root = onDisk ? FileManager.default.temporaryDirectory : Scratch.root
    let url = root.appendingPathComponent("plist-migrate-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Where tests make their files. A test run creates and deletes some 100,000 files (the kill
/// test alone replaces 2,000 files fourteen times); on ext4 each new file then costs a scan past
/// the inodes deleted in the last minute (`recently_deleted` in the kernel's profile), which was
/// a fifth of the run's time (`swift test`: 156 s with /tmp, 123 s with /dev/shm, on 2 cores).
/// So: `/dev/shm` when it is a writable tmpfs with 4 GB free (Docker's default is 64 MB), else
/// the system's temporary directory; `PLIST_MIGRATE_TEST_TMPDIR` names another place.
enum Scratch {
    static let root: URL = {
        if let chosen = ProcessInfo.processInfo.environment["PLIST_MIGRATE_TEST_TMPDIR"], !chosen.isEmpty {
            return URL(fileURLWithPath: chosen, isDirectory: true)
        }
        #if os(Linux)
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        let isTmpfs = mounts.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().prefix(2) == ["/dev/shm", "tmpfs"] }
        var space = statvfs()
        if isTmpfs, access("/dev/shm", W_OK) == 0, statvfs("/dev/shm", &space) == 0,
           UInt64(space.f_bavail) * UInt64(space.f_frsize) >= 4 << 30 {
            return URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        }
        #endif
        return FileManager.default.temporaryDirectory
    }()
}

/// A fresh temporary directory holding fixtures, each at its name: `["App/Info.plist":
/// "ATS001/tabs.before.plist"]`. Removed by the caller's `defer`.
func temporaryDirectory(holding fixtures: KeyValuePairs<String, String>) throws -> URL {
    let directory = try temporaryDirectory()
    for (name, fixture) in fixtures { _ = try copyFixture(fixture, to: directory, as: name) }
    return directory
}

func copyFixture(_ relative: String, to directory: URL, as name: String) throws -> URL {
    let destination = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent(relative), to: destination)
    return destination
}

/// Reads a pipe to its end on a thread of its own.
final class PipeDrain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

/// Whether Python 3 can import `module`: tests that need one (jsonschema, PyYAML) skip with
/// the reason when it is missing; `.ci/run` installs them, so CI always runs those tests.
func pythonHas(_ module: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import \(module)"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let exited = ExitSignal(process)
    guard (try? process.run()) != nil else { return false }
    exited.wait()
    return process.terminationStatus == 0
}

/// A JSON report without its `generatedAt` line: two runs a second apart differ only there.
func withoutRunTime(_ data: Data) -> Data {
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    // When the run was made, and where (`base`: the directory its paths are relative to).
    return Data(lines.filter { !$0.contains("\"generatedAt\" : ") && !$0.contains("\"base\" : ") }.joined(separator: "\n").utf8)
}

/// A 16 KB tmpfs mounted at `mountPoint` (made here) for a full-disk test: root only (tests
/// using it are enabled by `FileIdentityTests.isRoot`). `unmountSmallDisk` takes it away.
func mountSmallDisk(at mountPoint: URL) throws {
    try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
    let mount = try run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=16k", "tmpfs", mountPoint.path],
                        in: mountPoint.deletingLastPathComponent())
    try #require(mount.status == 0, "cannot mount a tmpfs here: \(mount.stderr)")
}

func unmountSmallDisk(_ mountPoint: URL) {
    _ = try? run(URL(fileURLWithPath: "/bin/umount"), [mountPoint.path], in: mountPoint.deletingLastPathComponent())
}

/// Fills what is left of the disk at `mountPoint` with a file named `filler`.
func fillDisk(_ mountPoint: URL) throws {
    let filler = mountPoint.appendingPathComponent("filler")
    #expect(FileManager.default.createFile(atPath: filler.path, contents: nil))
    let handle = try FileHandle(forWritingTo: filler)
    while (try? handle.write(contentsOf: Data(repeating: 0x20, count: 512))) != nil {}
    try? handle.close()
}
