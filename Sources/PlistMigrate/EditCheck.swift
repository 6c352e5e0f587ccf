import Migrations
import PlistDOM

/// The check every output passes before it may be written, independent of the code that
/// edits: it knows only the original bytes, the output bytes and the recorded meaning of the
/// edits (`PlannedEdit`).
///
/// The values the edits changed are the smallest set of containers holding every edit (a dict
/// whose entry was renamed, inserted, removed or replaced; an array whose item was). No edit
/// names a key on the path to one of them, so each sits at the same path before and after.
/// 1. Every byte outside those values is the original's.
/// 2. The whole output is well-formed XML (libxml2 re-reads every byte).
/// 3. Each new value, parsed again on its own, is exactly one plist value, and equals the
///    original value with exactly the recorded edits applied.
/// The original was a valid plist and only whole values were swapped for valid values, so the
/// output is a valid plist too.
enum EditCheck {
    static func failure(original: [UInt8], originalDocument: PlistDocument?, output: [UInt8], edits: [PlannedEdit]) -> String? {
        guard let document = originalDocument ?? (try? PlistDocument(parsing: original)) else { return "the original does not parse" }
        let paths = regions(of: edits)
        guard !paths.isEmpty else { return output == original ? nil : "bytes changed where no edit was recorded" }
        var before: [(path: [PathStep], range: Range<Int>)] = []
        for path in paths {
            guard let element = document.element(at: path), let range = document.byteRange(of: element) else {
                return "an edited value (\(path.spelled)) is not in the original"
            }
            before.append((path, range))
        }
        before.sort { $0.range.lowerBound < $1.range.lowerBound }
        let names = before.count == 1 ? before[0].path.spelled : "\(before.count) values"
        let outside = "bytes outside the edited values (\(names)) changed"
        guard let after = locate(before, original: original, output: output) else { return outside }
        if case .failure(let message) = after { return message }
        guard case .success(let ranges) = after else { return outside }
        var expected: PlistValue?
        for ((path, _), range) in zip(before, ranges) {
            let open = Array("<plist>".utf8)
            let newValue = output[range]
            let fragment: PlistDocument
            do {
                fragment = try PlistDocument(parsing: open + newValue + Array("</plist>".utf8))
            } catch {
                return "the rewritten value \(path.spelled) does not parse (\(error))"
            }
            // Exactly one element, nothing around it: the bytes between the fixed parts are the value.
            guard fragment.byteRange(of: fragment.rootValue) == open.count..<(open.count + newValue.count) else { return outside }
            if expected == nil { expected = PlannedEdit.apply(edits, to: spine(of: document, holding: before.map(\.path))) }
            guard expected?.value(at: path) == fragment.value else { return "the rewritten values differ from the planned edits" }
        }
        return nil
    }

    /// The containers of the edits, without those inside another.
    static func regions(of edits: [PlannedEdit]) -> [[PathStep]] {
        let containers = Set(edits.map(\.container)).sorted { $0.count < $1.count }
        var kept: Set<[PathStep]> = []
        for path in containers where !(0..<path.count).contains(where: { kept.contains(Array(path[..<$0])) }) {
            kept.insert(path)
        }
        return Array(kept)
    }

    enum Located { case success([Range<Int>]), failure(String) }

    /// Where each value of `before` sits in `output`, when every byte between them is the
    /// original's; `nil` when not.
    private static func locate(_ before: [(path: [PathStep], range: Range<Int>)], original: [UInt8], output: [UInt8]) -> Located? {
        if before.count == 1 {
            let range = before[0].range
            let suffixCount = original.count - range.upperBound
            guard output.count >= range.lowerBound + suffixCount,
                original[..<range.lowerBound] == output[..<range.lowerBound],
                original[range.upperBound...] == output[(output.count - suffixCount)...]
            else { return nil }
            do {
                try PlistDocument.checkWellFormed(output)
            } catch {
                return .failure("the rewritten file does not parse (\(error))")
            }
            return .success([range.lowerBound..<(output.count - suffixCount)])
        }
        // Several values: the output's own parse says where each one is now.
        let parsed: PlistDocument
        do {
            parsed = try PlistDocument(parsing: output)
        } catch {
            return .failure("the rewritten file does not parse (\(error))")
        }
        var ranges: [Range<Int>] = []
        var cursor = (original: 0, output: 0)
        for (path, range) in before {
            guard let element = parsed.element(at: path), let now = parsed.byteRange(of: element),
                range.lowerBound >= cursor.original, now.lowerBound >= cursor.output,
                original[cursor.original..<range.lowerBound] == output[cursor.output..<now.lowerBound]
            else { return nil }
            ranges.append(now)
            cursor = (range.upperBound, now.upperBound)
        }
        guard original[cursor.original...] == output[cursor.output...] else { return nil }
        return .success(ranges)
    }

    /// The original values the edits need: the dicts down to the deepest path every region
    /// shares, holding only that path, or the whole document when an array lies on it.
    private static func spine(of document: PlistDocument, holding paths: [[PathStep]]) -> PlistValue {
        var shared = paths[0]
        for path in paths.dropFirst() {
            shared = Array(zip(shared, path).prefix { $0 == $1 }.map(\.0))
        }
        guard shared.allSatisfy({ $0.key != nil }), let element = document.element(at: shared) else { return document.value }
        return shared.reversed().reduce(PlistValue(element)) { inner, step in .dict([step.key!: inner]) }
    }
}

extension PlistValue {
    /// The value at `path`; `nil` when a step is missing.
    func value(at path: [PathStep]) -> PlistValue? {
        var current = self
        for step in path {
            switch (step, current) {
            case (.key(let key), .dict(let entries)):
                guard let next = entries[key] else { return nil }
                current = next
            case (.index(let index), .array(let items)):
                guard items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }
}
