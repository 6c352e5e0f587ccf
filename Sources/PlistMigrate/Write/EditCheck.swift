import Migrations
import PlistDOM

/// The check every output passes before it may be written, independent of the code that
/// edits: it knows only the original bytes, the output bytes and the recorded meaning of the
/// edits (`PlannedEdit`).
///
/// The values the edits changed are the smallest set of containers holding every edit (a dict
/// whose entry was renamed, inserted, removed or replaced; an array whose item was). No edit
/// names a key on the path to one of them, so each sits at the same path before and after, and
/// so does the deepest value holding them all (the "shared" value).
/// 1. Every byte outside the shared value is the original's, which locates it in the output.
/// 2. Before a write (`wholeOutput`): the whole output is well-formed XML (libxml2 re-reads
///    every byte).
/// 3. The new shared value, parsed again on its own at the depth it has in the file (inside as
///    many `<array>`s as it has steps, so libxml2's depth limit counts as in the file), is
///    exactly one plist value; inside it, every byte outside the edited values is the original's.
/// 4. Each edited value, as that parse reads it, equals the original value with exactly the
///    recorded edits applied (`ExpectedValues`: what no edit reached is compared by its bytes).
/// The original was a valid plist and only whole values were swapped for valid values, so the
/// output is a valid plist too. Steps 1 and 3 already imply step 2: every byte that is not the
/// original's was read again by libxml2 as one element at its depth, between bytes the original
/// parse read as the end of one markup and the start of the next. A dry run relies on that
/// (step 2 costs a whole parse per changed file); a write runs step 2 as well.
enum EditCheck {
    static func failure(
        original: [UInt8], originalDocument: PlistDocument?, output: [UInt8], edits: [PlannedEdit], wholeOutput: Bool = true
    ) -> String? {
        guard let document = originalDocument ?? (try? PlistDocument(parsing: original)) else { return "the original does not parse" }
        let paths = regions(of: edits)
        guard !paths.isEmpty else { return output == original ? nil : "bytes changed where no edit was recorded" }
        var before: [(path: [PathStep], range: Range<Int>, element: PlistElement)] = []
        // Found together: many edited domains of one large dict cost its size once.
        let originals = document.elements(at: paths)
        for (path, element) in zip(paths, originals) {
            guard let element, let range = document.byteRange(of: element) else {
                return "an edited value (\(path.spelled)) is not in the original"
            }
            before.append((path, range, element))
        }
        before.sort { $0.range.lowerBound < $1.range.lowerBound }
        var names: String { before.count == 1 ? before[0].path.spelled : "\(before.count) values" }
        var outside: String { "bytes outside the edited values (\(names)) changed" }

        // 1. The shared value's place.
        let shared = commonPrefix(before.map(\.path))
        guard let outer = document.element(at: shared), let outerRange = document.byteRange(of: outer) else {
            return "an edited value (\(shared.spelled)) is not in the original"
        }
        let suffixCount = original.count - outerRange.upperBound
        guard output.count >= outerRange.lowerBound + suffixCount,
            original[..<outerRange.lowerBound].bytesEqual(output[..<outerRange.lowerBound]),
            original[outerRange.upperBound...].bytesEqual(output[(output.count - suffixCount)...])
        else { return outside }
        // 2. The whole file.
        if wholeOutput {
            do {
                try PlistDocument.checkWellFormed(output)
            } catch {
                return "the rewritten file does not parse (\(error))"
            }
        }
        // 3. The shared value on its own, at its depth, and the bytes between the edited values inside it.
        let open = Array("<plist>".utf8) + Array(repeating: Array("<array>".utf8), count: shared.count).joined()
        let close = Array(repeating: Array("</array>".utf8), count: shared.count).joined() + Array("</plist>".utf8)
        let newOuter = output[outerRange.lowerBound..<(output.count - suffixCount)]
        let wrapped = open + newOuter + close
        var valueName: String { before.count == 1 ? names : shared.spelled }
        let fragment: PlistDocument
        do {
            fragment = try PlistDocument(parsing: wrapped)
        } catch {
            return "the rewritten value \(valueName) does not parse (\(error))"
        }
        // The wrapping arrays: the value is the only item of the innermost.
        let depth = Array(repeating: PathStep.index(0), count: shared.count)
        guard shared.isEmpty || fragment.element(at: Array(depth.dropLast()))?.children.count == 1 else {
            return "the rewritten value \(valueName) does not parse (it is not exactly one value)"
        }
        guard let newShared = fragment.element(at: depth),
            fragment.byteRange(of: newShared) == open.count..<(open.count + newOuter.count)
        else { return outside }
        var after: [PlistElement] = []
        var cursor = (old: outerRange.lowerBound, new: open.count)
        let rewritten = fragment.elements(at: before.map { depth + $0.path.dropFirst(shared.count) })
        for ((_, range, _), found) in zip(before, rewritten) {
            guard let element = found, let now = fragment.byteRange(of: element),
                range.lowerBound >= cursor.old, now.lowerBound >= cursor.new,
                original[cursor.old..<range.lowerBound].bytesEqual(wrapped[cursor.new..<now.lowerBound])
            else { return outside }
            after.append(element)
            cursor = (range.upperBound, now.upperBound)
        }
        guard original[cursor.old..<outerRange.upperBound].bytesEqual(wrapped[cursor.new..<(open.count + newOuter.count)]) else { return outside }
        // 4. The values, each edited value on its own: a pass editing 800 of 20,000 domains
        // opens those 800, not the dict of all of them.
        guard let editsByValue = group(edits, by: before.map(\.path)) else {
            return "an edit lies outside the edited values (\(names))"
        }
        for (((path, _, element), edits), now) in zip(zip(before, editsByValue), after)
        where !ExpectedValues(element, depth: path.count, applying: edits).isHeld(by: now) {
            return "the rewritten values differ from the planned edits"
        }
        return nil
    }

    /// The containers of the edits, without repeats and without those inside another.
    static func regions(of edits: [PlannedEdit]) -> [[PathStep]] {
        // Edits come in runs on one container: each run counts once.
        var containers: [[PathStep]] = []
        for edit in edits {
            let container = edit.container
            if container != containers.last { containers.append(container) }
        }
        guard containers.count > 1 else { return containers }
        // Shorter first, so a container comes after any that holds it.
        containers.sort { $0.count < $1.count }
        var kept = PathPrefixes()
        for path in containers where kept.holder(of: path) == nil { kept.insert(path) }
        return kept.paths
    }

    /// `edits`, in order, split by the value of `regions` (none inside another) that holds
    /// each one's container; `nil` when one lies in none of them. One region is taken to hold
    /// them all unlooked-at: `regions(of:)` makes one only where it does.
    static func group(_ edits: [PlannedEdit], by regions: [[PathStep]]) -> [[PlannedEdit]]? {
        // One (most files): it holds every edit, as `regions(of:)` made it.
        if regions.count == 1 { return [edits] }
        var groups = Array(repeating: [PlannedEdit](), count: regions.count)
        var index = PathPrefixes()
        for region in regions { index.insert(region) }
        // Runs of edits in one region ask once.
        var last: Int?
        for edit in edits {
            let container = edit.container
            if let last, container.starts(with: regions[last]) {
                groups[last].append(edit)
                continue
            }
            guard let found = index.holder(of: container) else { return nil }
            groups[found].append(edit)
            last = found
        }
        return groups
    }

    /// Paths none of which lies inside another (so each is inserted once), and which of them
    /// holds a given path (is it or leads to it): few are compared one by one; many (one per
    /// edited domain) are looked up by the path's prefixes of the lengths they have.
    struct PathPrefixes {
        private(set) var paths: [[PathStep]] = []
        private var places: [[PathStep]: Int] = [:]
        private var lengths: Set<Int> = []

        mutating func insert(_ path: [PathStep]) {
            places[path] = paths.count
            lengths.insert(path.count)
            paths.append(path)
        }

        /// The place in `paths` of the one that holds `path`.
        func holder(of path: [PathStep]) -> Int? {
            guard paths.count > 8 else { return paths.firstIndex { path.starts(with: $0) } }
            for length in lengths where length <= path.count {
                if let place = places[length == path.count ? path : Array(path[..<length])] { return place }
            }
            return nil
        }
    }

    static func commonPrefix(_ paths: [[PathStep]]) -> [PathStep] {
        var shared = paths[0]
        for path in paths.dropFirst() {
            shared = Array(zip(shared, path).prefix { $0 == $1 }.map(\.0))
        }
        return shared
    }
}
