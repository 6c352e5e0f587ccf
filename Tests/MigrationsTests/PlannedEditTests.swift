import Testing
import PlistDOM
@testable import Migrations

@Suite struct PlannedEditTests {
    /// The keys an edit touches, as first written: the name appended to its container, cut
    /// at the first array step.
    static func reference(_ edit: PlannedEdit) -> [(dict: [String], key: String)] {
        let names: [PathStep] = switch edit {
        case .rename(_, let from, let to): [.key(from), .key(to)]
        case .remove(_, let key), .insert(_, let key, _), .replace(_, let key, _): [.key(key)]
        case .removeItem(_, let index), .insertItem(_, let index, _), .replaceItem(_, let index, _): [.index(index)]
        }
        return names.compactMap { last in
            let full = edit.container + [last]
            let cut = full.firstIndex { $0.key == nil } ?? full.count
            guard cut > 0, let key = full[cut - 1].key else { return nil }
            return (full[..<(cut - 1)].compactMap(\.key), key)
        }
    }

    /// Every container up to three steps of keys and indices, with every kind of edit.
    @Test func touchedKeysMatchTheReference() {
        let steps: [PathStep] = [.key("NSAppTransportSecurity"), .key("a.com"), .index(0), .index(2)]
        var containers: [[PathStep]] = [[]], longest: [[PathStep]] = [[]]
        for _ in 0..<3 {
            longest = longest.flatMap { path in steps.map { path + [$0] } }
            containers += longest
        }
        var checked = 0
        for path in containers {
            let edits: [PlannedEdit] = [
                .rename(dict: path, from: "old", to: "new"), .remove(dict: path, key: "k"),
                .insert(dict: path, key: "k", value: .bool(true)), .replace(dict: path, key: "k", value: .string("x")),
                .removeItem(array: path, index: 1), .insertItem(array: path, index: 0, value: .bool(false)),
                .replaceItem(array: path, index: 3, value: .integer(1)),
            ]
            for edit in edits {
                let got = edit.touchedKeys, want = Self.reference(edit)
                #expect(got.map(\.dict) == want.map(\.dict) && got.map(\.key) == want.map(\.key), "\(edit)")
                checked += 1
            }
        }
        #expect(checked == containers.count * 7 && containers.count == 85)
    }

    /// The first edit touching a root key outside the declared ones (a run of edits in one
    /// root key's value asked once) is the first a plain search finds, over random runs.
    @Test func theFirstEditOutsideTheDeclaredRootKeysIsThePlainSearchs() {
        var generator = SystemRandomNumberGenerator()
        let steps: [PathStep] = [.key("A"), .key("B"), .key("C"), .index(0)]
        var found = 0
        for _ in 0..<500 {
            let edits = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                PlannedEdit.remove(dict: (0..<Int.random(in: 0...2, using: &generator)).map { _ in steps.randomElement(using: &generator)! },
                                   key: ["A", "B", "k"].randomElement(using: &generator)!)
            }
            let declared = Set(["A", "B", "C", "k"].filter { _ in Bool.random(using: &generator) })
            let plain = edits.firstIndex { !$0.rootKeys(outside: declared).isEmpty }
            let got = PlannedEdit.first(of: edits, touchingRootKeysOutside: declared)
            #expect(got == plain.map { edits[$0] }, "\(edits) outside \(declared)")
            if plain != nil { found += 1 }
        }
        #expect(found > 100)
    }

    /// `apply` (boxes opened once, the last container and its parent kept) against each edit
    /// applied alone, in turn: random runs that rename, insert, replace and remove in
    /// a dict of 100 domains, in their dicts and in an array, going back and forth between a
    /// container, its parent and its siblings, and replacing containers that were opened (the
    /// root's entries too).
    @Test func applyMatchesEditsAppliedOneByOne() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let domain: PlistValue = .dict(["k": .bool(true), "s": .string("x")])
        let domains: PlistValue = .dict(Dictionary(uniqueKeysWithValues: (0..<100).map { ("d\($0)", domain) }))
        let list: PlistValue = .array(Array(repeating: domain, count: 5))
        let start: PlistValue = .dict(["A": domains, "L": list])
        var runs = 0, changed = 0
        for _ in 0..<300 {
            var edits: [PlannedEdit] = []
            for _ in 0..<40 {
                let d = "d\(next(110))", inDomain: [PathStep] = [.key("A"), .key(d)]
                let item: [PathStep] = [.key("L"), .index(next(6))]
                let edit: PlannedEdit = switch next(12) {
                case 10: .replace(dict: [], key: ["A", "L"][next(2)], value: [domains, list][next(2)])
                case 11: .rename(dict: [], from: ["A", "L", "B"][next(3)], to: ["A", "L", "B"][next(3)])
                case 0: .rename(dict: [.key("A")], from: d, to: "d\(next(110))")
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
            // Each edit alone: a fresh walk from the root, nothing kept from the edit before.
            let expected = edits.reduce(start) { PlannedEdit.apply([$1], to: $0) }
            #expect(PlannedEdit.apply(edits, to: start) == expected, "\(edits)")
            runs += 1
            if expected != start { changed += 1 }
        }
        #expect(runs == 300 && changed > 250)
    }
}
