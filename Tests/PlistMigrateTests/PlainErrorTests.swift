import Foundation
import Testing

/// A file that is not well-formed is the file's error, said in plain words: "internal error" is
/// for the tool's own bugs only. libxml2 words some of the file's errors as internal ones (a
/// DOCTYPE's internal subset holding no declaration, a file cut inside a UTF-8 character).
@Suite struct PlainErrorTests {
    static let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    static let body = "<plist version=\"1.0\">\n<dict>\n\t<key>NSAppTransportSecurity</key>\n\t<dict>\n"
        + "\t\t<key>NSExceptionDomains</key>\n\t\t<dict>\n\t\t\t<key>café.example.com</key>\n\t\t\t<dict/>\n"
        + "\t\t</dict>\n\t</dict>\n\t<key>Name</key>\n\t<string>日本語 ✓ 𝄞</string>\n</dict>\n</plist>\n"

    /// Each bad file with what its one line must say.
    static func badFiles() -> [(name: String, bytes: [UInt8], says: String)] {
        var files: [(String, [UInt8], String)] = []
        // libxml2 calls the first an internal error; the others get words of their own, and
        // an unterminated comment's came with the rest of the file on further lines.
        for (index, subset) in ["<!FOO>", "<!ELEMENT>", "<!-- x", "<!>", "<!ENTITY>"].enumerated() {
            files.append(("doctype\(index).plist", Array((header + "<!DOCTYPE plist [\(subset)]>\n" + body).utf8), index == 0 ? "DOCTYPE" : ""))
        }
        // Cut inside every multi-byte character: after its first byte, and after each later one
        // but its last.
        let whole = Array((header + body).utf8)
        for (offset, byte) in whole.enumerated() where byte >= 0xC0 {
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            for kept in 1..<length {
                files.append(("cut-\(offset)-\(kept).plist", Array(whole[..<(offset + kept)]), "cut short"))
            }
        }
        return files
    }

    @Test(arguments: [[String](), ["lint"]])
    func badXMLIsTheFilesErrorInPlainWords(_ subcommand: [String]) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = Self.badFiles()
        for file in files { try Data(file.bytes).write(to: directory.appendingPathComponent(file.name)) }
        let result = try tool(subcommand + ["--no-config", "--jobs", "1", "."], in: directory)
        #expect(result.status == 2, "\(result.stderr.prefix(500))")
        let all = result.text + "\n" + result.stderr
        #expect(!all.contains("internal error"), "\(all.prefix(2000))")
        let errors = all.split(separator: "\n").filter { $0.contains(": error:") }
        for file in files {
            let lines = errors.filter { $0.hasPrefix("\(file.name):") || $0.hasPrefix("./\(file.name):") }
            #expect(lines.count == 1, "\(file.name): \(lines)")
            guard let line = lines.first else { continue }
            #expect(file.says.isEmpty || line.contains(file.says), "\(file.name): \(line)")
            // path:line:column: error: …
            let parts = line.split(separator: ":", maxSplits: 3)
            #expect(parts.count == 4 && Int(parts[1]) != nil && Int(parts[2]) != nil, "\(line)")
        }
    }

    /// Every input kept for the fuzzers and every bad-input fixture: no "internal error" either.
    @Test func noKeptFuzzInputOrBadFixtureIsAnInternalError() throws {
        let root = Paths.fixtures.deletingLastPathComponent()
        var inputs = [root.appendingPathComponent("Fuzz/regressions").path]
        for folder in ["errors", "hostile"] { inputs.append(Paths.fixtures.appendingPathComponent(folder).path) }
        for subcommand in [[String](), ["lint"]] {
            let result = try tool(subcommand + ["--no-config", "--jobs", "1"] + inputs, in: root)
            #expect(result.status != 64, "\(result.stderr.prefix(500))")
            let all = result.text + "\n" + result.stderr
            #expect(!all.contains("internal error"), "\(subcommand): \(all.prefix(2000))")
        }
    }
}
