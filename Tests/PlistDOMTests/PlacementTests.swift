import Testing
@testable import PlistDOM

/// What an edit writes is what Xcode and people write. New and renamed keys follow a
/// sorted dict's order, new items never share a line, text and emptied containers are spelled
/// as the file spells them.
@Suite struct PlacementTests {
    static func keys(_ text: String) throws -> [String] {
        try PlistDocument(parsing: text).rootValue.entries.map(\.name)
    }

    // MARK: - Apple's order

    @Test func applesOrderComparesUTF16CodeUnits() {
        // CFStringCompare with no options: uppercase before lowercase, '*' before letters, and
        // U+FF01 (one UTF-16 unit) after U+1F600 (a surrogate pair starting 0xD83D).
        #expect(PlistDocument.keyPrecedes("Zeta.com", "alpha.com"))
        #expect(PlistDocument.keyPrecedes("*.cdn.example.com", "API.example.com"))
        #expect(PlistDocument.keyPrecedes("NSAllowsArbitraryLoads", "NSAllowsArbitraryLoadsInWebContent"))
        #expect(PlistDocument.keyPrecedes("\u{1F600}", "\u{FF01}"))
        #expect(!PlistDocument.keyPrecedes("\u{FF01}", "\u{1F600}"))
    }

    static let sorted = plist("""
        \t<key>CFBundleName</key>
        \t<string>Demo</string>
        \t<key>NSAppTransportSecurity</key>
        \t<dict/>
        \t<key>UILaunchStoryboardName</key>
        \t<string>Launch</string>

        """)

    @Test func aNewKeyGoesToItsSortedPlaceInASortedDict() throws {
        let out = try edited(Self.sorted) { doc in
            try doc.insertFollowingOrder(key: "ITSAppUsesNonExemptEncryption", value: .bool(false), into: doc.rootValue,
                                         otherwise: doc.rootValue.lastEntry)
            try doc.insertFollowingOrder(key: "Alpha", value: .string("a"), into: doc.rootValue, otherwise: doc.rootValue.lastEntry)
            try doc.insertFollowingOrder(key: "ZZZ", value: .string("z"), into: doc.rootValue, otherwise: doc.rootValue.lastEntry)
        }
        #expect(try Self.keys(out) == ["Alpha", "CFBundleName", "ITSAppUsesNonExemptEncryption", "NSAppTransportSecurity",
                                       "UILaunchStoryboardName", "ZZZ"])
        #expect(out.contains("\t<key>Alpha</key>\n\t<string>a</string>\n\t<key>CFBundleName</key>\n"))
        #expect(out.contains("\t<string>Demo</string>\n\t<key>ITSAppUsesNonExemptEncryption</key>\n\t<false/>\n\t<key>NSAppTransportSecurity</key>\n"))
    }

    @Test func aNewKeyIsAppendedWhereTheDictIsNotSorted() throws {
        let unsorted = plist("\t<key>UIKey</key>\n\t<true/>\n\t<key>CFBundleName</key>\n\t<string>Demo</string>\n")
        let out = try edited(unsorted) { doc in
            try doc.insertFollowingOrder(key: "Middle", value: .bool(true), into: doc.rootValue, otherwise: doc.rootValue.lastEntry)
        }
        #expect(try Self.keys(out) == ["UIKey", "CFBundleName", "Middle"])
    }

    /// `count` keys `K00`, `K01`… in Apple's order, with `misplaced` swapped to the end.
    static func numbered(_ count: Int, misplaced: String? = nil) -> String {
        var names = (0..<count).map { String(format: "K%02d", $0 * 2) }
        if let misplaced, let at = names.firstIndex(of: misplaced) { names.append(names.remove(at: at)) }
        return plist(names.map { "\t<key>\($0)</key>\n\t<true/>\n" }.joined())
    }

    @Test func aKeyAppendedToANearlySortedDictGoesBetweenTheNeighboursThatSortAroundIt() throws {
        // 21 keys, one out of place (K10 moved to the end): one pair in twenty out of order.
        let out = try edited(Self.numbered(21, misplaced: "K10")) { doc in
            try doc.insertFollowingOrder(key: "K13", value: .bool(true), into: doc.rootValue, otherwise: doc.rootValue.lastEntry)
        }
        let keys = try Self.keys(out)
        #expect(keys.firstIndex(of: "K13") == keys.firstIndex(of: "K12").map { $0 + 1 })
        #expect(out.contains("\t<key>K12</key>\n\t<true/>\n\t<key>K13</key>\n\t<true/>\n\t<key>K14</key>\n"))
    }

    @Test func aDictMoreOutOfOrderThanThatOrACallersOwnPlaceIsLeftAlone() throws {
        // 20 keys with one out of place is one pair in nineteen: appended, as people did there.
        let small = try edited(Self.numbered(20, misplaced: "K10")) { doc in
            try doc.insertFollowingOrder(key: "K13", value: .bool(true), into: doc.rootValue, otherwise: doc.rootValue.lastEntry)
        }
        #expect(try Self.keys(small).last == "K13")
        // A place the caller chose (not the end) stands in a nearly sorted dict too.
        let chosen = try edited(Self.numbered(21, misplaced: "K10")) { doc in
            let first = try #require(doc.rootValue.entries.first)
            try doc.insertFollowingOrder(key: "K13", value: .bool(true), into: doc.rootValue, otherwise: first)
        }
        #expect(try Array(Self.keys(chosen).prefix(2)) == ["K00", "K13"])
    }

    @Test func aDictTheEditsMakeKeepsTheOrderItsKeysAreGivenInUnlessTheFileIsSorted() throws {
        func made(in file: String) throws -> [String] {
            let out = try edited(file) { doc in
                let dict = try doc.insertFollowingOrder(key: "New", value: .emptyDict, into: doc.rootValue,
                                                        otherwise: doc.rootValue.lastEntry).value
                for name in ["Down", "Up", "Left", "Right"] {
                    try doc.insertFollowingOrder(key: name, value: .string(name), into: dict, otherwise: dict.lastEntry)
                }
            }
            let document = try PlistDocument(parsing: out)
            return try #require(document.rootValue.entry("New")?.value.entries.map(\.name))
        }
        // "Down" then "Up" happen to be in order: that used to sort the keys given after them.
        #expect(try made(in: plist("\t<key>B</key>\n\t<true/>\n\t<key>A</key>\n\t<true/>\n")) == ["Down", "Up", "Left", "Right"])
        #expect(try made(in: Self.sorted) == ["Down", "Left", "Right", "Up"])
    }

    @Test func aRenamedKeyMovesToItsSortedPlaceAndItsHandlesStayValid() throws {
        let input = plist("""
            \t<key>NSExceptionDomains</key>
            \t<dict>
            \t\t<key>Zeta.com</key>
            \t\t<dict>
            \t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>
            \t\t\t<true/> <!-- staging -->
            \t\t</dict>
            \t\t<key>alpha.com</key>
            \t\t<dict>
            \t\t\t<key>NSIncludesSubdomains</key>
            \t\t\t<true/>
            \t\t</dict>
            \t</dict>

            """)
        var movedKeyLine: Int?
        let out = try edited(input) { doc in
            let domains = try #require(doc.rootValue[key: "NSExceptionDomains"])
            let zeta = try #require(domains.entry("Zeta.com"))
            #expect(doc.renameFollowingOrder(zeta, in: domains, to: "zeta.com"))
            // The handles still reach the moved entry: an insert into its dict lands there.
            try doc.insertFollowingOrder(key: "NSIncludesSubdomains", value: .bool(true), into: zeta.value, otherwise: nil)
            movedKeyLine = zeta.key.line
        }
        #expect(out == plist("""
            \t<key>NSExceptionDomains</key>
            \t<dict>
            \t\t<key>alpha.com</key>
            \t\t<dict>
            \t\t\t<key>NSIncludesSubdomains</key>
            \t\t\t<true/>
            \t\t</dict>
            \t\t<key>zeta.com</key>
            \t\t<dict>
            \t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>
            \t\t\t<true/> <!-- staging -->
            \t\t\t<key>NSIncludesSubdomains</key>
            \t\t\t<true/>
            \t\t</dict>
            \t</dict>

            """))
        // Diagnostics about a moved key still name the line it has in the file on disk.
        #expect(movedKeyLine == 5)
    }

    @Test func aRenamedKeyMovesFirstAndTheEntriesAroundItKeepTheirLines() throws {
        let input = plist("\t<key>B</key>\n\t<string>b</string>\n\t<key>C</key>\n\t<string>c</string>\n\t<key>Z</key>\n\t<string>z</string>\n")
        let out = try edited(input) { doc in
            let root = doc.rootValue
            doc.renameFollowingOrder(try #require(root.entry("Z")), in: root, to: "A")
            doc.renameFollowingOrder(try #require(root.entry("B")), in: root, to: "D")
        }
        #expect(out == plist("\t<key>A</key>\n\t<string>z</string>\n\t<key>C</key>\n\t<string>c</string>\n\t<key>D</key>\n\t<string>b</string>\n"))
    }

    @Test func aRenameInAnUnsortedDictStaysInPlace() throws {
        let input = plist("\t<key>Z</key>\n\t<true/>\n\t<key>B</key>\n\t<true/>\n\t<key>A</key>\n\t<true/>\n")
        let out = try edited(input) { doc in
            let root = doc.rootValue
            let z = try #require(root.entry("Z"))
            #expect(!doc.renameFollowingOrder(z, in: root, to: "M"))
        }
        #expect(try Self.keys(out) == ["M", "B", "A"])
    }

    @Test func aMovedEntryCanBeRemovedAndRenamedAgain() throws {
        let input = plist("\t<key>B</key>\n\t<true/>\n\t<key>C</key>\n\t<dict>\n\t\t<key>x</key>\n\t\t<true/>\n\t</dict>\n")
        let out = try edited(input) { doc in
            let root = doc.rootValue
            let c = try #require(root.entry("C"))
            doc.renameFollowingOrder(c, in: root, to: "A")
            doc.renameFollowingOrder(c, in: root, to: "Z")
            try doc.remove(try #require(c.value.entry("x")), from: c.value)
            try doc.remove(try #require(root.entry("B")), from: root)
        }
        #expect(out == plist("\t<key>Z</key>\n\t<dict/>\n"))
    }

    // MARK: - Layout of new items

    @Test func itemsInsertedOneAfterAnotherBeforeAnItemKeepTheirOwnLines() throws {
        // `Add :A:0` then `Add :A:1` before an original item came out glued.
        let input = plist("\t<key>A</key>\n\t<array>\n\t\t<string>orig</string>\n\t</array>\n")
        let out = try edited(input) { doc in
            let array = try #require(doc.rootValue[key: "A"])
            let first = try doc.insert(item: .string("X"), into: array, after: nil)
            let second = try doc.insert(item: .string("Y"), into: array, after: first)
            try doc.insert(item: .string("Z"), into: array, after: second)
        }
        #expect(out == plist("\t<key>A</key>\n\t<array>\n\t\t<string>X</string>\n\t\t<string>Y</string>\n\t\t<string>Z</string>\n\t\t<string>orig</string>\n\t</array>\n"))
    }

    @Test func entriesInsertedOneAfterAnotherBeforeTheFirstKeyKeepTheirOwnLines() throws {
        let input = plist("\t<key>M</key>\n\t<true/>\n")
        let out = try edited(input) { doc in
            let first = try doc.insert(key: "A", value: .bool(true), into: doc.rootValue, after: nil)
            try doc.insert(key: "B", value: .bool(true), into: doc.rootValue, after: first)
        }
        #expect(out == plist("\t<key>A</key>\n\t<true/>\n\t<key>B</key>\n\t<true/>\n\t<key>M</key>\n\t<true/>\n"))
    }

    // MARK: - Spellings

    @Test func newTextSpellsQuotesAsTheFileDoes() throws {
        let entities = plist("\t<key>Q</key>\n\t<string>say &quot;hi&quot;, it&apos;s</string>\n")
        let out = try edited(entities) { doc in
            try doc.insert(key: "R", value: .string("a \"b\" c's"), into: doc.rootValue, after: doc.rootValue.lastEntry)
            doc.replace(try #require(doc.rootValue[key: "Q"]), with: .string("\"x\""))
            doc.rename(try #require(doc.rootValue.entry("R")).key, to: "R\"")
        }
        #expect(out.contains("<string>&quot;x&quot;</string>"))
        #expect(out.contains("<key>R&quot;</key>\n\t<string>a &quot;b&quot; c&apos;s</string>"))
        // A file with raw quotes in its text (or none at all) gets raw quotes.
        for input in [plist("\t<key>Q</key>\n\t<string>say \"hi\" &quot;</string>\n"), plist("\t<key>Q</key>\n\t<string>x</string>\n")] {
            let plain = try edited(input) { doc in
                try doc.insert(key: "R", value: .string("a \"b\" c's"), into: doc.rootValue, after: doc.rootValue.lastEntry)
            }
            #expect(plain.contains("<string>a \"b\" c's</string>"))
        }
    }

    /// A file whose Booleans are all `<true />` (a space before `/>`) gets new ones spelled so;
    /// a file that writes them both ways, or as `<true/>`, gets `<true/>`.
    @Test func newBooleansAreClosedAsTheFileClosesItsOwn() throws {
        let spaced = plist("\t<key>A</key>\n\t<true />\n\t<key>B</key>\n\t<false />\n")
        let out = try edited(spaced) { doc in
            try doc.insert(key: "C", value: .bool(true), into: doc.rootValue, after: doc.rootValue.lastEntry)
            try doc.insert(key: "D", value: .bool(false), into: doc.rootValue, after: doc.rootValue.lastEntry)
        }
        #expect(out == plist("\t<key>A</key>\n\t<true />\n\t<key>B</key>\n\t<false />\n\t<key>C</key>\n\t<true />\n\t<key>D</key>\n\t<false />\n"))
        for input in [plist("\t<key>A</key>\n\t<true />\n\t<key>B</key>\n\t<false/>\n"), plist("\t<key>A</key>\n\t<true/>\n"), plist("\t<key>A</key>\n\t<string>x</string>\n")] {
            let plain = try edited(input) { doc in
                try doc.insert(key: "C", value: .bool(true), into: doc.rootValue, after: doc.rootValue.lastEntry)
            }
            #expect(plain.contains("<key>C</key>\n\t<true/>\n"), "\(plain)")
        }
    }

    /// A file that writes every Boolean `<true></true>` gets new ones written so, by an insert and
    /// by a value replaced with a Boolean; one spelling them both ways gets `<true/>`.
    @Test func newBooleansAreWrittenOpenWhereTheFileWritesThemOpen() throws {
        let open = plist("\t<key>A</key>\n\t<true></true>\n\t<key>B</key>\n\t<false></false>\n\t<key>S</key>\n\t<string>YES</string>\n")
        let out = try edited(open) { doc in
            try doc.insert(key: "C", value: .bool(true), into: doc.rootValue, after: doc.rootValue.lastEntry)
            doc.replace(try #require(doc.rootValue[key: "S"]), with: .bool(false))
        }
        #expect(out == plist("\t<key>A</key>\n\t<true></true>\n\t<key>B</key>\n\t<false></false>\n\t<key>S</key>\n\t<false></false>\n"
            + "\t<key>C</key>\n\t<true></true>\n"), "\(out)")
        #expect(try PlistDocument(parsing: out).rootValue[key: "C"]?.name == "true")
        for input in [plist("\t<key>A</key>\n\t<true></true>\n\t<key>B</key>\n\t<false/>\n"), plist("\t<key>A</key>\n\t<true> </true>\n")] {
            let plain = try edited(input) { doc in
                try doc.insert(key: "C", value: .bool(true), into: doc.rootValue, after: doc.rootValue.lastEntry)
            }
            #expect(plain.contains("<key>C</key>\n\t<true/>\n"), "\(plain)")
        }
    }

    /// Whether a dict is sorted is judged on the file as written, not on what a removal left:
    /// `b a c` is unsorted, so after `b` goes, new keys are appended in the order given.
    @Test func aRemovalDoesNotSortWhatTheOwnersLeftUnsorted() throws {
        let unsorted = plist("\t<key>b</key>\n\t<string>1</string>\n\t<key>a</key>\n\t<string>2</string>\n\t<key>c</key>\n\t<string>3</string>\n")
        let out = try edited(unsorted) { doc in
            try doc.remove(try #require(doc.rootValue.entry("b")), from: doc.rootValue)
            for key in ["z", "y", "x"] {
                try doc.insertFollowingOrder(key: key, value: .string("1"), into: doc.rootValue, otherwise: doc.rootValue.lastEntry)
            }
        }
        #expect(try PlistDocument(parsing: out).rootValue.entries.map(\.name) == ["a", "c", "z", "y", "x"], "\(out)")
        // A sorted dict stays sorted through a removal.
        let sorted = plist("\t<key>a</key>\n\t<string>1</string>\n\t<key>b</key>\n\t<string>2</string>\n\t<key>c</key>\n\t<string>3</string>\n")
        let kept = try edited(sorted) { doc in
            try doc.remove(try #require(doc.rootValue.entry("b")), from: doc.rootValue)
            try doc.insertFollowingOrder(key: "b0", value: .string("1"), into: doc.rootValue, otherwise: doc.rootValue.lastEntry)
        }
        #expect(try PlistDocument(parsing: kept).rootValue.entries.map(\.name) == ["a", "b0", "c"], "\(kept)")
    }

    @Test func anEmptiedContainerIsWrittenAsTheFileWritesEmptyOnes() throws {
        let input = plist("\t<key>A</key>\n\t<array>\n\t\t<string>x</string>\n\t</array>\n\t<key>D</key>\n\t<dict>\n\t\t<key>k</key>\n\t\t<true/>\n\t</dict>\n")
        let out = try edited(input) { doc in
            let array = try #require(doc.rootValue[key: "A"]), dict = try #require(doc.rootValue[key: "D"])
            try doc.remove(item: try #require(array.children.first), from: array)
            try doc.remove(try #require(dict.entry("k")), from: dict)
        }
        #expect(out == plist("\t<key>A</key>\n\t<array/>\n\t<key>D</key>\n\t<dict/>\n"))
        // Where the file writes its empty containers open, an emptied one stays open.
        let open = plist("\t<key>E</key>\n\t<array>\n\t</array>\n\t<key>D</key>\n\t<dict>\n\t\t<key>k</key>\n\t\t<true/>\n\t</dict>\n")
        let kept = try edited(open) { doc in
            let dict = try #require(doc.rootValue[key: "D"])
            try doc.remove(try #require(dict.entry("k")), from: dict)
        }
        #expect(kept == plist("\t<key>E</key>\n\t<array>\n\t</array>\n\t<key>D</key>\n\t<dict>\n\t</dict>\n"))
        // A comment inside keeps the container open; an emptied dict takes a new entry again.
        let commented = plist("\t<key>D</key>\n\t<dict>\n\t\t<!-- keep -->\n\t\t<key>k</key>\n\t\t<true/>\n\t</dict>\n")
        let withComment = try edited(commented) { doc in
            let dict = try #require(doc.rootValue[key: "D"])
            try doc.remove(try #require(dict.entry("k")), from: dict)
        }
        #expect(withComment.contains("<!-- keep -->\n\t</dict>"))
        let refilled = try edited(input) { doc in
            let dict = try #require(doc.rootValue[key: "D"])
            try doc.remove(try #require(dict.entry("k")), from: dict)
            try doc.insert(key: "n", value: .bool(false), into: dict, after: nil)
        }
        #expect(refilled.contains("\t<key>D</key>\n\t<dict>\n\t\t<key>n</key>\n\t\t<false/>\n\t</dict>\n"))
    }
}
