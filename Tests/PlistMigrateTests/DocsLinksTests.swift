import Foundation
import Testing

/// The README is a newcomer's page and the docs hold the rest: the README stays short, and every
/// relative link in it and in `docs/` reaches a file that exists and, with `#…`, a heading there.
@Suite struct DocsLinksTests {
    static let pages: [URL] = {
        let docs = Paths.repository.appendingPathComponent("docs")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []).filter { $0.hasSuffix(".md") }.sorted()
        return [Paths.repository.appendingPathComponent("README.md"), Paths.repository.appendingPathComponent("ARCHITECTURE.md")]
            + names.map { docs.appendingPathComponent($0) }
    }()

    /// The lines of `text` outside fenced code blocks.
    static func prose(_ text: String) -> [Substring] {
        var inside = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") { inside.toggle(); return false }
            return !inside
        }
    }

    /// GitHub's anchor for a heading: lowercased, punctuation other than `-` dropped, spaces to `-`.
    static func anchor(_ heading: Substring) -> String {
        String(heading.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == " " || $0 == "_" }
            .map(Character.init)).replacingOccurrences(of: " ", with: "-")
    }

    static func anchors(of url: URL) throws -> Set<String> {
        Set(prose(try String(contentsOf: url, encoding: .utf8)).compactMap { line in
            guard line.hasPrefix("#"), let space = line.firstIndex(of: " ") else { return nil }
            return anchor(line[line.index(after: space)...])
        })
    }

    @Test func theReadmeIsANewcomersPage() throws {
        let lines = try String(contentsOf: Paths.repository.appendingPathComponent("README.md"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 400, "README.md has \(lines) lines")
        #expect(Self.pages.count > 10, "the docs pages are found")
    }

    @Test func everyRelativeLinkResolves() throws {
        var broken: [String] = []
        let link = /\]\(([^)\s]+)\)/
        for page in Self.pages {
            for line in Self.prose(try String(contentsOf: page, encoding: .utf8)) {
                for match in line.matches(of: link) {
                    let target = String(match.1)
                    guard !target.hasPrefix("http://"), !target.hasPrefix("https://"), !target.hasPrefix("mailto:") else { continue }
                    let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                    let file = parts[0].isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(String(parts[0])).standardizedFileURL
                    guard FileManager.default.fileExists(atPath: file.path) else {
                        broken.append("\(page.lastPathComponent): \(target)")
                        continue
                    }
                    if parts.count == 2, file.pathExtension == "md", !(try Self.anchors(of: file)).contains(String(parts[1])) {
                        broken.append("\(page.lastPathComponent): \(target)")
                    }
                }
            }
        }
        #expect(broken.isEmpty, "\(broken)")
    }
}
