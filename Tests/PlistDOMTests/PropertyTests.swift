import Testing
@testable import PlistDOM

/// Random plist trees in random layouts: printing is parsing's exact inverse, and random edits
/// produce exactly the intended value tree.
@Suite struct PropertyTests {
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    indirect enum Model {
        case dict([(String, Model)])
        case array([Model])
        case string(String)
        case integer(Int)
        case bool(Bool)

        var value: PlistValue {
            switch self {
            case .dict(let entries): .dict(Dictionary(entries.map { ($0.0, $0.1.value) }, uniquingKeysWith: { a, _ in a }))
            case .array(let items): .array(items.map(\.value))
            case .string(let s): .string(s)
            case .integer(let i): .integer(Int128(i))
            case .bool(let b): .bool(b)
            }
        }
    }

    struct Layout {
        var indent: String
        var eol: String
        var sameLine: Bool
        var comments: Bool
    }

    static let texts = ["plain", "a & b", "<tag>", "quote \" and '", "Grüße 🚀", "", "  spaced  "]

    static func randomModel(_ rng: inout SplitMix64, depth: Int, counter: inout Int) -> Model {
        let choice = depth > 3 ? Int.random(in: 2...4, using: &rng) : Int.random(in: 0...4, using: &rng)
        switch choice {
        case 0:
            let count = Int.random(in: 0...4, using: &rng)
            return .dict((0..<count).map { _ in
                counter += 1
                return ("k\(counter)", randomModel(&rng, depth: depth + 1, counter: &counter))
            })
        case 1:
            return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in
                randomModel(&rng, depth: depth + 1, counter: &counter)
            })
        case 2: return .string(texts.randomElement(using: &rng)!)
        case 3: return .integer(Int.random(in: -1000...1000, using: &rng))
        default: return .bool(Bool.random(using: &rng))
        }
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    static func print(_ model: Model, _ layout: Layout, level: Int, into out: inout String) {
        let pad = String(repeating: layout.indent, count: level)
        switch model {
        case .dict(let entries) where entries.isEmpty: out += "<dict/>"
        case .dict(let entries):
            out += "<dict>"
            for (key, value) in entries {
                out += layout.eol + pad + layout.indent
                if layout.comments { out += "<!-- \(key) -->" + layout.eol + pad + layout.indent }
                out += "<key>\(escape(key))</key>"
                out += layout.sameLine ? " " : layout.eol + pad + layout.indent
                print(value, layout, level: level + 1, into: &out)
            }
            out += layout.eol + pad + "</dict>"
        case .array(let items):
            out += "<array>"
            for item in items {
                out += layout.eol + pad + layout.indent
                print(item, layout, level: level + 1, into: &out)
            }
            out += layout.eol + pad + "</array>"
        case .string(let s): out += "<string>\(escape(s))</string>"
        case .integer(let i): out += "<integer>\(i)</integer>"
        case .bool(let b): out += b ? "<true/>" : "<false/>"
        }
    }

    static func document(_ model: Model, _ layout: Layout) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + layout.eol + "<plist version=\"1.0\">" + layout.eol
        print(model, layout, level: 0, into: &out)
        return out + layout.eol + "</plist>" + layout.eol
    }

    /// Applies `change` to the dict at `path` in the model.
    static func update(_ model: Model, at path: [String], _ change: (inout [(String, Model)]) -> Void) -> Model {
        guard case .dict(var entries) = model else { return model }
        if let first = path.first, let index = entries.firstIndex(where: { $0.0 == first }) {
            entries[index].1 = update(entries[index].1, at: Array(path.dropFirst()), change)
        } else if path.isEmpty {
            change(&entries)
        }
        return .dict(entries)
    }

    /// Every dict reachable through dicts only, with its key path.
    static func dicts(_ element: PlistElement, path: [String] = []) -> [([String], PlistElement)] {
        guard element.name == "dict" else { return [] }
        return [(path, element)] + element.entries.flatMap { dicts($0.value, path: path + [$0.name]) }
    }

    @Test(arguments: 0..<1000)
    func printParsePrintAndRandomEdits(seed: Int) throws {
        var rng = SplitMix64(state: UInt64(seed) &* 7919)
        var counter = 0
        var model = Model.dict((0..<Int.random(in: 1...5, using: &rng)).map { _ in
            counter += 1
            return ("k\(counter)", Self.randomModel(&rng, depth: 1, counter: &counter))
        })
        let layout = Layout(
            indent: ["\t", "  ", "    "].randomElement(using: &rng)!,
            eol: ["\n", "\r\n"].randomElement(using: &rng)!,
            sameLine: Int.random(in: 0..<4, using: &rng) == 0,
            comments: Bool.random(using: &rng))
        let text = Self.document(model, layout)
        let document = try PlistDocument(parsing: text)
        #expect(document.bytes == Array(text.utf8))
        #expect(document.value == model.value)

        for _ in 0..<Int.random(in: 1...10, using: &rng) {
            let (path, dict) = Self.dicts(document.rootValue).randomElement(using: &rng)!
            let entries = dict.entries
            counter += 1
            let fresh = "new\(counter)"
            switch (Int.random(in: 0..<4, using: &rng), entries.randomElement(using: &rng)) {
            case (0, let entry?):
                let old = entry.name
                document.rename(entry.key, to: fresh)
                model = Self.update(model, at: path) { $0[$0.firstIndex { $0.0 == old }!].0 = fresh }
            case (1, let entry?):
                try document.remove(entry, from: dict)
                model = Self.update(model, at: path) { $0.removeAll { $0.0 == entry.name } }
            case (2, let entry?):
                document.replace(entry.value, with: .bool(true))
                model = Self.update(model, at: path) { $0[$0.firstIndex { $0.0 == entry.name }!].1 = .bool(true) }
            default:
                let after = Bool.random(using: &rng) ? entries.randomElement(using: &rng) : nil
                // Sometimes an empty dict, which a later step may pick and insert into.
                let emptyDict = Int.random(in: 0..<3, using: &rng) == 0
                try document.insert(key: fresh, value: emptyDict ? .emptyDict : .string("v & <\(counter)>"), into: dict, after: after)
                model = Self.update(model, at: path) { $0.append((fresh, emptyDict ? .dict([]) : .string("v & <\(counter)>"))) }
            }
        }
        let reparsed = try PlistDocument(parsing: document.bytes)
        #expect(reparsed.value == model.value)
        #expect(reparsed.bytes == document.bytes)
    }

    /// Every dict and array, anywhere, with its path.
    static func containers(_ element: PlistElement, path: [PathStep] = []) -> [([PathStep], PlistElement)] {
        switch element.kind {
        case .dict?:
            return [(path, element)] + element.entries.flatMap { containers($0.value, path: path + [.key($0.name)]) }
        case .array?:
            return [(path, element)] + element.children.enumerated().flatMap { containers($1, path: path + [.index($0)]) }
        default:
            return []
        }
    }

    static func randomNewValue(_ rng: inout SplitMix64, depth: Int, counter: inout Int) -> NewValue {
        switch Int.random(in: depth > 2 ? 2...7 : 0...7, using: &rng) {
        case 0:
            return .dict((0..<Int.random(in: 0...3, using: &rng)).map { _ in
                counter += 1
                return NewValue.Entry("n\(counter)", randomNewValue(&rng, depth: depth + 1, counter: &counter))
            })
        case 1: return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in randomNewValue(&rng, depth: depth + 1, counter: &counter) })
        case 2: return .string(texts.randomElement(using: &rng)!)
        case 3: return .integer(Int.random(in: -5...5, using: &rng))
        case 4: return .real([0.5, -2.25, 1e20, 3].randomElement(using: &rng)!)
        case 5: return .data((0..<Int.random(in: 0...5, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
        case 6: return .date("2026-11-21T12:00:00Z")
        default: return [.emptyDict, .emptyArray, .bool(false)].randomElement(using: &rng)!
        }
    }

    /// Changes the value at `path` of `value` (the expected tree, kept without the editing code).
    static func mutate(_ value: inout PlistValue, at path: ArraySlice<PathStep>, _ change: (inout PlistValue) -> Void) {
        guard let step = path.first else { return change(&value) }
        switch (step, value) {
        case (.key(let key), .dict(var entries)):
            guard var child = entries[key] else { return }
            mutate(&child, at: path.dropFirst(), change)
            entries[key] = child
            value = .dict(entries)
        case (.index(let index), .array(var items)):
            mutate(&items[index], at: path.dropFirst(), change)
            value = .array(items)
        default:
            return
        }
    }

    /// Array items and nested new values: random edits anywhere in random trees give exactly the
    /// value tree the same changes give on plain values, and the output prints what it parses.
    @Test(arguments: 0..<1000)
    func randomEditsOfArraysAndNestedValues(seed: Int) throws {
        var rng = SplitMix64(state: UInt64(seed) &* 104_729 &+ 1)
        var counter = 0
        let model = Model.dict((0..<Int.random(in: 1...5, using: &rng)).map { _ in
            counter += 1
            return ("k\(counter)", Self.randomModel(&rng, depth: 1, counter: &counter))
        })
        // A third of the trees are written on one line, with nothing between elements.
        let compact = Int.random(in: 0..<3, using: &rng) == 0
        let layout = Layout(
            indent: compact ? "" : ["\t", "  "].randomElement(using: &rng)!, eol: compact ? "" : ["\n", "\r\n"].randomElement(using: &rng)!,
            sameLine: compact || Int.random(in: 0..<4, using: &rng) == 0, comments: Bool.random(using: &rng))
        let document = try PlistDocument(parsing: Self.document(model, layout))
        var expected = document.value
        for _ in 0..<Int.random(in: 1...8, using: &rng) {
            let (path, container) = Self.containers(document.rootValue).randomElement(using: &rng)!
            let new = Self.randomNewValue(&rng, depth: 0, counter: &counter)
            let made = Self.plain(new)
            counter += 1
            if container.kind == .array {
                let items = container.children
                let position = items.isEmpty ? nil : Int.random(in: 0..<items.count, using: &rng)
                switch (Int.random(in: 0..<3, using: &rng), position) {
                case (0, let at?):
                    try document.remove(item: items[at], from: container)
                    Self.mutate(&expected, at: path[...]) { if case .array(var a) = $0 { a.remove(at: at); $0 = .array(a) } }
                case (1, let at?):
                    document.replace(items[at], with: new)
                    Self.mutate(&expected, at: path[...]) { if case .array(var a) = $0 { a[at] = made; $0 = .array(a) } }
                default:
                    let after = position
                    try document.insert(item: new, into: container, after: after.map { items[$0] })
                    Self.mutate(&expected, at: path[...]) { if case .array(var a) = $0 { a.insert(made, at: after.map { $0 + 1 } ?? 0); $0 = .array(a) } }
                }
            } else {
                let entries = container.entries
                switch (Int.random(in: 0..<3, using: &rng), entries.randomElement(using: &rng)) {
                case (0, let entry?):
                    try document.remove(entry, from: container)
                    Self.mutate(&expected, at: path[...]) { if case .dict(var d) = $0 { d[entry.name] = nil; $0 = .dict(d) } }
                case (1, let entry?):
                    document.replace(entry.value, with: new)
                    Self.mutate(&expected, at: path[...]) { if case .dict(var d) = $0 { d[entry.name] = made; $0 = .dict(d) } }
                default:
                    let key = "i\(counter)"
                    try document.insert(key: key, value: new, into: container, after: entries.randomElement(using: &rng))
                    Self.mutate(&expected, at: path[...]) { if case .dict(var d) = $0 { d[key] = made; $0 = .dict(d) } }
                }
            }
        }
        let reparsed = try PlistDocument(parsing: document.bytes)
        #expect(reparsed.value == expected, "seed \(seed)")
        #expect(reparsed.bytes == document.bytes)
    }

    /// What a plist reader reads for a new value, worked out without the editing code.
    static func plain(_ value: NewValue) -> PlistValue {
        switch value {
        case .bool(let flag): .bool(flag)
        case .string(let text): .string(text)
        case .integer(let number): .integer(Int128(number))
        case .real(let number): .real(number)
        case .date(let text): .date(text)
        case .data(let bytes): .data(bytes)
        case .emptyDict: .dict([:])
        case .emptyArray: .array([])
        case .array(let items): .array(items.map(plain))
        case .dict(let entries): .dict(Dictionary(entries.map { ($0.key, plain($0.value)) }, uniquingKeysWith: { _, last in last }))
        }
    }
}
