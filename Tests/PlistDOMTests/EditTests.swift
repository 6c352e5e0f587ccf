import Testing
@testable import PlistDOM

/// Each edit, on several layouts, compared with the exact bytes a careful person would write.
@Suite struct EditTests {
    func ats(_ document: PlistDocument) throws -> PlistElement {
        try #require(document.rootValue[key: "NSAppTransportSecurity"])
    }

    static let tabs = plist("""
        \t<key>NSAppTransportSecurity</key>
        \t<dict>
        \t\t<key>NSAllowsArbitraryLoads</key>
        \t\t<true/>
        \t\t<key>NSAllowsArbitraryLoadsInWebContent</key>
        \t\t<false/>
        \t</dict>

        """)

    @Test func renameKeyChangesOnlyTheKeyText() throws {
        let out = try edited(Self.tabs) { doc in
            doc.rename(try #require(try ats(doc).entry("NSAllowsArbitraryLoads")).key, to: "Renamed & <escaped>")
        }
        #expect(out == Self.tabs.replacingOccurrences(
            of: "<key>NSAllowsArbitraryLoads</key>", with: "<key>Renamed &amp; &lt;escaped&gt;</key>"))
    }

    @Test func replaceValueSwapsOneElement() throws {
        let out = try edited(Self.tabs) { doc in
            doc.replace(try #require(try ats(doc)[key: "NSAllowsArbitraryLoads"]), with: .bool(false))
        }
        #expect(out == Self.tabs.replacingOccurrences(of: "<true/>", with: "<false/>"))
    }

    @Test func insertAfterCopiesTabIndentation() throws {
        let out = try edited(Self.tabs) { doc in
            let dict = try ats(doc)
            try doc.insert(key: "NSAllowsLocalNetworking", value: .bool(true), into: dict,
                           after: dict.entry("NSAllowsArbitraryLoads"))
        }
        #expect(out == plist("""
            \t<key>NSAppTransportSecurity</key>
            \t<dict>
            \t\t<key>NSAllowsArbitraryLoads</key>
            \t\t<true/>
            \t\t<key>NSAllowsLocalNetworking</key>
            \t\t<true/>
            \t\t<key>NSAllowsArbitraryLoadsInWebContent</key>
            \t\t<false/>
            \t</dict>

            """))
    }

    @Test func insertAfterKeepsCRLFAndTwoSpaces() throws {
        let input = plist("""
              <key>NSAppTransportSecurity</key>
              <dict>
                <key>NSAllowsArbitraryLoads</key>
                <true/>
              </dict>

            """, eol: "\r\n")
        let out = try edited(input) { doc in
            let dict = try ats(doc)
            try doc.insert(key: "NSAllowsLocalNetworking", value: .bool(true), into: dict,
                           after: dict.entry("NSAllowsArbitraryLoads"))
        }
        #expect(out == plist("""
              <key>NSAppTransportSecurity</key>
              <dict>
                <key>NSAllowsArbitraryLoads</key>
                <true/>
                <key>NSAllowsLocalNetworking</key>
                <true/>
              </dict>

            """, eol: "\r\n"))
    }

    @Test func insertIntoOneLineDictStaysOnOneLine() throws {
        let input = "<plist><dict><key>NSAppTransportSecurity</key><dict><key>A</key> <true/></dict></dict></plist>"
        let out = try edited(input) { doc in
            let dict = try ats(doc)
            try doc.insert(key: "B", value: .string("x"), into: dict, after: dict.entry("A"))
        }
        #expect(out == "<plist><dict><key>NSAppTransportSecurity</key><dict><key>A</key> <true/><key>B</key> <string>x</string></dict></dict></plist>")
    }

    @Test func insertAtStartGoesBeforeTheFirstKeyAfterComments() throws {
        let input = plist("""
            \t<key>NSAppTransportSecurity</key>
            \t<dict>
            \t\t<!-- policy -->
            \t\t<key>A</key>
            \t\t<true/>
            \t</dict>

            """)
        let out = try edited(input) { doc in
            try doc.insert(key: "First", value: .bool(true), into: try ats(doc))
        }
        #expect(out == plist("""
            \t<key>NSAppTransportSecurity</key>
            \t<dict>
            \t\t<!-- policy -->
            \t\t<key>First</key>
            \t\t<true/>
            \t\t<key>A</key>
            \t\t<true/>
            \t</dict>

            """))
    }

    @Test(arguments: ["<dict/>", "<dict></dict>", "<dict />", "<dict>\n    </dict>"])
    func insertIntoEmptyDictExpandsWithFileIndentUnit(_ empty: String) throws {
        let input = plist("""
                <key>Other</key>
                <dict>
                    <key>Nested</key>
                    <true/>
                </dict>
                <key>NSAppTransportSecurity</key>
                \(empty)

            """)
        let out = try edited(input) { doc in
            try doc.insert(key: "NSAllowsLocalNetworking", value: .bool(true), into: try ats(doc))
        }
        #expect(out == plist("""
                <key>Other</key>
                <dict>
                    <key>Nested</key>
                    <true/>
                </dict>
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSAllowsLocalNetworking</key>
                    <true/>
                </dict>

            """))
    }

    @Test func insertIntoCommentOnlyDictKeepsTheComment() throws {
        let input = plist("\t<key>NSAppTransportSecurity</key>\n\t<dict>\n\t\t<!-- none yet -->\n\t</dict>\n")
        let out = try edited(input) { doc in
            try doc.insert(key: "A", value: .bool(true), into: try ats(doc))
        }
        #expect(out == plist(
            "\t<key>NSAppTransportSecurity</key>\n\t<dict>\n\t\t<!-- none yet -->\n\t\t<key>A</key>\n\t\t<true/>\n\t</dict>\n"))
    }

    @Test func insertUsesSameLineSeparatorWhenTheFileDoes() throws {
        let input = "<plist>\n<dict>\n\t<key>NSAppTransportSecurity</key> <dict/>\n</dict>\n</plist>\n"
        let out = try edited(input) { doc in
            try doc.insert(key: "A", value: .bool(true), into: try ats(doc))
        }
        #expect(out == "<plist>\n<dict>\n\t<key>NSAppTransportSecurity</key> <dict>\n\t\t<key>A</key> <true/>\n\t</dict>\n</dict>\n</plist>\n")
    }

    @Test func removeTakesTheEntryAndItsLeadingWhitespace() throws {
        let out = try edited(Self.tabs) { doc in
            let dict = try ats(doc)
            try doc.remove(try #require(dict.entry("NSAllowsArbitraryLoads")), from: dict)
        }
        #expect(out == Self.tabs.replacingOccurrences(of: "\t\t<key>NSAllowsArbitraryLoads</key>\n\t\t<true/>\n", with: ""))
    }

    @Test func removeKeepsCommentsOutsideTheEntryAndDropsOnesInside() throws {
        let input = plist("""
            \t<key>NSAppTransportSecurity</key>
            \t<dict>
            \t\t<!-- keep me -->
            \t\t<key>A</key> <!-- goes with A -->
            \t\t<true/> <!-- trailing, stays -->
            \t\t<key>B</key>
            \t\t<true/>
            \t</dict>

            """)
        let out = try edited(input) { doc in
            let dict = try ats(doc)
            try doc.remove(try #require(dict.entry("A")), from: dict)
        }
        #expect(out == plist("""
            \t<key>NSAppTransportSecurity</key>
            \t<dict>
            \t\t<!-- keep me --> <!-- trailing, stays -->
            \t\t<key>B</key>
            \t\t<true/>
            \t</dict>

            """))
    }

    @Test func removeTheOnlyEntryLeavesAnEmptyDictAsXcodeWritesIt() throws {
        let input = plist("\t<key>NSAppTransportSecurity</key>\n\t<dict>\n\t\t<key>A</key>\n\t\t<true/>\n\t</dict>\n", eol: "\r\n")
        let out = try edited(input) { doc in
            let dict = try ats(doc)
            try doc.remove(try #require(dict.entry("A")), from: dict)
        }
        #expect(out == plist("\t<key>NSAppTransportSecurity</key>\n\t<dict/>\n", eol: "\r\n"))
    }

    @Test func editsComposeInAnyOrder() throws {
        let expected = plist("""
            \t<key>NSAppTransportSecurity</key>
            \t<dict>
            \t\t<key>NSAllowsArbitraryLoads</key>
            \t\t<false/>
            \t\t<key>Local</key>
            \t\t<true/>
            \t</dict>

            """)
        for order in [[0, 1, 2], [2, 1, 0], [1, 0, 2], [2, 0, 1]] {
            let out = try edited(Self.tabs) { doc in
                let dict = try ats(doc)
                let loads = try #require(dict.entry("NSAllowsArbitraryLoads"))
                let web = try #require(dict.entry("NSAllowsArbitraryLoadsInWebContent"))
                for step in order {
                    switch step {
                    case 0: doc.replace(loads.value, with: .bool(false))
                    case 1: try doc.remove(web, from: dict)
                    default: try doc.insert(key: "Local", value: .bool(true), into: dict, after: loads)
                    }
                }
            }
            #expect(out == expected, "order \(order)")
        }
    }

    @Test func readAPIDecodesTypesAndLocations() throws {
        let url = TestPaths.fixtures.appendingPathComponent("roundtrip/all-types.plist")
        let doc = try PlistDocument(parsing: try TestPaths.bytes(url))
        let root = doc.rootValue
        #expect(PlistValue(try #require(root[key: "Int"])) == .integer(-12))
        #expect(PlistValue(try #require(root[key: "Hex"])) == .integer(31))
        #expect(PlistValue(try #require(root[key: "Real"])) == .real(3.25))
        #expect(PlistValue(try #require(root[key: "Date"])) == .date("2024-02-29T12:00:00Z"))
        #expect(PlistValue(try #require(root[key: "Data"])) == .data(Array("Hello, world".utf8)))
        #expect(PlistValue(try #require(root[key: "Unicode"])) == .string("Grüße 🚀 日本"))
        #expect(PlistValue(try #require(root[key: "Array"])) == .array([.string("one"), .integer(2), .array([])]))
        #expect(root.entries.map(\.name) == ["Int", "Hex", "Real", "Date", "Data", "Array", "Unicode"])
        #expect(root[key: "Real"]?.location == SourceLocation(line: 10, column: 2))
        let entities = try PlistDocument(parsing: try TestPaths.bytes(
            TestPaths.fixtures.appendingPathComponent("roundtrip/entities.plist")))
        #expect(entities.rootValue[key: "Quotes"]?.text == "\"q\" 'a' 'h' A & <tag>")
        #expect(entities.rootValue[key: "Greater"]?.text == "a > b")
    }

    @Test func valueAtPathFollowsNestedDicts() throws {
        let doc = try PlistDocument(parsing: Self.tabs)
        #expect(doc.rootValue.value(at: ["NSAppTransportSecurity", "NSAllowsArbitraryLoads"])?.isTrue == true)
        #expect(doc.rootValue.value(at: ["NSAppTransportSecurity", "Missing"]) == nil)
        #expect(doc.rootValue.value(at: ["NSAppTransportSecurity", "NSAllowsArbitraryLoads", "Deeper"]) == nil)
    }
}

extension EditTests {
    @Test func insertAfterKeepsATrailingCommentWithItsOwnEntry() throws {
        let input = plist("""
            \t<key>NSAppTransportSecurity</key>
            \t<dict>
            \t\t<key>A</key>
            \t\t<true/> <!-- why A -->
            \t\t<key>B</key>
            \t\t<true/>
            \t</dict>

            """)
        let out = try edited(input) { doc in
            let dict = try ats(doc)
            try doc.insert(key: "New", value: .bool(true), into: dict, after: dict.entry("A"))
        }
        #expect(out == plist("""
            \t<key>NSAppTransportSecurity</key>
            \t<dict>
            \t\t<key>A</key>
            \t\t<true/> <!-- why A -->
            \t\t<key>New</key>
            \t\t<true/>
            \t\t<key>B</key>
            \t\t<true/>
            \t</dict>

            """))
    }
}

extension EditTests {
    /// Apple's reader, like plistlib, keeps the last of duplicate keys; so do lookups and values.
    @Test func duplicateKeysResolveToTheLastOne() throws {
        let doc = try PlistDocument(parsing: "<plist><dict><key>A</key><string>first</string><key>A</key><string>last</string></dict></plist>")
        #expect(doc.rootValue[key: "A"]?.text == "last")
        #expect(doc.value == .dict(["A": .string("last")]))
        #expect(doc.rootValue.entry("A")?.key.location == SourceLocation(line: 1, column: 48))
    }
}
