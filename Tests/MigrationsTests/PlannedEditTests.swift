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
}
