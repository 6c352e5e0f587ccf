import Foundation
import Testing

/// The arrows of ARCHITECTURE.md, read from every source file's `import` lines: CLI →
/// PlistMigrate → Project → FileAccess, Migrations/ATSPolicy → PlistDOM → CLibXML2, and
/// nothing back.
@Suite struct ArchitectureTests {
    /// The project's modules each may import; system modules are always allowed.
    static let allowed: [String: Set<String>] = [
        "Sources/PlistDOM": ["CLibXML2"],
        "Migrations": ["PlistDOM"],
        "Sources/ATSPolicy": ["PlistDOM"],
        "Sources/FileAccess": ["PlistDOM"],
        "Sources/Project": ["FileAccess", "ATSPolicy", "PlistDOM", "Yams"],
        "Sources/PlistMigrate": ["Project", "FileAccess", "Migrations", "ATSPolicy", "PlistDOM", "Yams"],
        "Sources/plist-migrate": ["PlistMigrate", "FileAccess", "Migrations", "ATSPolicy", "PlistDOM", "ArgumentParser"],
    ]
    static let system: Set<String> = ["Foundation", "Glibc", "Darwin", "Dispatch"]
    static let project: Set<String> = ["CLibXML2", "PlistDOM", "FileAccess", "Project", "Migrations", "ATSPolicy", "PlistMigrate", "Yams", "ArgumentParser"]

    /// `import X`, `internal import X`, `@testable import X`, `import struct X.Y`: the module.
    static func imports(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").map(String.init)
            guard let at = words.firstIndex(of: "import"), words[..<at].allSatisfy({ $0.hasPrefix("@") || ["internal", "public", "private", "fileprivate", "package"].contains($0) }),
                at + 1 < words.count else { return nil }
            let target = ["struct", "class", "enum", "protocol", "func", "var", "typealias"].contains(words[at + 1]) && at + 2 < words.count
                ? words[at + 2] : words[at + 1]
            return String(target.split(separator: ".").first ?? "")
        }
    }

    static func violations() throws -> [String] {
        var found: [String] = []
        for (folder, allowed) in allowed {
            let root = Paths.repository.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
            #expect(!files.isEmpty, "no sources in \(folder)")
            for file in files {
                let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
                for module in imports(in: text) where !allowed.contains(module) && !system.contains(module) {
                    found.append("\(folder)/\(file) imports \(module)")
                }
            }
        }
        return found.sorted()
    }

    @Test func everyImportPointsDownTheArrows() throws {
        #expect(try Self.violations() == [])
    }

    @Test func theImportReaderSeesEveryForm() {
        #expect(Self.imports(in: "import PlistDOM\ninternal import CLibXML2\n@testable import PlistMigrate\nimport struct Yams.Node\n// import Nothing\nlet x = 1")
            == ["PlistDOM", "CLibXML2", "PlistMigrate", "Yams"])
        // What the rule catches: PlistDOM reaching up, Migrations reaching sideways.
        #expect(!Self.allowed["Sources/PlistDOM"]!.contains("Migrations"))
        #expect(!Self.allowed["Migrations"]!.contains("ATSPolicy") && !Self.allowed["Migrations"]!.contains("PlistMigrate"))
        #expect(Self.allowed.values.allSatisfy { !$0.contains("plist-migrate") })
        // The project readers know nothing of the run or the passes.
        #expect(Self.allowed["Sources/Project"]!.isDisjoint(with: ["PlistMigrate", "Migrations"]))
        #expect(Self.allowed["Sources/FileAccess"]! == ["PlistDOM"])
    }

    /// Every module folder under Sources is one the arrows name: a new module is placed in them.
    @Test func everyModuleHasItsArrows() throws {
        let root = Paths.repository.appendingPathComponent("Sources")
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !$0.hasPrefix("CLibXML2") }
        #expect(Set(folders.map { "Sources/" + $0 }) == Set(Self.allowed.keys.filter { $0.hasPrefix("Sources/") }))
    }

    /// Every file of PlistMigrate lives in a room (a folder), none at the top.
    @Test func plistMigrateHasNoFileOutsideARoom() throws {
        let root = Paths.repository.appendingPathComponent("Sources/PlistMigrate")
        let loose = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }
        #expect(loose == [])
    }
}
