import Foundation
import Testing

/// A walked file that is no UTF-8 text plist (encrypted, binary, UTF-16/32 without the ATS key,
/// NUL bytes without it) is skipped with its reason and counted; a file named explicitly is an
/// error, and so is a walked text plist the run should read (it holds a key the passes edit)
/// that is broken by a NUL byte.
@Suite struct WalkedNonTextTests {
    static func tree() throws -> URL {
        let directory = try temporaryDirectory()
        let d = directory.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        func write(_ name: String, _ bytes: [UInt8]) throws { try Data(bytes).write(to: d.appendingPathComponent(name)) }
        try write("GoogleService-Info.plist", Array("\0GITCRYPT\0".utf8) + [0x64, 0x27, 0x00, 0x91])
        let plain = "<?xml version=\"1.0\"?>\n<plist><dict><key>A</key><string>x</string></dict></plist>\n"
        try write("utf16.plist", [0xFF, 0xFE] + plain.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        try write("utf16be-nobom.plist", plain.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        try write("utf32.plist", [0xFF, 0xFE, 0x00, 0x00] + plain.unicodeScalars.flatMap { s -> [UInt8] in
            let v = s.value
            return [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), 0]
        })
        try write("binary.plist", Array("<?xml version=\"1.0\"?>\n<plist>\0\0\u{01}".utf8))
        _ = try copyFixture("ATS001/tabs.before.plist", to: directory, as: "d/App/Info.plist")
        return directory
    }

    @Test func everyCommandOverTheTreeSkipsThemWithTheirReasons() throws {
        let directory = try Self.tree()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dry = try tool(["--no-config", "d"], in: directory)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr.contains("1 encrypted (git-crypt)"), "\(dry.stderr)")
        #expect(dry.stderr.contains("3 UTF-16") == false)
        #expect(dry.stderr.contains("2 UTF-16 text, none of the keys the passes edit"), "\(dry.stderr)")
        #expect(dry.stderr.contains("1 UTF-32 text, none of the keys the passes edit"), "\(dry.stderr)")
        #expect(dry.stderr.contains("1 binary (NUL bytes)"), "\(dry.stderr)")
        #expect(dry.stderr.contains("0 errors"))
        #expect(try tool(["--no-config", "--check", "d"], in: directory).status == 1, "the one real plist is pending")
        #expect(try tool(["lint", "--no-config", "d"], in: directory).status != 2)
        let recipe = Paths.repository.appendingPathComponent("Recipes/export-compliance.yml").path
        // A recipe's pass may edit any plist: the XML one that holds NUL bytes is then one the
        // run should read, so it is an error of that file with its place, not a silent skip.
        let withRecipe = try tool(["--no-config", "--recipe", recipe, "--only", "ENC001", "d"], in: directory)
        #expect(withRecipe.status == 2 && withRecipe.stderr.contains("d/binary.plist:2:"), "\(withRecipe.stderr)")
        #expect(!withRecipe.stderr.contains("encrypted") || withRecipe.stderr.contains("1 encrypted (git-crypt)"), "\(withRecipe.stderr)")
    }

    @Test func aFileNamedExplicitlyIsStillAnError() throws {
        let directory = try Self.tree()
        defer { try? FileManager.default.removeItem(at: directory) }
        let named = try tool(["--no-config", "d/GoogleService-Info.plist"], in: directory)
        #expect(named.status == 2)
        #expect(named.stderr.contains("d/GoogleService-Info.plist:1:1: error: NUL byte"), "\(named.stderr)")
    }

    @Test func aWalkedUTF16FileWithTheATSKeyIsAnErrorSayingHowToConvertIt() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "<?xml version=\"1.0\"?>\n<plist><dict><key>NSAppTransportSecurity</key><dict/></dict></plist>\n"
        try Data([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: directory.appendingPathComponent("Info.plist"))
        let result = try tool(["--no-config", "."], in: directory)
        #expect(result.status == 2 && result.stderr.contains("UTF-16 property list: not supported, convert with"))
    }

    /// A walked XML plist that holds the ATS key and a NUL byte is an error of that file, with
    /// its place, in every command: never a silent skip.
    @Test func aWalkedPlistWithTheATSKeyAndANULByteIsAnError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "<?xml version=\"1.0\"?>\n<plist><dict><key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/></dict>\n<key>A</key><string>x\0y</string></dict></plist>\n"
        try Data(text.utf8).write(to: directory.appendingPathComponent("d/Info.plist").creatingParent())
        for arguments in [["--no-config", "d"], ["--no-config", "--check", "d"], ["lint", "--no-config", "d"]] {
            let result = try tool(arguments, in: directory)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect((result.text + result.stderr).contains("d/Info.plist:3:"), "\(arguments): the file and its place: \(result.text)\(result.stderr)")
            #expect(!result.stderr.contains("binary (NUL bytes)"), "\(arguments): \(result.stderr)")
        }
    }
}
