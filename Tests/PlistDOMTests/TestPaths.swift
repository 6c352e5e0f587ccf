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
}
