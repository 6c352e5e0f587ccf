import Foundation
import Yams
import FileAccess

/// A `project.yml` read with its work bounded, since any repository can hold one:
/// no larger than `maximumBytes`, and refused before anything is built from it when its
/// aliases would expand to more than `maximumNodes` nodes (a 673-byte file of nested aliases
/// otherwise expands to billions). Yams composes aliases as shared nodes, so composing is
/// linear; the count below stops at the bound, so it is too; only then are values built.
public enum BoundedYAML {
    /// XcodeGen's largest fixture is 17 KB; a real spec a few hundred at most.
    public static let maximumBytes = 1024 * 1024
    static let maximumNodes = 1_000_000

    public static func load(_ bytes: [UInt8]) throws(FileError) -> Any? {
        guard let node = try compose(bytes) else { return nil }
        return Constructor.default.any(from: node)
    }

    /// The document's node tree (keys in order, each node with its place), within the same bounds.
    public static func compose(_ bytes: [UInt8]) throws(FileError) -> Node? {
        guard bytes.count <= maximumBytes else {
            throw FileError("larger than \(maximumBytes / 1024 / 1024) MiB: not read")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        // A mapping key that is an alias would be hashed whole while composing: refused first.
        if let line = aliasKeyLine(text) {
            throw FileError("an alias used as a mapping key (line \(line)): not read")
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            throw FileError("not valid YAML (\(error))")
        }
        guard let node else { return nil }
        var budget = maximumNodes
        switch check(node, &budget) {
        case .fits: break
        case .tooLarge: throw FileError("its aliases expand to more than \(maximumNodes) nodes: not read")
        case .complexKey(let line): throw FileError("a mapping key that is not a plain value\(line.map { " (line \($0))" } ?? ""): not read")
        }
        return node
    }

    enum Check { case fits, tooLarge, complexKey(line: Int?) }

    /// Counts nodes as construction would visit them, aliases expanded, stopping at the budget;
    /// a mapping key that is a list or a mapping (`? [a]: b`), which Yams' constructor cannot
    /// take and stops the process on, is refused.
    private static func check(_ node: Node, _ budget: inout Int) -> Check {
        budget -= 1
        guard budget >= 0 else { return .tooLarge }
        switch node {
        case .scalar, .alias:
            return .fits
        case .sequence(let sequence):
            for item in sequence {
                let result = check(item, &budget)
                if case .fits = result { continue }
                return result
            }
            return .fits
        case .mapping(let mapping):
            for (key, value) in mapping {
                guard case .scalar = key else { return .complexKey(line: key.mark.map { $0.line }) }
                let result = check(value, &budget)
                if case .fits = result { continue }
                return result
            }
            return .fits
        }
    }

    /// The line of a `*alias:` mapping key (block or flow), if any, outside quotes and comments.
    /// An alias name is letters, digits, `-` and `_` (libyaml's anchor characters).
    static func aliasKeyLine(_ text: String) -> Int? {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains("*") {
            let characters = Array(line)
            var quote: Character?
            var position = 0
            while position < characters.count {
                let character = characters[position]
                let previous: Character = position == 0 ? " " : characters[position - 1]
                if let open = quote {
                    if character == open { quote = nil }
                } else if character == "\"" || character == "'" {
                    quote = character
                } else if character == "#", previous == " " || previous == "\t" {
                    break
                } else if character == "*", " \t[{,?-".contains(previous) {
                    var end = position + 1
                    while end < characters.count, characters[end].isLetter || characters[end].isNumber || "-_".contains(characters[end]) {
                        end += 1
                    }
                    var after = end
                    while after < characters.count, characters[after] == " " || characters[after] == "\t" { after += 1 }
                    if end > position + 1, after < characters.count, characters[after] == ":" { return index + 1 }
                    position = end
                    continue
                }
                position += 1
            }
        }
        return nil
    }
}
