#if os(Linux)
import Glibc

/// Runs a program to its end through `posix_spawn` and collects what it writes (Linux only:
/// other systems use Foundation's `Process`).
///
/// Not Foundation's `Process` on Linux: its `run()` (swift-corelibs-foundation as shipped with
/// Swift 6.3) copies the whole 256-byte name field of each `/proc/self/fd` entry it lists, which
/// reads past glibc's directory buffer when an entry ends just before an unmapped page, and the
/// caller crashes (SIGSEGV in `memcpy`). Runs from several threads at once make it likelier.
package enum ChildProcess {
    package struct Ended: Sendable {
        /// The exit status, or the number of the signal that ended the program.
        package var status: Int32
        package var wasSignalled: Bool
        package var standardOutput: [UInt8]
        package var standardError: [UInt8]
    }

    /// Where the program's standard error goes.
    package enum StandardError: Sendable {
        case collected, discarded
        /// Into the same pipe as standard output, interleaved as written (a terminal's view).
        case intoStandardOutput
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Runs `executable` (a path) with `arguments`, in `directory` when given, with `input` on
    /// its standard input (else an empty one), until it exits; after `killAfter` seconds it is
    /// killed (`SIGKILL`). The program gets `environment` (else this process's) and no
    /// descriptor but the three.
    package static func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil,
        input: [UInt8]? = nil, standardError: StandardError = .collected, killAfter seconds: Double? = nil
    ) throws -> Ended {
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        func pipeEnds() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard (pipeClosingOnExec.map { $0(&ends, O_CLOEXEC) } ?? pipe(&ends)) == 0 else { throw failure("pipe") }
            opened += ends
            return (ends[0], ends[1])
        }
        let nothing = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard nothing >= 0 else { throw failure("/dev/null") }
        opened.append(nothing)
        let output = try pipeEnds()
        let errors = standardError == .collected ? try pipeEnds() : nil
        let feed = input == nil ? nil : try pipeEnds()

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, feed?.read ?? nothing, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errors?.write ?? (standardError == .intoStandardOutput ? output.write : nothing), 2)
        if let directory {
            guard let changeDirectory else { throw Failure(description: "cannot run \(executable) in \(directory): the C library has no posix_spawn_file_actions_addchdir_np") }
            _ = changeDirectory(&actions, directory)
        }
        // Descriptors another thread opened without close-on-exec stay out of the program.
        if let closeFrom { _ = closeFrom(&actions, 3) }

        // The program starts with SIGPIPE's default action (the tool ignores it, and an ignored
        // signal stays ignored across exec: `yes | head` would complain) and no signal blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), none = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for string in argv + (envp ?? []) { free(string) } }
        var pid = pid_t()
        let spawned = envp.map { posix_spawn(&pid, executable, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot run \(executable): \(String(cString: strerror(spawned)))") }
        // The program's ends are its own now: EOF on ours comes when it exits.
        for end in [output.write, errors?.write, feed?.read].compactMap({ $0 }) {
            close(end)
            opened.removeAll { $0 == end }
        }
        let collected = drain(output: output.read, errors: errors?.read, feed: feed?.write, input: input ?? [], pid: pid, killAfter: seconds)
        opened.removeAll { [output.read, errors?.read, feed?.write].contains($0) }

        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw failure("waitpid") }
        }
        let signal = status & 0x7f
        return Ended(status: signal == 0 ? (status >> 8) & 0xff : signal, wasSignalled: signal != 0,
                     standardOutput: collected.output, standardError: collected.errors)
    }

    /// Reads both outputs and writes the input as each is ready, so that neither side waits on a
    /// full pipe; closes the three descriptors.
    private static func drain(
        output: Int32, errors: Int32?, feed: Int32?, input: [UInt8], pid: pid_t, killAfter seconds: Double?
    ) -> (output: [UInt8], errors: [UInt8]) {
        var collected: [[UInt8]] = [[], []]
        var open: [Int32?] = [output, errors, feed]
        var written = 0
        if let feed {
            _ = fcntl(feed, F_SETFL, fcntl(feed, F_GETFL) | O_NONBLOCK)
            if input.isEmpty { close(feed); open[2] = nil }
        }
        // A program that exits before it read all its input leaves a broken pipe: the write gets
        // `EPIPE`, and the SIGPIPE that comes with it, blocked on this thread alone, is taken
        // before the thread's signal mask is restored (the process's handling stays as it was).
        var brokenPipe = sigset_t(), previousMask = sigset_t()
        sigemptyset(&brokenPipe)
        sigaddset(&brokenPipe, SIGPIPE)
        if open[2] != nil { pthread_sigmask(SIG_BLOCK, &brokenPipe, &previousMask) }
        defer {
            if feed != nil, !input.isEmpty {
                var noWait = timespec()
                while sigtimedwait(&brokenPipe, nil, &noWait) == SIGPIPE {}
                pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            }
        }
        let deadline = seconds.map { now() + $0 }
        var killed = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while open.contains(where: { $0 != nil }) {
            var watched = open.enumerated().compactMap { index, descriptor in
                descriptor.map { pollfd(fd: $0, events: Int16(index == 2 ? POLLOUT : POLLIN), revents: 0) }
            }
            if let deadline, !killed, now() >= deadline {
                kill(pid, SIGKILL)
                killed = true
            }
            let wait = deadline.map { killed ? -1 : max(0, Int32((($0 - now()) * 1000).rounded(.up))) } ?? -1
            let ready = poll(&watched, nfds_t(watched.count), wait)
            if ready < 0, errno != EINTR {
                // Nothing more can be read: the program is not left running unseen.
                if !killed { kill(pid, SIGKILL) }
                break
            }
            if ready <= 0 { continue }
            for entry in watched where entry.revents != 0 {
                guard let index = open.firstIndex(of: entry.fd) else { continue }
                if index == 2 {
                    let count = input.withUnsafeBytes { write(entry.fd, $0.baseAddress! + written, input.count - written) }
                    if count > 0 { written += count }
                    if written == input.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                        close(entry.fd)
                        open[2] = nil
                    }
                } else {
                    let count = read(entry.fd, &buffer, buffer.count)
                    if count > 0 {
                        collected[index] += buffer[..<count]
                    } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                        close(entry.fd)
                        open[index] = nil
                    }
                }
            }
        }
        for case let descriptor? in open { close(descriptor) }
        return (collected[0], collected[1])
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }

    // glibc's `pipe2` (2.9), `posix_spawn_file_actions_addchdir_np` (2.29) and `…_addclosefrom_np`
    // (2.34), which Swift's Glibc module does not declare (they need `_GNU_SOURCE`); `nil` where
    // the C library lacks one.
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static func cFunction<Function>(_ name: String, as type: Function.Type) -> Function? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
    }
    private static let pipeClosingOnExec = cFunction("pipe2", as: Pipe2.self)
    private static let changeDirectory = cFunction("posix_spawn_file_actions_addchdir_np", as: AddChdir.self)
    private static let closeFrom = cFunction("posix_spawn_file_actions_addclosefrom_np", as: AddCloseFrom.self)
}
#endif
