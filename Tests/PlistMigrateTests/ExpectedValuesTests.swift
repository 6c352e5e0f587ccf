import Migrations
import PlistDOM
import Testing
@testable import PlistMigrate

/// The write check's expected values (opened only where edits reach, compared by bytes where
/// they do not) say an output holds the planned edits exactly when the value-level reference,
/// `PlannedEdit.apply`, says so: over random runs of every kind of edit, with outputs written
/// in the original's layout (the bytes of untouched values are the same) and in another.
@Suite struct ExpectedValuesTests {
    /// A plist of `value`, in one of two layouts.
    static func xml(_ value: PlistValue, compact: Bool) -> [UInt8] {
        func write(_ value: PlistValue, _ depth: Int) -> String {
            let pad = compact ? "" : "\n" + String(repeating: "\t", count: depth)
            switch value {
            case .string(let text): return "\(pad)<string>\(text)</string>"
            case .integer(let number): return compact ? "\(pad)<integer> \(number)</integer>" : "\(pad)<integer>\(number)</integer>"
            case .real(let number): return "\(pad)<real>\(number)</real>"
            case .bool(let flag): return compact ? "\(pad)<\(flag)></\(flag)>" : "\(pad)<\(flag)/>"
            case .date(let text): return "\(pad)<date>\(text)</date>"
            case .data: return "\(pad)<data></data>"
            case .array(let items): return "\(pad)<array>" + items.map { write($0, depth + 1) }.joined() + "\(pad)</array>"
            case .dict(let entries):
                // Sorted, so that the same value is the same bytes in one layout.
                let body = entries.keys.sorted().map { "\(pad)\t<key>\($0)</key>" + write(entries[$0]!, depth + 1) }.joined()
                return "\(pad)<dict>\(body)\(pad)</dict>"
            }
        }
        return Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\(write(value, 0))\n</plist>\n".utf8)
    }

    @Test func anOutputHoldsTheEditsExactlyWhenTheirValuesSaySo() throws {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let domain: PlistValue = .dict(["k": .bool(true), "s": .string("x")])
        let domains: PlistValue = .dict(Dictionary(uniqueKeysWithValues: (0..<12).map { ("d\($0)", domain) }))
        let list: PlistValue = .array(Array(repeating: domain, count: 5))
        let start: PlistValue = .dict(["A": domains, "L": list, "n": .integer(3)])
        let original = try PlistDocument(parsing: Self.xml(start, compact: false))
        var held = 0, refused = 0
        for run in 0..<400 {
            var edits: [PlannedEdit] = []
            for _ in 0..<(1 + next(12)) {
                let d = "d\(next(14))", inDomain: [PathStep] = [.key("A"), .key(d)]
                let item: [PathStep] = [.key("L"), .index(next(6))]
                let edit: PlannedEdit = switch next(13) {
                case 10: .replace(dict: [], key: ["A", "L"][next(2)], value: [domains, list][next(2)])
                case 11: .rename(dict: [], from: ["A", "L", "B"][next(3)], to: ["A", "L", "B"][next(3)])
                case 12: .replace(dict: [.key("n")], key: "k", value: .bool(true))
                case 0: .rename(dict: [.key("A")], from: d, to: "d\(next(14))")
                case 1: .rename(dict: inDomain, from: ["k", "s"][next(2)], to: ["k", "s", "t"][next(3)])
                case 2: .insert(dict: inDomain, key: "t", value: .integer(Int128(next(9))))
                case 3: .remove(dict: [[.key("A")], inDomain][next(2)], key: [d, "k"][next(2)])
                case 4: .replace(dict: [.key("A")], key: d, value: [domain, .dict([:]), .bool(false)][next(3)])
                case 5: .replace(dict: item, key: "k", value: .bool(false))
                case 6: .removeItem(array: [.key("L")], index: next(6))
                case 7: .insertItem(array: [.key("L")], index: next(7), value: domain)
                case 8: .replaceItem(array: [.key("L")], index: next(6), value: .dict(["k": .integer(2)]))
                default: .rename(dict: item, from: "k", to: "t")
                }
                edits.append(edit)
            }
            let wanted = PlannedEdit.apply(edits, to: start)
            // The right output, and outputs one edit short or with an edit too many.
            let candidates = [wanted, PlannedEdit.apply(Array(edits.dropLast()), to: start),
                              PlannedEdit.apply(edits + [.insert(dict: [.key("A"), .key("d\(next(14))")], key: "s", value: .string("y"))], to: start)]
            for (index, value) in candidates.enumerated() {
                let output = try PlistDocument(parsing: Self.xml(value, compact: (run + index) % 2 == 1))
                let expected = ExpectedValues(original.rootValue, depth: 0, applying: edits)
                let says = expected.isHeld(by: output.rootValue)
                #expect(says == (value == wanted), "\(edits) against \(value)")
                if says { held += 1 } else { refused += 1 }
            }
        }
        #expect(held > 400 && refused > 300)
    }

    /// Rooted below the document's root (at the value holding every edit), the paths of the
    /// edits are read from the document's root.
    @Test func aRootBelowTheDocumentsReadsPathsFromTheDocumentsRoot() throws {
        let start: PlistValue = .dict(["ATS": .dict(["D": .dict(["a.example": .dict(["k": .bool(true)])])]), "Other": .string("x")])
        let original = try PlistDocument(parsing: Self.xml(start, compact: false))
        let edits: [PlannedEdit] = [.rename(dict: [.key("ATS"), .key("D")], from: "a.example", to: "b.example"),
                                    .insert(dict: [.key("ATS"), .key("D"), .key("b.example")], key: "s", value: .string("y"))]
        let wanted = PlannedEdit.apply(edits, to: start)
        let outer = try #require(original.rootValue[key: "ATS"]?[key: "D"])
        for (value, holds) in [(wanted, true), (start, false)] {
            let output = try PlistDocument(parsing: Self.xml(value, compact: true))
            let element = try #require(output.rootValue[key: "ATS"]?[key: "D"])
            #expect(ExpectedValues(outer, depth: 2, applying: edits).isHeld(by: element) == holds)
        }
    }

    /// An output dict with a key written twice holds what its last copy says, as decoding
    /// reads it: for a dict of a few entries (compared by a scan) and of many (by a table).
    @Test func aKeyWrittenTwiceInTheOutputCountsAtItsLastCopy() throws {
        for count in [2, ExpectedValues.Container.fewEntries + 4] {
            let names = (0..<count).map { "k\($0)" }
            func xml(_ pairs: [(String, Bool)]) -> [UInt8] {
                let body = pairs.map { "<key>\($0.0)</key><\($0.1)/>" }.joined()
                return Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>\(body)</dict></plist>\n".utf8)
            }
            let original = try PlistDocument(parsing: xml(names.map { ($0, true) }))
            let edits: [PlannedEdit] = [.replace(dict: [], key: "k0", value: .bool(false))]
            let plain = names.map { ($0, $0 != "k0") }
            let lastSaysFalse = [("k0", true)] + plain
            let lastSaysTrue = plain + [("k0", true)]
            for (pairs, holds) in [(plain, true), (lastSaysFalse, true), (lastSaysTrue, false)] {
                let output = try PlistDocument(parsing: xml(pairs))
                #expect(ExpectedValues(original.rootValue, depth: 0, applying: edits).isHeld(by: output.rootValue) == holds, "\(count) keys: \(pairs)")
            }
        }
    }

    /// A dict that edits grow past the few entries kept in a list, and shrink again, is
    /// expected to hold what `PlannedEdit.apply` says: random runs of inserts, removals,
    /// renames and replacements on one small dict.
    @Test func aSmallDictGrownPastAFewEntriesHoldsWhatTheEditsSay() throws {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let start: PlistValue = .dict(["D": .dict(["k0": .bool(true), "k1": .string("x"), "k2": .integer(1)])])
        let original = try PlistDocument(parsing: Self.xml(start, compact: false))
        let few = ExpectedValues.Container.fewEntries
        var grewPast = 0
        for run in 0..<300 {
            var edits: [PlannedEdit] = []
            for _ in 0..<(4 + next(2 * few)) {
                let key = "k\(next(few + 6))"
                let edit: PlannedEdit = switch next(8) {
                case 0: .remove(dict: [.key("D")], key: key)
                case 1: .rename(dict: [.key("D")], from: key, to: "k\(next(few + 6))")
                case 2: .replace(dict: [.key("D")], key: key, value: .bool(next(2) == 0))
                default: .insert(dict: [.key("D")], key: key, value: .integer(Int128(next(5))))
                }
                edits.append(edit)
            }
            let wanted = PlannedEdit.apply(edits, to: start)
            if case .dict(let root) = wanted, case .dict(let dict)? = root["D"], dict.count > few { grewPast += 1 }
            let candidates = [wanted, PlannedEdit.apply(Array(edits.dropLast()), to: start)]
            for (index, value) in candidates.enumerated() {
                let output = try PlistDocument(parsing: Self.xml(value, compact: (run + index) % 2 == 1))
                let says = ExpectedValues(original.rootValue, depth: 0, applying: edits).isHeld(by: output.rootValue)
                #expect(says == (value == wanted), "\(edits) against \(value)")
            }
        }
        #expect(grewPast > 30, "the runs grow the dict past \(few) entries")
    }
}
