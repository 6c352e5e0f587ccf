import Foundation
import Testing
import Migrations
import PlistDOM
@testable import PlistMigrate

/// Scripted edits and the shipped recipes over the whole shared corpus, against an independent
/// reference (Tests/oracle/edit_oracle.py applies the same changes with Python's plistlib):
/// the values agree, every byte outside the edited spans is the input's, and a second run of
/// the recipes changes nothing.
@Suite struct CorpusEditTests {
    static func corpusFiles() -> [URL] {
        OracleTests.allPlists().filter { $0.path.hasPrefix(Paths.corpus.path) }
    }

    /// True when `output` is `input` with only the byte ranges `spans` of the input replaced
    /// (an empty span is an insertion point): the bytes between the spans appear in order.
    static func onlySpansChanged(_ input: [UInt8], _ output: [UInt8], _ spans: [Range<Int>]) -> Bool {
        var gaps: [ArraySlice<UInt8>] = []
        var cursor = 0
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            guard span.lowerBound >= cursor else { return false }
            gaps.append(input[cursor..<span.lowerBound])
            cursor = span.upperBound
        }
        gaps.append(input[cursor...])
        guard let first = gaps.first, let last = gaps.last, output.starts(with: first), output.count >= first.count + last.count,
            output.suffix(last.count).elementsEqual(last)
        else { return false }
        var position = first.count
        let end = output.count - last.count
        for gap in gaps.dropFirst().dropLast() where !gap.isEmpty {
            guard let found = output[position..<end].firstRange(of: gap) else { return false }
            position = found.upperBound
        }
        return true
    }

    static func runOracle(_ jobs: [[String: Any]], in directory: URL) throws -> (compared: Int, mismatches: Int, text: String) {
        let jobsURL = directory.appendingPathComponent("jobs.json")
        try JSONSerialization.data(withJSONObject: jobs).write(to: jobsURL)
        let oracle = Paths.repository.appendingPathComponent("Tests/oracle/edit_oracle.py")
        let result = try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", oracle.path, jobsURL.path], in: directory)
        let summary = result.text.split(separator: "\n").first ?? ""
        let numbers = summary.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }
        guard numbers.count == 3 else { return (0, -1, result.text + result.stderr) }
        return (numbers[0], numbers[2], result.text)
    }

    @Test func plistBuddyCommandsAgreeWithPlistlibAndTouchOnlyTheirSpans() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var jobs: [[String: Any]] = []
        var spanFailures: [String] = []
        for (index, url) in Self.corpusFiles().enumerated() {
            let bytes = Array(try Data(contentsOf: url))
            guard let document = try? PlistDocument(parsing: bytes), document.rootValue.kind == .dict else { continue }
            let root = document.rootValue
            // Keys PlistBuddy's syntax can name plainly: no colon, quote or backslash.
            let plainKeys = root.entries.filter { entry in !entry.name.isEmpty && !entry.name.contains(where: { ":'\"\\\\".contains($0) }) }
            // Added at the end of the root dict (past a comment sharing the last value's line),
            // or into the empty root dict.
            let insertion = Self.insertionSpan(document, key: "PlistMigrateTest")
            var commands = [
                "Add :PlistMigrateTest dict", "Add :PlistMigrateTest:Flag bool true", "Add :PlistMigrateTest:List array",
                "Add :PlistMigrateTest:List: string 'a & <b>'", "Add :PlistMigrateTest:List:0 integer 7",
                "Add :PlistMigrateTest:When date 2026-01-31T12:00:00Z", "Add :PlistMigrateTest:Ratio real 0.5",
            ]
            var spans: [Range<Int>] = [insertion]
            if let version = root.entry("CFBundleVersion"), version.value.kind == .string {
                commands.append("Set :CFBundleVersion 42")
                spans.append(document.byteRange(of: version.value)!)
            }
            let arrayEntry = plainKeys.first { $0.value.kind == .array && !$0.value.children.isEmpty }
            if let arrayEntry, let first = arrayEntry.value.children.first {
                commands.append("Delete ':\(arrayEntry.name):0'")
                // Its only item gone, the array is written `<array/>` as Xcode writes it.
                spans.append(arrayEntry.value.children.count == 1 ? document.byteRange(of: arrayEntry.value)! : Self.leadingWhitespace(document, first))
            }
            if let doomed = plainKeys.first(where: { $0.value.kind == .string && $0.name != "CFBundleVersion" && $0.key != arrayEntry?.key }),
                root.entries.filter({ $0.name == doomed.name }).count == 1
            {
                commands.append("Delete ':\(doomed.name)'")
                let keySpan = Self.leadingWhitespace(document, doomed.key)
                spans.append(keySpan.lowerBound..<document.byteRange(of: doomed.value)!.upperBound)
            }
            let parsed = try commands.map { try BuddyCommand(parsing: $0) }
            let outcome: PlistEditor.Outcome
            do {
                outcome = try PlistEditor.run(parsed, on: bytes)
            } catch {
                Issue.record("\(url.lastPathComponent): \(error.message)")
                continue
            }
            if !Self.onlySpansChanged(bytes, outcome.output, Self.merged(spans)) { spanFailures.append(url.path) }
            let input = directory.appendingPathComponent("\(index).in.plist"), output = directory.appendingPathComponent("\(index).out.plist")
            try Data(bytes).write(to: input)
            try Data(outcome.output).write(to: output)
            jobs.append(["input": input.path, "output": output.path, "commands": commands])
        }
        #expect(spanFailures.isEmpty, "bytes outside the edits changed: \(spanFailures.prefix(5))")
        let oracle = try Self.runOracle(jobs, in: directory)
        #expect(oracle.mismatches == 0, "\(oracle.text)")
        #expect(oracle.compared > 1800, "\(oracle.text)")
    }

    @Test func theShippedRecipesAgreeWithPlistlibTouchOnlyTheirKeysAndSettle() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try MigrationPlan(skip: MigrationRegistry.all.map(\.id), recipes: PassDiffTests.shippedRecipes)
        #expect(plan.selected.map(\.id) == ["CAP001", "ENC001", "PRV001"])
        let migrator = FileMigrator(plan: plan)
        var jobs: [[String: Any]] = []
        var problems: [String] = []
        var changed = 0
        for (index, url) in Self.corpusFiles().enumerated() {
            let bytes = Array(try Data(contentsOf: url))
            let first = migrator.migrate(bytes, path: url.lastPathComponent, skipIfNotApplicable: true)
            guard first.status == .changed || first.status == .unchanged else { continue }
            if first.status == .changed {
                changed += 1
                let second = migrator.migrate(first.output, path: url.lastPathComponent, skipIfNotApplicable: true)
                if second.status != .unchanged { problems.append("second run: \(url.path)") }
                // The recipes' keys, as spans of the input; ENC001 inserts at the end of the root.
                let document = try PlistDocument(parsing: bytes)
                let root = document.rootValue
                // A renamed key moves to its sorted place in a sorted dict.
                let renames = ["NSBluetoothPeripheralUsageDescription": "NSBluetoothAlwaysUsageDescription",
                               "NSLocationAlwaysUsageDescription": "NSLocationAlwaysAndWhenInUseUsageDescription"]
                let moving = root.entries.map(\.name).filter { renames[$0] != nil }
                var spans: [Range<Int>] = [Self.insertionSpan(document, key: "ITSAppUsesNonExemptEncryption", renamed: renames)]
                for old in moving { spans.append(Self.insertionSpan(document, key: renames[old]!, moving: moving)) }
                for entry in root.entries where ["NSBluetoothPeripheralUsageDescription", "NSLocationAlwaysUsageDescription",
                                                 "UIRequiredDeviceCapabilities"].contains(entry.name) {
                    spans.append(Self.leadingWhitespace(document, entry.key).lowerBound..<document.byteRange(of: entry.value)!.upperBound)
                }
                if !Self.onlySpansChanged(bytes, first.output, Self.merged(spans)) { problems.append("bytes outside: \(url.path)") }
            }
            let input = directory.appendingPathComponent("\(index).in.plist"), output = directory.appendingPathComponent("\(index).out.plist")
            try Data(bytes).write(to: input)
            try Data(first.output).write(to: output)
            jobs.append(["input": input.path, "output": output.path, "recipes": ["PRV001", "CAP001", "ENC001"]])
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        #expect(changed > 1000, "ENC001 alone changes most of the corpus")
        let oracle = try Self.runOracle(jobs, in: directory)
        #expect(oracle.mismatches == 0, "\(oracle.text)")
        #expect(oracle.compared > 1800, "\(oracle.text)")
    }

    /// Where an entry `key` added to the root dict goes: in a sorted dict (leaving out the
    /// entries `moving` away), after the entry it sorts after, or before the first; else at the
    /// end. After a value means after any comment on its line; for an empty root dict, the whole
    /// dict (it is rewritten).
    /// Where `key` goes in the root dict: its sorted place in a sorted dict; in a nearly sorted
    /// one (one pair in twenty or fewer out of order), after the first key that sorts at or
    /// before it and is followed by one after it; else at the end. `renamed` gives the names
    /// keys renamed in place have when the key goes in.
    static func insertionSpan(_ document: PlistDocument, key: String, moving: [String] = [],
                              renamed: [String: String] = [:]) -> Range<Int> {
        let root = document.rootValue
        let others = root.entries.filter { !moving.contains($0.name) }
        guard let lastEntry = others.last else { return document.byteRange(of: root)! }
        var after: DictEntry? = lastEntry
        if others.count == root.entries.count ? document.keysAreSorted(root) : isSorted(others.map(\.name)) {
            after = others.last { !PlistDocument.keyPrecedes(key, $0.name) }
            if after == nil {
                let start = document.byteRange(of: others[0].key)!.lowerBound
                return start..<start
            }
        } else {
            let names = root.entries.map { renamed[$0.name] ?? $0.name }
            let inversions = zip(names, names.dropFirst()).filter { PlistDocument.keyPrecedes($1, $0) }.count
            if inversions * 20 <= names.count - 1,
                let slot = names.indices.dropLast().first(where: {
                    !PlistDocument.keyPrecedes(key, names[$0]) && PlistDocument.keyPrecedes(key, names[$0 + 1])
                })
            {
                after = root.entries[slot]
            }
        }
        guard let last = after, let end = document.byteRange(of: last.value)?.upperBound else {
            return document.byteRange(of: root)!
        }
        let bytes = document.bytes
        var position = end
        while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
        let rest = bytes[end..<position]
        let onlySpace = rest.allSatisfy { $0 == 0x20 || $0 == 0x09 }
        return onlySpace ? end..<end : end..<position
    }

    static func isSorted(_ names: [String]) -> Bool {
        zip(names, names.dropFirst()).allSatisfy { !PlistDocument.keyPrecedes($1, $0) }
    }

    /// `element`'s range widened to the whitespace before it (what a removal takes with it).
    static func leadingWhitespace(_ document: PlistDocument, _ element: PlistElement) -> Range<Int> {
        let range = document.byteRange(of: element)!
        let bytes = document.bytes
        var start = range.lowerBound
        while start > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start - 1]) { start -= 1 }
        return start..<range.upperBound
    }

    /// Overlapping or touching spans joined into one.
    static func merged(_ spans: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, span.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                result.append(span)
            }
        }
        return result
    }
}
