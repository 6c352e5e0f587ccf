import Testing
@testable import PlistMigrate

/// Our Myers diff must choose exactly what the standard library's `difference(from:)` chooses,
/// or diffs would change with the implementation.
@Suite struct MyersDiffTests {
    static func reference(_ old: [Int], _ new: [Int]) -> (removed: [Int], inserted: [Int]) {
        var removed: [Int] = [], inserted: [Int] = []
        for change in new.difference(from: old) {
            switch change {
            case .remove(let offset, _, _): removed.append(offset)
            case .insert(let offset, _, _): inserted.append(offset)
            }
        }
        return (removed.sorted(), inserted.sorted())
    }

    static func ours(_ old: [Int], _ new: [Int]) -> (removed: [Int], inserted: [Int]) {
        let result = old.withUnsafeBufferPointer { a in new.withUnsafeBufferPointer { MyersDiff.changes(from: a, to: $0) } }
        return (result.removed.sorted(), result.inserted.sorted())
    }

    @Test func choosesWhatTheStandardLibraryChooses() {
        var generator = SystemRandomNumberGenerator()
        var compared = 0
        for round in 0..<20_000 {
            // Small alphabets make many equally short scripts, where a different tie-break shows.
            let alphabet = [2, 3, 5, 12][round % 4]
            let old = (0..<Int.random(in: 0...24, using: &generator)).map { _ in Int.random(in: 0..<alphabet, using: &generator) }
            var new = old
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                switch Int.random(in: 0..<3, using: &generator) {
                case 0 where !new.isEmpty: new.remove(at: Int.random(in: 0..<new.count, using: &generator))
                case 1: new.insert(Int.random(in: 0..<alphabet, using: &generator), at: Int.random(in: 0...new.count, using: &generator))
                default: if !new.isEmpty { new[Int.random(in: 0..<new.count, using: &generator)] = Int.random(in: 0..<alphabet, using: &generator) }
                }
            }
            // Unrelated pairs as well as edited copies.
            if round % 5 == 0 { new = (0..<Int.random(in: 0...24, using: &generator)).map { _ in Int.random(in: 0..<alphabet, using: &generator) } }
            let expected = Self.reference(old, new), got = Self.ours(old, new)
            #expect(got.removed == expected.removed && got.inserted == expected.inserted, "old \(old) new \(new)")
            compared += 1
        }
        #expect(compared == 20_000)
    }

    /// Longer line lists with scattered edits, as plists give, split into many regions.
    @Test func longListsChooseAlike() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<400 {
            let alphabet = [3, 20, 500][round % 3]
            let old = (0..<Int.random(in: 50...300, using: &generator)).map { _ in Int.random(in: 0..<alphabet, using: &generator) }
            var new = old
            for _ in 0..<Int.random(in: 1...40, using: &generator) {
                let at = Int.random(in: 0...new.count, using: &generator)
                if Bool.random(using: &generator), at < new.count { new.remove(at: at) } else { new.insert(alphabet + round, at: at) }
            }
            let expected = Self.reference(old, new), got = Self.ours(old, new)
            #expect(got.removed == expected.removed && got.inserted == expected.inserted, "round \(round)")
        }
    }

    @Test func edgeCases() {
        for (old, new) in [([], []), ([1], []), ([], [1]), ([1, 2, 3], [1, 2, 3]), ([1, 2, 3], [3, 2, 1]), ([1, 1, 1], [1, 1])] as [([Int], [Int])] {
            let expected = Self.reference(old, new), got = Self.ours(old, new)
            #expect(got.removed == expected.removed && got.inserted == expected.inserted, "old \(old) new \(new)")
        }
    }
}
