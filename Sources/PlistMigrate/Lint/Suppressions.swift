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

    struct Suppression {
        enum Scope { case file, lines(ClosedRange<Int>) }
        var scope: Scope
        /// Empty: every rule.
        var rules: Set<String>
        var location: SourceLocation
        var text: String
        /// The rules as the comment writes them, by the id they were read as.
        var written: [String: String] = [:]
        var used = false

        func covers(_ finding: Finding) -> Bool {
            guard rules.isEmpty || rules.contains(finding.ruleID) else { return false }
            switch scope {
            case .file: return true
            case .lines(let lines): return lines.contains(finding.line)
            }
        }
    }

    private(set) var suppressions: [Suppression] = []
    private let lineStarts: [Int]
    /// Findings and suppressions are placed by walking down from here to the entry they are in.
    private let root: PlistElement
    /// Each container's items, listed once: a file with 10,000 domains has as many findings,
    /// and walking the list for each would be quadratic.
    private let listed = ListedItems()

    private final class ListedItems {
        var items: [Int: [Item]] = [:]
    }

    init(document: PlistDocument, bytes: [UInt8]) {
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while let hit = buffer.firstOffset(of: 0x0A, in: offset..<buffer.count) {
                offset = hit + 1
                starts.append(offset)
            }
        }
        lineStarts = starts
        root = document.rootValue
        findSuppressions(bytes)
    }

    /// One dict entry (or array item): its key (none for an item), its position, its value,
    /// and the bytes from its key (or the item) to the end of its value.
    private struct Item {
        var key: PlistElement?
        var position: Int
        var value: PlistElement
        var range: Range<Int>

        /// Its name in key paths: the key, or for an array item its content (`[#1f2e3d4c]`, a
        /// hash of its value), so that inserting an item before it does not rename it. Asked
        /// only of the items found.
        var name: String {
            if let key { return key.text }
            let digest = FNV1a.hash(Self.canonical(PlistValue(value)).utf8)
            return "[#" + String(String(digest, radix: 16).prefix(8)) + "]"
        }

        /// The same text for equal values in every run (dict keys sorted).
        static func canonical(_ value: PlistValue) -> String {
            switch value {
            case .string(let text): "s" + text.debugDescription
            case .integer(let number): "i\(number)"
            case .real(let number): "r\(number)"
            case .bool(let flag): "b\(flag)"
            case .date(let text): "d" + text
            case .data(let bytes): "x" + bytes.map { String($0, radix: 16) }.joined(separator: ".")
            case .array(let items): "[" + items.map(canonical).joined(separator: ",") + "]"
            case .dict(let entries): "{" + entries.keys.sorted().map { $0.debugDescription + "=" + canonical(entries[$0]!) }.joined(separator: ",") + "}"
            }
        }
    }

    /// Calls `body` with each entry of a dict or item of an array, in order (none for other
    /// values), until it returns true: nothing is listed first, as this runs for every finding.
    private static func forEachItem(of container: PlistElement, _ body: (Item) -> Bool) {
        switch container.kind {
        case .dict?:
            var position = 0
            var stopped = false
            container.forEachEntry { entry in
                defer { position += 1 }
                guard !stopped, let start = entry.key.sourceOffset, let value = entry.value.sourceRange else { return }
                stopped = body(Item(key: entry.key, position: position, value: entry.value, range: start..<value.upperBound))
            }
        case .array?:
            for (position, child) in container.childElements.enumerated() {
                guard let range = child.sourceRange else { continue }
                if body(Item(key: nil, position: position, value: child, range: range)) { return }
            }
        default:
            break
        }
    }

    /// The item of `container` holding `offset`: items are in document order and do not
    /// overlap, so a binary search over the container's list (made once) finds it.
    private func item(of container: PlistElement, holding offset: Int) -> Item? {
        let key = container.sourceOffset ?? -1
        let items: [Item]
        if let known = listed.items[key] {
            items = known
        } else {
            var all: [Item] = []
            Self.forEachItem(of: container) { all.append($0); return false }
            listed.items[key] = all
            items = all
        }
        var low = 0, high = items.count
        while low < high {
            let middle = (low + high) / 2
            if items[middle].range.upperBound <= offset { low = middle + 1 } else { high = middle }
        }
        return low < items.count && items[low].range.contains(offset) ? items[low] : nil
    }

    /// The innermost entry or item holding `offset`, with its key path: entries tile their
    /// container, so at each level at most one holds it.
    private func innermostItem(holding offset: Int) -> (path: [String], item: Item)? {
        var path: [String] = []
        var found: Item?
        var container = root
        while true {
            guard let item = item(of: container, holding: offset) else { break }
            path.append(item.name)
            found = item
            container = item.value
        }
        return found.map { (path, $0) }
    }

    /// The first entry or item, in document order, that starts at or after `offset` (the
    /// outermost of those starting there).
    private func firstItem(startingFrom offset: Int, in container: PlistElement) -> Item? {
        var found: Item?
        Self.forEachItem(of: container) { item in
            guard item.range.upperBound > offset else { return false }
            found = item.range.lowerBound >= offset ? item : firstItem(startingFrom: offset, in: item.value)
            return found != nil
        }
        return found
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
        return innermostItem(holding: offset)?.path.joined(separator: ":")
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
            // A rule by id or by name (`L005` or `arbitrary-loads`); anything else is kept as
            // written, upper-cased, so a suppression of no rule is still reported (L011).
            let rules = Set(words.dropFirst().map { LintRule.id(named: $0) ?? $0.uppercased() })
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
                guard let next = firstItem(startingFrom: index, in: root) else { scope = .lines(0...0); break }
                scope = .lines(self.line(of: next.range.lowerBound)...self.line(of: next.range.upperBound - 1))
            default:
                scope = .lines(0...0)
            }
            var written: [String: String] = [:]
            for word in words.dropFirst() { written[LintRule.id(named: word) ?? word.uppercased()] = word }
            suppressions.append(Suppression(scope: scope, rules: rules, location: location, text: directive, written: written))
        }
    }

    /// `findings` without the suppressed ones, each with its key path, plus an L011 finding for
    /// every suppression that silenced nothing.
    /// - Parameter notRun: rules this run does not check (`--rules checks` leaves out posture):
    ///   a suppression naming only those cannot be known to silence nothing.
    mutating func apply(_ findings: [Finding], path: String, notRun: (String) -> Bool = { _ in false }) -> [Finding] {
        var kept: [Finding] = []
        for var finding in findings {
            finding.keyPath = finding.keyPath ?? keyPath(line: finding.line, column: finding.column)
            if let index = suppressions.firstIndex(where: { $0.covers(finding) }) {
                suppressions[index].used = true
                continue
            }
            kept.append(finding)
        }
        for suppression in suppressions {
            let unknown = suppression.rules.filter { LintRule.severities[$0] == nil }.sorted()
            guard !unknown.isEmpty else { continue }
            // As written in the comment, each with the nearest rule when there is one.
            let shown = unknown.map { rule in
                let written = suppression.written[rule] ?? rule
                return "\"\(written)\"" + LintRule.suggestion(for: written)
            }
            kept.append(Finding(ruleID: "L011", severity: .warning, path: path, line: suppression.location.line,
                                column: suppression.location.column,
                                message: "unknown rule \(shown.joined(separator: ", ")) in \(suppression.text) (`plist-migrate rules` lists the rules)"))
        }
        for suppression in suppressions where !suppression.used && suppression.rules.allSatisfy({ LintRule.severities[$0] != nil })
            && !(!suppression.rules.isEmpty && suppression.rules.allSatisfy(notRun))
        {
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
