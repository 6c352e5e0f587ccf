import Foundation

/// Where the repository, its fixtures and the shared corpus live, found from this file.
enum TestPaths {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Fixtures")
    static let corpus = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// Every `*.plist` file below `directory`, sorted.
    static func plists(under directory: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "plist" }
            .sorted { $0.path < $1.path }
    }

    static func bytes(_ url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }

    /// Every corpus plist, then `mutations` mutations of it (one to three bytes deleted,
    /// inserted from `alphabet` or replaced by one of it), drawn from a generator seeded with
    /// `seed`: `body` gets the file's name, the mutation's number (0: the file as it is) and
    /// the bytes.
    static func corpusAndMutations(
        seed: UInt64, alphabet: [UInt8], mutations: Int = 6, _ body: (_ name: String, _ mutation: Int, _ bytes: [UInt8]) -> Void
    ) throws {
        var generator = PropertyTests.SplitMix64(state: seed)
        for url in plists(under: corpus) {
            let original = try bytes(url)
            for mutation in 0...mutations {
                var bytes = original
                for _ in 0..<(mutation == 0 ? 0 : Int.random(in: 1...3, using: &generator)) where bytes.count > 2 {
                    let at = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes.remove(at: at)
                    case 1: bytes.insert(alphabet.randomElement(using: &generator)!, at: at)
                    default: bytes[at] = alphabet.randomElement(using: &generator)!
                    }
                }
                body(url.lastPathComponent, mutation, bytes)
            }
        }
    }
}
