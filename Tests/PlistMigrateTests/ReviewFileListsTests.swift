import Foundation
import Testing
@testable import PlistMigrate

/// The review page's long file lists, written once as front- and back-coded paths (for the
/// page's size). Decoded here as the page's script decodes them: every path comes back exactly, emoji
/// (surrogate pairs, which the coding must not split), `|` and quotes included, and each list's
/// files in their order.
@Suite struct ReviewFileListsTests {
    static func document(paths: [String]) throws -> Report.Document {
        let files = paths.map { path in
            ["path": path, "status": "skipped", "passes": [], "diagnostics": [], "heldBack": ["ATS003"],
             "heldBackReasons": ["ATS003": "held back"], "written": false] as [String: Any]
        }
        let json: [String: Any] = ["schemaVersion": 1, "mode": "dry-run", "files": files,
                                   "summary": ["scanned": paths.count, "changed": 0, "unchanged": 0, "skipped": paths.count, "errors": 0,
                                               "conflicts": 0, "heldBack": paths.count, "notWritten": 0, "skippedReasons": [:], "editsPerPass": [:],
                                               "deploymentTargetSources": [:]]]
        return try JSONDecoder().decode(Report.Document.self, from: JSONSerialization.data(withJSONObject: json))
    }

    /// The page script's decoding, in Swift: `P|S|middle` after the previous path, in UTF-16 units.
    static func decode(_ coded: [String]) -> [String] {
        var paths: [[UInt16]] = []
        for entry in coded {
            let parts = entry.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
            let prefix = Int(parts[0])!, suffix = Int(parts[1])!
            let previous = paths.last ?? []
            paths.append(Array(previous.prefix(prefix)) + Array(String(parts[2]).utf16) + Array(previous.suffix(suffix)))
        }
        return paths.map { String(decoding: $0, as: UTF16.self) }
    }

    @Test func everyPathComesBackAsItWas() throws {
        var paths = (0..<60).map { "monorepo/app\(String(format: "%05d", $0 * 7))/Info.plist" }
        paths += ["a/😀/Info.plist", "a/😁/Info.plist", "a/😁😀/Info.plist", "b|c/x\"y\\z/Info.plist", "b|c/x\"y\\z/Info.plist2",
                  "é/Info.plist", "e\u{301}/Info.plist", "tab\there/Info.plist"]
        let model = ReviewModel(try Self.document(paths: paths))
        let lists = ReviewFileLists(model)
        let item = try #require(model.attention.first)
        #expect(item.files.count == paths.count)
        _ = lists.add(item.files, shown: item.files.map(\.path))
        let block = try #require(try JSONSerialization.jsonObject(with: Data(lists.json().utf8)) as? [String: Any])
        let coded = try #require(block["paths"] as? [String])
        let decoded = Self.decode(coded)
        // Compared as UTF-16 (as the script holds them): `é` and `e` + U+0301 are two files.
        let expected = paths.map(ReviewPage.visible).map { Array($0.utf16) }.sorted { $0.lexicographicallyPrecedes($1) }
        #expect(decoded.map { Array($0.utf16) }.sorted { $0.lexicographicallyPrecedes($1) } == expected, "\(decoded)")
        let list = try #require((block["lists"] as? [[String: Any]])?.first?["i"] as? [Int])
        var at = 0
        let listed = list.map { delta -> String in at += delta; return decoded[at] }
        #expect(listed.map { Array($0.utf16) } == item.files.map { Array(ReviewPage.visible($0.path).utf16) })
        let written = lists.json().utf8.count, plain = paths.reduce(0) { $0 + $1.utf8.count + 3 }
        #expect(written < plain, "front and back coding writes less than the paths: \(written) against \(plain)")
    }

    /// A long list's forge links: each repository's base once, each file's link after it; read
    /// back, they are the links the page writes for the first files (`ReviewModel.link`).
    @Test func linksComeBackAsTheModelMakesThem() throws {
        var document = try Self.document(paths: (1...25).map { "T\($0)/Info.plist" } + ["elsewhere/Info.plist"])
        document.base = "/work/fleet"
        document.repositories = [Report.RepositoryRecord(root: "/work/fleet", remote: "git@github.com:acme/app.git", commit: "0123456789abcdef")]
        for index in 0..<25 { document.files[index].repository = 0 }
        let model = ReviewModel(document)
        let item = try #require(model.attention.first)
        let places = item.files.enumerated().map { offset, place -> ReviewModel.Place in
            var place = place
            place.line = offset + 1
            return place
        }
        let lists = ReviewFileLists(model)
        _ = lists.add(places, shown: places.map(\.path))
        let block = try #require(try JSONSerialization.jsonObject(with: Data(lists.json().utf8)) as? [String: Any])
        let bases = try #require(block["bases"] as? [String])
        let list = try #require((block["lists"] as? [[String: Any]])?.first)
        let tails = try #require(list["u"] as? [Any])
        let links = tails.map { $0 as? String }.map { $0.map { bases[0] + $0 } }
        #expect(links == places.map(model.link), "\(links.prefix(3))")
        #expect(links.compactMap { $0 }.count == 25 && links.last! == nil, "the file outside the repository has no link")
        #expect(links.first??.hasSuffix("/blob/0123456789abcdef/T1/Info.plist#L1") == true, "\(String(describing: links.first))")
    }

    @Test func jsonStringsReadBackWithJSONSerialization() throws {
        for text in ["", "a/b", "\"", "\\", "\u{0}\u{1}\u{1F}", "\u{2028}\u{2029}", "</script>", "😀é\t\n"] {
            let parsed = try JSONSerialization.jsonObject(with: Data(ReviewFileLists.string(text).utf8), options: .fragmentsAllowed) as? String
            #expect(parsed == text, "\(text.debugDescription)")
        }
    }
}
