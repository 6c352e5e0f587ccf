import Foundation
import Testing
@testable import PlistMigrate

#if canImport(Glibc)
import Glibc
#endif
@testable import FileAccess

/// Names are bytes, and every way the tool shows one keeps them apart: text,
/// JSON (`path` plus `pathBytes`) and patches use `git diff`'s quoting, which `git apply` reads.
@Suite struct NamesAsBytesTests {
    /// Directory names, as bytes: two that the old `\xNN` escaping printed alike, control
    /// characters, a quote, a bidirectional override, and plain UTF-8.
    static let names: [[UInt8]] = [
        Array("dir".utf8) + [0xFF, 0xFE],
        Array("dir\\xFF\\xFE".utf8),
        Array("new\nline".utf8),
        Array("tab\tname".utf8),
        Array("esc\u{1B}[31mred".utf8),
        Array("quote\"d".utf8),
        Array("rtl\u{202E}lpm".utf8),
        Array("Café".utf8),
    ]

    @Test func displayIsOneToOneAndReversible() {
        var generator = SystemRandomNumberGenerator()
        // Keyed by the shown bytes: Swift's String equality is canonical equivalence, so "À"
        // and "A" + U+0340 (two paths, two displays) would be one key (a flake of this test).
        var seen: [[UInt8]: [UInt8]] = [:]
        let interesting: [UInt8] = [0x5C, 0x22, 0x78, 0x46, 0x33, 0x37, 0x0A, 0x09, 0x1B, 0xFF, 0xE2, 0x80, 0xAE, 0xC3, 0xA9, 0x2F]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                Bool.random(using: &generator) ? interesting.randomElement(using: &generator)! : UInt8.random(in: 1...255, using: &generator)
            }
            let path = PathBytes.string(bytes)
            for shown in [PathBytes.display(path), PathBytes.gitQuoted(path)] {
                #expect(PathBytes.unquoted(shown).map { PathBytes.c($0).dropLast().map { UInt8(bitPattern: $0) } } == bytes, "\(bytes)")
                #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) || $0 == "\u{202E}" },
                        "\(bytes): nothing a terminal acts on")
            }
            let shown = PathBytes.display(path)
            if let other = seen[Array(shown.utf8)] { #expect(other == bytes, "\(other) and \(bytes) both show as \(shown)") }
            seen[Array(shown.utf8)] = bytes
        }
        #expect(PathBytes.display("Café/Info.plist") == "Café/Info.plist", "printable UTF-8 reads as it is")
        #expect(PathBytes.gitQuoted("Café") == "\"Caf\\303\\251\"", "as git diff writes it under core.quotePath")
        #expect(PathBytes.display("a\tb") == "\"a\\tb\"")
        #expect(PathBytes.display(PathBytes.string(Self.names[0])) != PathBytes.display(PathBytes.string(Self.names[1])))
    }

    static func tree() throws -> URL {
        let directory = try temporaryDirectory()
        let source = Array(try Data(contentsOf: Paths.fixtures.appendingPathComponent("ATS001/spaces.before.plist")))
        for name in names {
            let dir = Array(directory.path.utf8) + [0x2F] + name
            #expect(mkdir(dir.map { CChar(bitPattern: $0) } + [0], 0o755) == 0)
            let fd = open((dir + Array("/Info.plist".utf8)).map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            #expect(fd >= 0)
            _ = source.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        return directory
    }

    static func contents(_ directory: URL) throws -> [[UInt8]: [UInt8]] {
        var contents: [[UInt8]: [UInt8]] = [:]
        for name in names {
            let path = Array(directory.path.utf8) + [0x2F] + name + Array("/Info.plist".utf8)
            let fd = open(path.map { CChar(bitPattern: $0) } + [0], O_RDONLY)
            #expect(fd >= 0)
            var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count <= 0 { break }
                bytes += buffer[..<count]
            }
            close(fd)
            contents[name] = bytes
        }
        return contents
    }

    @Test func gitApplyOfThePatchEditsEachFileAsWriteDoes() throws {
        let written = try Self.tree(), patched = try Self.tree()
        defer { for directory in [written, patched] { try? FileManager.default.removeItem(at: directory) } }
        let before = try Self.contents(patched)
        #expect(try tool(["--write", "--no-config", "."], in: written).status == 0)
        let patch = try tool(["--format", "patch", "--no-config", "."], in: patched)
        #expect(patch.status == 0, "\(patch.stderr)")
        let headers = patch.text.split(separator: "\n").filter { $0.hasPrefix("--- ") }
        #expect(headers.count == Self.names.count, "one header line per file, whatever its name: \(headers)")
        let file = patched.appendingPathComponent("changes.patch")
        try Data(patch.text.utf8).write(to: file)
        let apply = try run(URL(fileURLWithPath: "/usr/bin/env"), ["git", "apply", "changes.patch"], in: patched)
        #expect(apply.status == 0, "\(apply.stderr)")
        let after = try Self.contents(patched)
        #expect(after == (try Self.contents(written)), "git apply of the patch gives what --write wrote")
        #expect(after != before)
    }

    @Test func textJSONAndReportKeepEveryNameApart() throws {
        let directory = try Self.tree()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try tool(["--no-config", "."], in: directory)
        for output in [text.text, text.stderr] {
            #expect(!output.unicodeScalars.contains("\u{1B}"), "no terminal escape reaches the terminal")
            #expect(!output.contains("\u{202E}"))
        }
        let json = try tool(["--format", "json", "--no-config", "."], in: directory)
        #expect(json.status == 0, "\(json.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as! [String: Any]
        let files = document["files"] as! [[String: Any]]
        let paths = files.map { $0["path"] as! String }
        #expect(Set(paths).count == Self.names.count, "\(paths)")
        var bytes: Set<[UInt8]> = []
        for record in files {
            let path = record["path"] as! String
            if let encoded = record["pathBytes"] as? String {
                #expect(PathBytes.isQuoted(path))
                bytes.insert(Array(Data(base64Encoded: encoded)!))
            } else {
                #expect(!PathBytes.isQuoted(path))
                bytes.insert(Array(path.utf8))
            }
        }
        #expect(bytes == Set(Self.names.map { $0 + Array("/Info.plist".utf8) }), "pathBytes are the names' bytes")
        // The same edit is one kind of change whatever the name in its diff's header.
        let groups = Set(files.flatMap { ($0["passes"] as? [[String: Any]] ?? []).map { $0["group"] as! String } })
        #expect(groups.count == Set(files.flatMap { ($0["passes"] as? [[String: Any]] ?? []).map { $0["id"] as! String } }).count, "\(groups)")
        let report = directory.appendingPathComponent("run.json")
        try Data(json.text.utf8).write(to: report)
        let merged = try tool(["report", "--format", "json", "run.json"], in: directory)
        #expect(merged.status == 0, "the tool reads its own report back: \(merged.stderr)")
    }

    /// SARIF's artifact URIs hold the names' bytes, percent-encoded, not the quoted text.
    @Test func sarifURIsAreTheBytesPercentEncoded() throws {
        let directory = try Self.tree()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lint = try tool(["lint", "--format", "sarif", "--no-config", "."], in: directory)
        let sarif = try JSONSerialization.jsonObject(with: Data(lint.text.utf8)) as! [String: Any]
        let results = ((sarif["runs"] as! [[String: Any]])[0]["results"] as! [[String: Any]])
        let uris = Set(results.map {
            ((($0["locations"] as! [[String: Any]])[0]["physicalLocation"] as! [String: Any])["artifactLocation"] as! [String: Any])["uri"] as! String
        })
        #expect(uris.contains("dir%FF%FE/Info.plist"), "\(uris)")
        #expect(uris.contains("dir%5CxFF%5CxFE/Info.plist"), "\(uris)")
        #expect(uris.contains("new%0Aline/Info.plist"), "\(uris)")
        #expect(uris.contains("Caf%C3%A9/Info.plist"), "\(uris)")
    }
}
