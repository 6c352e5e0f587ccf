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

    /// Words are split at spaces; "…" and '…' group, and a backslash takes the next character
    /// as it is. A `Set` value is the rest of the line, so `Set :CFBundleName My App` works.
    public init(parsing line: String) throws(SyntaxError) {
        let words = Self.words(line)
        func fail(_ message: String) -> SyntaxError { SyntaxError(command: line, message: message) }
        guard let verb = words.first else { throw fail("empty command") }
        let arguments = Array(words.dropFirst())
        switch verb.lowercased() {
        case "print":
            guard arguments.count <= 1 else { throw fail("Print takes one entry at most") }
            self = .print(BuddyEntry(parsing: arguments.first ?? ":"))
        case "set":
            guard arguments.count >= 2 else { throw fail("Set needs an entry and a value") }
            self = .set(BuddyEntry(parsing: arguments[0]), arguments.dropFirst().joined(separator: " "))
        case "add":
            guard arguments.count >= 2 else { throw fail("Add needs an entry and a type (\(BuddyType.allCases.map(\.rawValue).joined(separator: ", ")))") }
            guard let type = BuddyType(rawValue: arguments[1].lowercased()) else {
                throw fail("unknown type \"\(arguments[1])\" (one of \(BuddyType.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            let value = arguments.count > 2 ? arguments.dropFirst(2).joined(separator: " ") : nil
            if value != nil, type == .array || type == .dict { throw fail("Add … \(type.rawValue) takes no value") }
            self = .add(BuddyEntry(parsing: arguments[0]), type, value)
        case "delete":
            // PlistBuddy's manual writes "Delete :CFBundleDocumentTypes:0 dict": a type is ignored.
            guard arguments.count == 1 || (arguments.count == 2 && BuddyType(rawValue: arguments[1].lowercased()) != nil) else {
                throw fail("Delete takes one entry")
            }
            self = .delete(BuddyEntry(parsing: arguments[0]))
        default:
            throw fail("unknown command \"\(verb)\" (edit knows Print, Set, Add and Delete)")
        }
    }

    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
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
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
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
