#if os(Linux)
import Foundation
import Testing
import PlistMigrate

/// How the tool (for `git`) and these tests (for everything they start) run a program on Linux:
/// `posix_spawn`, both outputs and the input served at once, no descriptor but the three handed
/// on, a program that outlives its time killed.
@Suite struct ChildProcessTests {
    @Test func theOutputsAndTheStatusAreTheProgramsOwn() throws {
        let ended = try ChildProcess.run("/bin/sh", ["-c", "printf out; printf err >&2; exit 3"])
        #expect(ended.status == 3 && !ended.wasSignalled)
        #expect(ended.standardOutput == Array("out".utf8))
        #expect(ended.standardError == Array("err".utf8))
        let quiet = try ChildProcess.run("/bin/sh", ["-c", "printf err >&2"], standardError: .discarded)
        #expect(quiet.status == 0 && quiet.standardError.isEmpty)
        let merged = try ChildProcess.run("/bin/sh", ["-c", "printf 1; printf 2 >&2; printf 3"], standardError: .intoStandardOutput)
        #expect(merged.standardOutput == Array("123".utf8) && merged.standardError.isEmpty)
        let told = try ChildProcess.run("/bin/sh", ["-c", "printf \"$ONLY:${HOME:-none}\""], environment: ["ONLY": "this"])
        #expect(told.standardOutput == Array("this:none".utf8))
    }

    @Test func inputAndOutputLargerThanAPipeDoNotStall() throws {
        let input = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let ended = try ChildProcess.run("/bin/cat", [], input: input)
        #expect(ended.status == 0)
        #expect(ended.standardOutput == input)
        // Both outputs at once, each beyond a pipe's 64 KB.
        let both = try ChildProcess.run("/bin/sh", ["-c", "head -c 300000 /dev/zero; head -c 200000 /dev/zero >&2; head -c 300000 /dev/zero"])
        #expect(both.standardOutput.count == 600_000 && both.standardError.count == 200_000)
    }

    @Test func aProgramThatReadsNoInputEndsTheRunNormally() throws {
        let ended = try ChildProcess.run("/bin/true", [], input: [UInt8](repeating: 65, count: 1_000_000))
        #expect(ended.status == 0 && !ended.wasSignalled)
        // SIGPIPE keeps its default action, in this process and in the programs it starts.
        var action = sigaction()
        #expect(sigaction(SIGPIPE, nil, &action) == 0)
        #expect(unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_DFL, to: Int.self))
        let piped = try ChildProcess.run("/bin/sh", ["-c", "yes | head -c 1"], input: [1])
        #expect(piped.standardOutput == Array("y".utf8) && piped.standardError.isEmpty, "\(String(decoding: piped.standardError, as: UTF8.self))")
        let empty = try ChildProcess.run("/bin/cat", [], input: [])
        #expect(empty.status == 0 && empty.standardOutput.isEmpty)
    }

    @Test func itRunsInTheDirectoryGiven() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ended = try ChildProcess.run("/bin/pwd", ["-P"], in: directory.path)
        let expected = directory.resolvingSymlinksInPath().path
        #expect(String(decoding: ended.standardOutput, as: UTF8.self) == expected + "\n")
        #expect(throws: ChildProcess.Failure.self) { try ChildProcess.run("/bin/pwd", [], in: directory.appendingPathComponent("gone").path) }
    }

    @Test func theProgramGetsNoDescriptorButTheThree() throws {
        // A pipe this process holds without close-on-exec, as another thread's might be.
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let ended = try ChildProcess.run("/bin/ls", ["/proc/self/fd"])
        // `ls` itself holds the directory it lists (3).
        #expect(String(decoding: ended.standardOutput, as: UTF8.self).split(separator: "\n") == ["0", "1", "2", "3"])
    }

    /// A run over many repositories starts `git` once for each: nothing may stay open after.
    @Test func noDescriptorIsLeftOpen() throws {
        func openDescriptors() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count }
        // Other suites open and close files meanwhile: the count is compared over many runs.
        let before = try openDescriptors()
        for round in 0..<300 {
            _ = try ChildProcess.run("/bin/sh", ["-c", "cat; printf e >&2"], input: [UInt8(round & 0x7f)],
                                     standardError: round % 3 == 0 ? .discarded : round % 3 == 1 ? .collected : .intoStandardOutput,
                                     killAfter: round % 2 == 0 ? 30 : nil)
        }
        #expect(try openDescriptors() < before + 100, "about 4 descriptors a run would be 1,200")
    }

    @Test func aProgramThatOutlivesItsTimeIsKilled() throws {
        let ended = try ChildProcess.run("/bin/sleep", ["30"], killAfter: 0.2)
        #expect(ended.wasSignalled && ended.status == SIGKILL)
        #expect(throws: ChildProcess.Failure.self) { try ChildProcess.run("/nonexistent/program", []) }
    }
}
#endif
