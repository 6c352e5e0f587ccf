import Testing
@testable import Migrations

@Suite struct KeyCatalogTests {
    /// The textbook Levenshtein table, with no shortcuts: what the fast one must agree with.
    static func reference(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
        }
        return table[a.count][b.count]
    }

    @Test func editDistanceAgreesWithTheTextbookTableUpToItsLimit() {
        var generator = SystemRandomNumberGenerator()
        // A two-byte letter too: distances count UTF-8 bytes.
        let alphabet = ["a", "b", "c", "A", "x", "é"]
        var compared = 0
        for _ in 0..<3000 {
            let base = (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            // Near copies as well as unrelated strings, so small distances are well covered.
            var other = Array(base)
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let letter = Character(alphabet.randomElement(using: &generator)!)
                switch Int.random(in: 0...2, using: &generator) {
                case 0 where !other.isEmpty: other[Int.random(in: 0..<other.count, using: &generator)] = letter
                case 1 where !other.isEmpty: other.remove(at: Int.random(in: 0..<other.count, using: &generator))
                default: other.insert(letter, at: Int.random(in: 0...other.count, using: &generator))
                }
            }
            let limit = Int.random(in: 0...3, using: &generator)
            let expected = Self.reference(base, String(other))
            let found = ATSKeyCatalog.editDistance(base, String(other), limit: limit)
            #expect(min(found, limit + 1) == min(expected, limit + 1), "\(base) / \(String(other)) limit \(limit)")
            if expected <= limit { #expect(found == expected) }
            compared += 1
        }
        #expect(compared == 3000)
    }

    /// The misspelling test as defined: the limit and the length check in characters, the
    /// distance in bytes of the lowercased strings. The fast path counts bytes of ASCII text.
    @Test func editDistanceIsSmallKeepsItsDefinitionForAnyText() {
        var generator = SystemRandomNumberGenerator()
        var small = 0
        for round in 0..<3000 {
            // Half the rounds ASCII only (the fast path), half with letters of several bytes.
            let alphabet = round % 2 == 0 ? ["a", "B", "x", "K"] : ["a", "B", "é", "\u{212A}", "e\u{301}"]
            let correct = (0..<Int.random(in: 12...18, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            var key = Array(correct)
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let letter = Character(alphabet.randomElement(using: &generator)!)
                if Bool.random(using: &generator), !key.isEmpty { key.remove(at: Int.random(in: 0..<key.count, using: &generator)) }
                else { key.insert(letter, at: Int.random(in: 0...key.count, using: &generator)) }
            }
            let limit = correct.count < 16 ? 1 : 2
            let expected = abs(correct.count - key.count) <= limit
                && Self.reference(correct.lowercased(), String(key).lowercased()) <= limit
            #expect(ATSKeyCatalog.editDistanceIsSmall(String(key), correct) == expected, "\(String(key)) / \(correct)")
            if expected { small += 1 }
        }
        #expect(small > 100)
    }

    @Test func candidatesFindMisspellingsAndNothingForKnownKeys() {
        #expect(ATSKeyCatalog.candidates(for: "NSAllowsArbitraryLoads", at: .global).isEmpty)
        #expect(ATSKeyCatalog.candidates(for: "NSAllowsArbitaryLoads", at: .global) == ["NSAllowsArbitraryLoads"])
        #expect(ATSKeyCatalog.candidates(for: "nsallowsarbitraryloads", at: .global) == ["NSAllowsArbitraryLoads"])
        #expect(ATSKeyCatalog.correction(for: "NSThirdPartyExceptionAllowsInsecreuHTTPLoads", at: .exceptionDomain)
            == "NSExceptionAllowsInsecureHTTPLoads")
        #expect(ATSKeyCatalog.candidates(for: "UIBackgroundModes", at: .global).isEmpty)
    }
}
