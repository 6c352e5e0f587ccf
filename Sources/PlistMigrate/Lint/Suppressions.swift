#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlistDOM

/// What a file's own comments say about its lint findings, and where each finding sits.
///
/// Possible because the tree keeps every comment:
/// - `<!-- plist-migrate:disable L005 -->` silences the rules named (all, when none are) for the
///   next entry of the file and everything below it;
/// - `<!-- plist-migrate:disable-next-line L005 -->` for the next line;
/// - `<!-- plist-migrate:disable-file L005 -->` for the whole file.
/// A suppression that silences nothing is itself a finding (L011), so stale ones do not pile up.
struct LintContext {
    /// One dict entry (or array item): its key path and the bytes from its key to its value's end.
    struct Span {
        var keyPath: String
        var range: Range<Int>
    }

    struct Suppression {
        enum Scope { case file, lines(ClosedRange<Int>) }
        var scope: Scope
        /// Empty: every rule.
        var rules: Set<String>
        var location: SourceLocation
        var text: String
        var used = false

        func covers(_ finding: Finding) -> Bool {
            guard rules.isEmpty || rules.contains(finding.ruleID) else { return false }
            switch scope {
            case .file: return true
            case .lines(let lines): return lines.contains(finding.line)
            }
        }
    }

    private(set) var spans: [Span] = []
    private(set) var suppressions: [Suppression] = []
    private let lineStarts: [Int]

    init(document: PlistDocument, bytes: [UInt8]) {
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count, let hit = memchr(base + offset, 0x0A, buffer.count - offset) {
                offset = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base + 1
                starts.append(offset)
            }
        }
        lineStarts = starts
        spans = Self.spans(of: document.rootValue)
        spans.sort { ($0.range.lowerBound, -$0.range.count) < ($1.range.lowerBound, -$1.range.count) }
        findSuppressions(bytes)
    }

    /// Every entry and array item below `root`, depth first, with an explicit stack.
    private static func spans(of root: PlistElement) -> [Span] {
        var result: [Span] = []
        var pending: [(container: PlistElement, path: [String])] = [(root, [])]
        while let (container, path) = pending.popLast() {
            var items: [(key: PlistElement?, value: PlistElement, path: [String])] = []
            if container.name == "dict" {
                items = container.entries.map { ($0.key, $0.value, path + [$0.name]) }
            } else if container.name == "array" {
                items = container.children.enumerated().map { (nil, $0.element, path + [String($0.offset)]) }
            }
            for item in items {
                guard let start = (item.key ?? item.value).sourceOffset, let value = item.value.sourceRange else { continue }
                result.append(Span(keyPath: item.path.joined(separator: ":"), range: start..<value.upperBound))
                pending.append((item.value, item.path))
            }
        }
        return result
    }

    func line(of offset: Int) -> Int {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low + 1
    }

    /// The key path (`NSAppTransportSecurity:NSExceptionDomains:example.com`) of the innermost
    /// entry at `line:column`, matched by rule and path in baselines whatever the line.
    func keyPath(line: Int, column: Int) -> String? {
        guard line >= 1, line <= lineStarts.count else { return nil }
        let offset = lineStarts[line - 1] + max(column - 1, 0)
        return spans.last { $0.range.contains(offset) }?.keyPath
    }

    private mutating func findSuppressions(_ bytes: [UInt8]) {
        let open = Array("<!--".utf8), close = Array("-->".utf8)
        var index = 0
        while let start = bytes[index...].firstOffset(of: open) {
            guard let end = bytes[(start + open.count)...].firstOffset(of: close) else { break }
            index = end + close.count
            let text = String(decoding: bytes[(start + open.count)..<end], as: UTF8.self)
            let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0.isNewline || $0 == "\t" }).map(String.init)
            guard let directive = words.first, directive.hasPrefix("plist-migrate:") else { continue }
            let rules = Set(words.dropFirst().map { $0.uppercased() })
            let line = line(of: start)
            let location = SourceLocation(line: line, column: start - lineStarts[line - 1] + 1)
            let scope: Suppression.Scope
            switch directive {
            case "plist-migrate:disable-file":
                scope = .file
            case "plist-migrate:disable-next-line":
                scope = .lines((line + 1)...(line + 1))
            case "plist-migrate:disable":
                // The next entry (key and value) after the comment, and its subtree.
                guard let next = spans.first(where: { $0.range.lowerBound >= index }) else { scope = .lines(0...0); break }
                scope = .lines(self.line(of: next.range.lowerBound)...self.line(of: next.range.upperBound - 1))
            default:
                scope = .lines(0...0)
            }
            suppressions.append(Suppression(scope: scope, rules: rules, location: location, text: directive))
        }
    }

    /// `findings` without the suppressed ones, each with its key path, plus an L011 finding for
    /// every suppression that silenced nothing.
    mutating func apply(_ findings: [Finding], path: String) -> [Finding] {
        var kept: [Finding] = []
        for var finding in findings {
            finding.keyPath = finding.keyPath ?? keyPath(line: finding.line, column: finding.column)
            if let index = suppressions.firstIndex(where: { $0.covers(finding) }) {
                suppressions[index].used = true
                continue
            }
            kept.append(finding)
        }
        for suppression in suppressions where !suppression.used {
            let known = ["plist-migrate:disable", "plist-migrate:disable-next-line", "plist-migrate:disable-file"].contains(suppression.text)
            let what = suppression.rules.isEmpty ? "any rule" : suppression.rules.sorted().joined(separator: ", ")
            kept.append(Finding(ruleID: "L011", severity: .warning, path: path, line: suppression.location.line,
                                column: suppression.location.column,
                                message: known ? "unused suppression: \(suppression.text) \(what) silences nothing; remove it"
                                    : "unknown directive \(suppression.text) (use disable, disable-next-line or disable-file)"))
        }
        return kept
    }
}
