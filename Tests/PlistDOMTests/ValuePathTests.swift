import Foundation
import Testing
@testable import PlistDOM

/// Paths from the root value: keys and array positions, read back to the same element.
@Suite struct ValuePathTests {
    static let text = """
        <plist><dict><key>A</key><array><string>x</string><dict><key>B</key><true/></dict></array>\
        <key>C</key><dict><key>D</key><integer>1</integer></dict></dict></plist>
        """

    @Test func pathsLeadBackToTheirElements() throws {
        let document = try PlistDocument(parsing: Self.text)
        let b = try #require(document.element(at: [.key("A"), .index(1), .key("B")]))
        #expect(b.kind == .true)
        #expect(document.path(of: b) == [.key("A"), .index(1), .key("B")])
        #expect(document.keyPath(of: b) == nil, "a path through an array has no key path")
        let d = try #require(document.element(at: [.key("C"), .key("D")]))
        #expect(document.keyPath(of: d) == ["C", "D"])
        #expect(document.path(of: document.rootValue) == [])
        #expect(document.element(at: [.key("A"), .index(2)]) == nil)
        #expect(document.element(at: [.key("C"), .index(0)]) == nil)
        #expect([PathStep.key("A"), .index(1), .key("a:b")].spelled == "A:1:a\\:b")
    }

    /// Many paths at once find what each finds alone: with duplicate keys (the last one), keys
    /// spelled with entities, a key and a name that are canonically equal but not the same
    /// bytes (`e` + U+0301 against `é`; a key written `&#x212A;`, the Kelvin sign, which reads
    /// as a string equal to `K`), names that are missing, and paths through arrays.
    @Test func manyPathsFindWhatEachFindsAlone() throws {
        let decomposed = "cafe\u{301}", precomposed = "caf\u{E9}"
        let text = "<plist><dict><key>D</key><dict>"
            + "<key>a</key><integer>1</integer><key>b&amp;c</key><integer>2</integer><key>a</key><integer>3</integer>"
            + "<key>\(decomposed)</key><integer>4</integer><key>\(precomposed)</key><integer>5</integer><key>\(decomposed)</key><integer>6</integer>"
            + "<key>&#x41;x</key><integer>7</integer>"
            + "<key>L</key><array><dict><key>x</key><true/></dict></array></dict>"
            + "<key>E</key><dict><key>&#x212A;</key><integer>8</integer><key>A</key><integer>9</integer></dict></dict></plist>"
        let document = try PlistDocument(parsing: text)
        let names = ["a", "b&c", "b&amp;c", decomposed, precomposed, "missing", "L", "Ax"]
        var paths = names.map { [PathStep.key("D"), .key($0)] }
        paths += ["K", "\u{212A}", "A", "missing"].map { [PathStep.key("E"), .key($0)] }
        paths += [[.key("D"), .key("L"), .index(0), .key("x")], [.key("D"), .key("L"), .index(1)], [.key("missing"), .key("a")], []]
        let together = document.elements(at: paths + paths)
        for (path, found) in zip(paths + paths, together) {
            #expect(found == document.element(at: path), "\(path.spelled)")
        }
        #expect(together[0]?.text == "3", "the last of duplicate keys")
        #expect(together[7]?.text == "7", "a key spelled with a character reference")
        #expect(together[8]?.text == "8", "the Kelvin sign reads as a string equal to K")
        // Over real files: every key path of every dict, twice (the second time from the tables).
        var checked = 0
        for url in (TestPaths.plists(under: TestPaths.corpus.appendingPathComponent("real"))).prefix(120) {
            guard let document = try? PlistDocument(parsing: TestPaths.bytes(url)) else { continue }
            var all: [[PathStep]] = []
            func walk(_ element: PlistElement, _ path: [PathStep]) {
                guard element.kind == .dict else { return }
                element.forEachEntry { entry in
                    all.append(path + [.key(entry.name)])
                    walk(entry.value, path + [.key(entry.name)])
                }
            }
            walk(document.rootValue, [])
            let found = document.elements(at: all + all)
            for (path, element) in zip(all + all, found) where element != document.element(at: path) {
                Issue.record("\(url.lastPathComponent): \(path.spelled)")
            }
            checked += all.count
        }
        #expect(checked > 1_000 || !FileManager.default.fileExists(atPath: TestPaths.corpus.path), "\(checked) paths")
    }
}
