// Room: Edit. `plist-migrate edit`: PlistBuddy's commands parsed (BuddyCommand) and run
// losslessly (PlistEditor), checked by Write's EditCheck. May call Write, Run (FileError), Support.
import Foundation
import Migrations
import PlistDOM
import FileAccess

/// Runs PlistBuddy commands on one file's bytes, losslessly: every byte the commands do not
/// change stays, new entries copy their neighbours' layout, and the output passes the same
/// independent check as a migration before anyone may write it.
public enum PlistEditor {
    public struct Outcome: Sendable {
        /// The file after every command.
        public var output: [UInt8]
        /// What each `Print` printed, in order.
        public var printed: [String]
        public var editCount: Int
    }

    /// The pass the commands run as: it may edit anything, and records every edit for the check.
    struct ScriptedEdits: Migration {
        let id = "EDIT", version = 0, name = "edit", title = "plist-migrate edit", rationale = "the commands given"
        let impact = Impact.spelling
        let intent = PolicyIntent.anyChange
        var rootKeys: [String]? { nil }
        func apply(to session: MigrationSession) {}
    }

    /// Applies `commands` in order. The first that cannot run stops everything, with where in
    /// the file it failed.
    public static func run(_ commands: [BuddyCommand], on bytes: [UInt8]) throws(FileError) -> Outcome {
        let document: PlistDocument
        do {
            document = try PlistDocument(parsing: bytes)
        } catch {
            throw FileError(error.message, at: error.location)
        }
        let original = document.copy()
        let session = MigrationSession(document: document, migration: ScriptedEdits())
        var printed: [String] = []
        var vacated = VacatedPlaces()
        for command in commands {
            switch command {
            case .print(let entry):
                printed.append(describe(try element(at: entry, in: session, command: "Print"), indent: ""))
            case .set(let entry, let text):
                try set(entry, text, session)
            case .add(let entry, let type, let text):
                try add(entry, type, text, session, &vacated)
            case .delete(let entry):
                try delete(entry, session, &vacated)
            }
        }
        let output = document.bytes
        if output != bytes,
            let failure = EditCheck.failure(original: bytes, originalDocument: original, output: output, edits: session.plannedEdits)
        {
            throw FileError("internal error (a bug in plist-migrate, please report it): \(failure); file left untouched")
        }
        return Outcome(output: output, printed: printed, editCount: session.editCount)
    }

    // MARK: - Commands

    private static func set(_ entry: BuddyEntry, _ text: String, _ session: MigrationSession) throws(FileError) {
        let target = try element(at: entry, in: session, command: "Set")
        guard let kind = target.kind, kind != .dict, kind != .array else {
            throw FileError("Set \(entry): cannot set \(Self.a(target.name)); Delete it and Add it again", at: target.location)
        }
        let type: BuddyType = switch kind {
        case .integer: .integer
        case .real: .real
        case .true, .false: .bool
        case .date: .date
        case .data: .data
        default: .string
        }
        let value = try newValue(type, text, entry: entry, command: "Set", at: target.location)
        guard PlistValue(target) != value.plistValue else { return }
        session.replace(target, with: value)
    }

    /// Where keys that `Delete` removed from a dict stood: the entry each followed (`nil` when it
    /// was first). PlistBuddy changes a value's type by `Delete` and `Add` of the same key; the
    /// key then takes back its place, as people change a type in place.
    struct VacatedPlaces {
        private var places: [PlistElement: [String: DictEntry?]] = [:]

        mutating func note(_ name: String, followed previous: DictEntry?, in dict: PlistElement) {
            if places[dict]?[name] == nil { places[dict, default: [:]][name] = .some(previous) }
        }

        /// The entry `name` followed before it was deleted from `dict`, if it is still there
        /// (`.some(nil)`: it was first); `nil` when `name` was not deleted from `dict`.
        mutating func take(_ name: String, in dict: PlistElement, of document: PlistDocument) -> DictEntry?? {
            guard let place = places[dict]?.removeValue(forKey: name) else { return nil }
            guard let previous = place else { return .some(nil) }
            return document.parent(of: previous.value) == dict ? .some(previous) : nil
        }
    }

    private static func add(_ entry: BuddyEntry, _ type: BuddyType, _ text: String?, _ session: MigrationSession,
                            _ vacated: inout VacatedPlaces) throws(FileError) {
        guard !entry.components.isEmpty || entry.appends else {
            throw FileError("Add \(entry): the root already exists")
        }
        let parentEntry = BuddyEntry(components: entry.appends ? entry.components : Array(entry.components.dropLast()))
        let parent = try element(at: parentEntry, in: session, command: "Add")
        let value = try newValue(type, text, entry: entry, command: "Add", at: parent.location)
        switch parent.kind {
        case .dict?:
            guard !entry.appends, let key = entry.components.last else {
                throw FileError("Add \(entry): \(parentEntry) is a dict; name the key to add", at: parent.location)
            }
            if let existing = session.entries(named: key, in: parent).last {
                throw FileError("Add \(entry): the entry already exists", at: existing.key.location)
            }
            if let place = vacated.take(key, in: parent, of: session.document) {
                session.insert(key: key, value: value, into: parent, exactlyAfter: place)
            } else {
                session.insert(key: key, value: value, into: parent, after: parent.lastEntry)
            }
        case .array?:
            let items = parent.children
            let position = entry.appends ? items.count : Int(entry.components.last ?? "")
            guard let position, (0...items.count).contains(position) else {
                throw FileError("Add \(entry): \(parentEntry) is an array of \(items.count) items; give a position from 0 to \(items.count), or end with :",
                                at: parent.location)
            }
            session.insert(item: value, into: parent, after: position == 0 ? nil : items[position - 1])
        default:
            throw FileError("Add \(entry): \(parentEntry) is \(Self.a(parent.name)), not a dict or array", at: parent.location)
        }
    }

    private static func delete(_ entry: BuddyEntry, _ session: MigrationSession, _ vacated: inout VacatedPlaces) throws(FileError) {
        let target = try element(at: entry, in: session, command: "Delete")
        guard let parent = session.document.parent(of: target), parent.kind != nil else {
            throw FileError("Delete \(entry): the root value cannot be deleted", at: target.location)
        }
        if parent.kind == .array {
            session.remove(item: target, from: parent)
        } else if let found = parent.entry(withValue: target) {
            // A key written twice goes with every copy, as PlistBuddy leaves the file.
            let copies = session.entries(named: found.name, in: parent)
            if let first = copies.first { vacated.note(found.name, followed: parent.entry(before: first), in: parent) }
            for copy in copies { session.remove(copy, from: parent) }
        }
    }

    // MARK: - Entries and values

    /// The value an entry names; an error at the last element found when it names nothing.
    /// Names are looked up through the session's index of each dict, so thousands of commands
    /// into one dict stay linear; with duplicate keys the last is the one read.
    static func element(at entry: BuddyEntry, in session: MigrationSession, command: String) throws(FileError) -> PlistElement {
        var current = session.document.rootValue
        var walked: [String] = []
        for component in entry.components {
            let here = BuddyEntry(components: walked)
            switch current.kind {
            case .dict?:
                guard let next = session.entries(named: component, in: current).last?.value else {
                    throw FileError("\(command) \(entry): \(component) does not exist in \(here)", at: current.location)
                }
                current = next
            case .array?:
                let items = current.children
                guard let position = Int(component), items.indices.contains(position) else {
                    throw FileError("\(command) \(entry): \(here) is an array of \(items.count) items, with no item \(component)", at: current.location)
                }
                current = items[position]
            default:
                throw FileError("\(command) \(entry): \(here) is \(Self.a(current.name)), not a dict or array", at: current.location)
            }
            walked.append(component)
        }
        if entry.appends { throw FileError("\(command) \(entry): a trailing : names no entry (only Add takes it)", at: current.location) }
        return current
    }

    static func newValue(_ type: BuddyType, _ text: String?, entry: BuddyEntry, command: String, at location: SourceLocation?) throws(FileError) -> NewValue {
        func fail(_ what: String) -> FileError { FileError("\(command) \(entry): \"\(text ?? "")\" is not \(what)", at: location) }
        let text = text ?? ""
        switch type {
        case .string: return .string(text)
        case .array: return .emptyArray
        case .dict: return .emptyDict
        case .integer:
            guard let number = Int(text.isEmpty ? "0" : text) else { throw fail("an integer") }
            return .integer(number)
        case .real:
            guard let number = Double(text.isEmpty ? "0" : text), number.isFinite else { throw fail("a real") }
            return .real(number)
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0", "": return .bool(false)
            default: throw fail("true or false")
            }
        case .date:
            guard PlistDate.isValid(text) else {
                throw fail("a date that exists (ISO 8601 UTC, e.g. 2026-01-31T12:00:00Z)")
            }
            return .date(text)
        case .data:
            return .data(Array(text.utf8))
        }
    }

    /// "an array", "a dict".
    static func a(_ name: String) -> String {
        (name.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + name
    }

    /// PlistBuddy's way of printing a value: containers as `Dict {` … `}` and `Array {` … `}`
    /// with four spaces per level, everything else as its text.
    static func describe(_ element: PlistElement, indent: String) -> String {
        let inner = indent + "    "
        switch element.kind {
        case .dict?:
            let lines = element.entries.map { inner + $0.name + " = " + describe($0.value, indent: inner) }
            return (["Dict {"] + lines + [indent + "}"]).joined(separator: "\n")
        case .array?:
            let lines = element.children.map { inner + describe($0, indent: inner) }
            return (["Array {"] + lines + [indent + "}"]).joined(separator: "\n")
        case .true?: return "true"
        case .false?: return "false"
        case .data?:
            if case .data(let bytes) = PlistValue(element) { return String(decoding: bytes, as: UTF8.self) }
            return ""
        default:
            return element.text.trimmingCharacters(in: element.kind == .string ? [] : [" ", "\t", "\n", "\r"])
        }
    }
}

extension BuddyEntry {
    init(components: [String]) {
        self.components = components
        appends = false
    }
}
