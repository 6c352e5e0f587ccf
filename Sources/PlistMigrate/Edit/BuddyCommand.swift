import PlistDOM
import FileAccess
/// One PlistBuddy command (`-c`), as `plist-migrate edit` takes it: `Print [entry]`,
/// `Set entry value`, `Add entry type [value]`, `Delete entry`.
public enum BuddyCommand: Equatable, Sendable {
    case print(BuddyEntry)
    case set(BuddyEntry, String)
    case add(BuddyEntry, BuddyType, String?)
    case delete(BuddyEntry)

    public struct SyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
        public var command: String
        public var message: String
        public var description: String { "-c \"\(command)\": \(message)" }
    }

    /// Words are split at spaces and tabs; "…" and '…' group, and a backslash takes the next
    /// character as it is. A `Set` or `Add` value is the rest of the line, decoded the same way
    /// but with its inner spaces and tabs kept exactly (`Set :CFBundleName My  App` sets
    /// `My  App`); spaces before and after it are not part of it unless quoted. Refused, as
    /// nothing sensible can be written: bytes that are not UTF-8, characters a plist cannot
    /// hold (controls other than tab, line feed and carriage return; U+FFFE, U+FFFF), a
    /// trailing backslash and an unterminated quote.
    public init(parsing line: String) throws(SyntaxError) {
        func fail(_ message: String) -> SyntaxError { SyntaxError(command: PathBytes.hexEscaped(line), message: message) }
        if let problem = Self.unwritableCharacter(in: line) { throw fail(problem) }
        let words = try Self.words(line).get()
        guard let verb = words.first?.text else { throw fail("empty command") }
        let arguments = words.dropFirst().map(\.text)
        /// The value after word `index` (0 = the verb): the rest of the line.
        func value(after index: Int) -> String { Self.value(line[words[index].end...]) }
        switch verb.lowercased() {
        case "print":
            guard arguments.count <= 1 else { throw fail("Print takes one entry at most") }
            self = .print(BuddyEntry(parsing: arguments.first ?? ":"))
        case "set":
            guard arguments.count >= 2 else { throw fail("Set needs an entry and a value") }
            self = .set(BuddyEntry(parsing: arguments[0]), value(after: 1))
        case "add":
            guard arguments.count >= 2 else { throw fail("Add needs an entry and a type (\(BuddyType.allCases.map(\.rawValue).joined(separator: ", ")))") }
            guard let type = BuddyType(rawValue: arguments[1].lowercased()) else {
                throw fail("unknown type \"\(arguments[1])\" (one of \(BuddyType.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            let value = arguments.count > 2 ? value(after: 2) : nil
            if value != nil, type == .array || type == .dict { throw fail("Add … \(type.rawValue) takes no value") }
            let entry = BuddyEntry(parsing: arguments[0])
            let depth = PlistDocument.elementDepth(pathLength: entry.components.count + (entry.appends ? 1 : 0))
            guard depth <= PlistDocument.maximumElementDepth else {
                throw fail("the new entry would be nested \(depth) levels deep; libxml2, and so every reader built on it, "
                    + "refuses more than \(PlistDocument.maximumElementDepth)")
            }
            self = .add(entry, type, value)
        case "delete":
            // PlistBuddy's manual writes "Delete :CFBundleDocumentTypes:0 dict": a type is ignored.
            guard arguments.count == 1 || (arguments.count == 2 && BuddyType(rawValue: arguments[1].lowercased()) != nil) else {
                throw fail("Delete takes one entry")
            }
            self = .delete(BuddyEntry(parsing: arguments[0]))
        default:
            let near = NearestName.nearest(to: verb, among: ["Print", "Set", "Add", "Delete"])
            throw fail("unknown command \"\(verb)\"" + (near.map { " (did you mean \"\($0)\"? edit knows Print, Set, Add and Delete)" }
                ?? " (edit knows Print, Set, Add and Delete)"))
        }
    }

    /// What in `line` no plist can hold, said for people; `nil` when all of it can be written.
    static func unwritableCharacter(in line: String) -> String? {
        if let bad = PathBytes.firstUndecodableByte(in: line) {
            return "not valid UTF-8 (byte \\x\(String(bad.byte, radix: 16, uppercase: true)) at byte \(bad.offset + 1)); give text as UTF-8"
        }
        if let scalar = line.unicodeScalars.first(where: { !XMLCharacters.isAllowed($0) }) {
            return "\(XMLCharacters.name(scalar)) cannot be written in a plist (XML 1.0 does not allow it)"
        }
        return nil
    }

    struct Word {
        var text: String
        /// Where the word's raw characters end in the line.
        var end: String.Index
    }

    static func words(_ line: String) -> Result<[Word], SyntaxError> {
        var words: [Word] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if escaped {
                // `\:` stays escaped for the entry parser; other escapes are the character.
                current += character == ":" ? "\\:" : String(character)
                escaped = false
                inWord = true
            } else if character == "\\" {
                escaped = true
            } else if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(Word(text: current, end: index)) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
            index = line.index(after: index)
        }
        if let failure = unfinished(escaped: escaped, quote: quote, in: line) { return .failure(failure) }
        if inWord { words.append(Word(text: current, end: line.endIndex)) }
        return .success(words)
    }

    /// The rest of a line as one value: quotes group and a backslash takes the next character,
    /// as in a word, but spaces and tabs between its words are kept as they are. `words` has
    /// checked the whole line, so the rest has no unfinished quote or escape.
    static func value(_ rest: Substring) -> String {
        var text = ""
        var pending = ""  // unquoted spaces, kept only when more of the value follows
        var quote: Character?
        var escaped = false
        for character in rest.drop(while: { $0 == " " || $0 == "\t" }) {
            if escaped {
                text += pending + String(character)
                pending = ""
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if let open = quote {
                if character == open { quote = nil } else { text.append(character) }
            } else if character == "\"" || character == "'" {
                text += pending
                pending = ""
                quote = character
            } else if character == " " || character == "\t" {
                pending.append(character)
            } else {
                text += pending + String(character)
                pending = ""
            }
        }
        return text
    }

    private static func unfinished(escaped: Bool, quote: Character?, in line: String) -> SyntaxError? {
        if escaped { return SyntaxError(command: line, message: "ends with a backslash (write \\\\ for a backslash)") }
        if let quote { return SyntaxError(command: line, message: "unterminated \(quote) quote") }
        return nil
    }
}

/// A PlistBuddy entry: keys and zero-based array positions joined by `:` (`\:` for a colon in
/// a key). A trailing `:` on an array names the position after its last item.
public struct BuddyEntry: Equatable, Sendable, CustomStringConvertible {
    public var components: [String]
    public var appends: Bool

    public init(parsing text: String) {
        let body = text.hasPrefix(":") ? text.dropFirst() : Substring(text)
        var parts: [String] = []
        var current = ""
        var escaped = false
        var endsWithSeparator = false
        for character in body {
            endsWithSeparator = false
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                parts.append(current)
                current = ""
                endsWithSeparator = true
            } else {
                current.append(character)
            }
        }
        if !endsWithSeparator && !(parts.isEmpty && current.isEmpty) { parts.append(current) }
        components = parts
        appends = endsWithSeparator
    }

    public var description: String {
        ":" + components.map { $0.replacingOccurrences(of: ":", with: "\\:") }.joined(separator: ":") + (appends ? ":" : "")
    }
}

/// The value types PlistBuddy names.
public enum BuddyType: String, CaseIterable, Sendable {
    case string, array, dict, bool, real, integer, date, data
}
