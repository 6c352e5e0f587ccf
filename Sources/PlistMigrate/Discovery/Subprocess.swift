import Foundation

enum Subprocess {
    /// Runs `command` from PATH; its standard output, or `nil` if it could not run or failed.
    static func run(_ command: String, _ arguments: [String]) -> [UInt8]? {
        #if os(Linux)
        guard let ended = try? ChildProcess.run("/usr/bin/env", [command] + arguments, standardError: .discarded),
            !ended.wasSignalled, ended.status == 0
        else { return nil }
        return ended.standardOutput
        #else
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let exited = ExitSignal(process)
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        exited.wait()
        return process.terminationStatus == 0 ? Array(data) : nil
        #endif
    }

    /// Returns once a process has exited and its status is known. Set up before `run()`: it is
    /// told by the termination handler, where `waitUntilExit()` on Linux polls its run loop in
    /// 50 ms steps, so every `git ls-files` of a run cost it up to 50 ms of waiting.
    final class ExitSignal: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)

        init(_ process: Process) {
            process.terminationHandler = { [semaphore] _ in semaphore.signal() }
        }

        func wait() { semaphore.wait() }
    }
}
