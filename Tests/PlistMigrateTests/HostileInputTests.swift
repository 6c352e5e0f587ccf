import Foundation
import Testing

/// Every bad input, through the real command line: one `path:line:column: error:` line (or
/// `path: error:` where there is no position), exit 2, the file untouched, no crash.
/// How long each takes and how much memory it uses is measured by Benchmarks/hostile.sh.
@Suite struct HostileInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let folder: String
        let file: String
        let location: String
        let message: String
        var testDescription: String { "\(folder)/\(file)" }
    }

    static let cases: [Case] = ["errors", "hostile"].flatMap { folder -> [Case] in
        let url = Paths.fixtures.appendingPathComponent(folder).appendingPathComponent("expected.tsv")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Case(folder: folder, file: fields[0], location: fields[1], message: fields[2])
        }
    }

    @Test(arguments: cases)
    func refusedWithOneLineAndUntouched(_ bad: Case) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try copyFixture("\(bad.folder)/\(bad.file)", to: dir, as: "Info.plist")
        let before = try Data(contentsOf: file)
        let result = try tool(["--write", "Info.plist"], in: dir)
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2, "one error line and the summary: \(result.stderr)")
        #expect(lines.first == "Info.plist:\(bad.location): error: \(bad.message)"[...])
        #expect(result.stdout.isEmpty)
        #expect(try Data(contentsOf: file) == before)
    }

    /// `Big.plist` of `size` bytes in `dir`, sparse: nothing on disk.
    func sparseFile(_ size: UInt64, in dir: URL) throws {
        let url = dir.appendingPathComponent("Big.plist")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: size)
        try handle.close()
    }

    @Test func aHundredMegabyteFileIsRefusedUnread() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try sparseFile(100 << 20, in: dir)
        let result = try tool(["--write", "Big.plist"], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Big.plist: error: file too large (104857600 bytes; the limit is 33554432 bytes, 32 MiB)\n"))
    }

    /// One byte over the limit is over the limit, and the message says so.
    @Test func oneByteOverTheLimitSaysBytes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try sparseFile((32 << 20) + 1, in: dir)
        let result = try tool(["Big.plist"], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Big.plist: error: file too large (33554433 bytes; the limit is 33554432 bytes, 32 MiB)\n"))
    }

    @Test func hundredThousandLevelsOfNestingIsAnError() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = "<plist>" + String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000) + "</plist>"
        try Data(text.utf8).write(to: dir.appendingPathComponent("Deep.plist"))
        let result = try tool(["Deep.plist"], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Deep.plist:1:"))
        #expect(result.stderr.contains("error: nesting too deep (libxml2 allows 256 levels)"))
    }

    @Test func whitespaceOnlyAndEmptyStdinAreErrors() throws {
        let result = try tool(["--write", "-"], in: FileManager.default.temporaryDirectory, input: Data(" \n\t".utf8))
        #expect(result.status == 2)
        #expect(result.stderr.contains("-:1:1: error: empty file (only whitespace)"))
        #expect(result.stdout.isEmpty, "nothing is written to stdout for a refused input")
    }

    @Test(.enabled(if: getuid() != 0, "root can read any file, so there is no unreadable file to test with"))
    func unreadableFileIsAnError() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try copyFixture("ATS002/tabs.before.plist", to: dir, as: "Info.plist")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
        let result = try tool(["Info.plist"], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Info.plist: error: cannot open: permission denied"))
    }
}
