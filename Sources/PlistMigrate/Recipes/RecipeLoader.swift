// Room: Recipes. Recipe files read into passes (the steps themselves live in the Migrations
// module, beside the built-in passes). May call Write (reading the file) and Support.
import ATSPolicy
import Foundation
import Migrations
import PlistDOM
import Yams
import FileAccess

/// A recipe file that cannot be used, with where it goes wrong.
public struct RecipeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(path):\(line):\(column): error: \(message)" }
}

/// Reads recipe files (YAML, or JSON, which is YAML too):
///
/// ```yaml
/// passes:
///   - id: PRIV001
///     version: 1
///     title: Rename the Bluetooth usage key
///     impact: spelling
///     steps:
///       - rename: NSBluetoothPeripheralUsageDescription
///         to: NSBluetoothAlwaysUsageDescription
/// ```
/// Anything it does not understand is an error naming the file, line and column; nothing of
/// a file with an error is used.
public enum RecipeLoader {
    /// Every pass of `paths`, in file order; ids must be unique among them and the built-in passes.
    public static func load(_ paths: [String]) throws(RecipeError) -> [RecipePass] {
        var passes: [RecipePass] = []
        var origin: [String: String] = Dictionary(uniqueKeysWithValues: MigrationRegistry.all.map { ($0.id.uppercased(), "a built-in pass") })
        var read: Set<String> = []
        for path in paths where read.insert(FileIO.absolute(path)).inserted {
            let bytes: [UInt8]
            do {
                bytes = try FileIO.load(path).bytes
            } catch {
                throw RecipeError(path: path, line: 1, column: 1, message: "cannot read the recipe file (\(error.message))")
            }
            for (pass, mark) in try parse(try text(of: bytes, path: path), path: path) {
                if let other = origin[pass.id.uppercased()] {
                    throw RecipeError(path: path, line: mark?.line ?? 1, column: mark?.column ?? 1,
                                      message: "duplicate id \"\(pass.id)\" (also \(other))")
                }
                origin[pass.id.uppercased()] = "in \(path)"
                passes.append(pass)
            }
        }
        return passes
    }

    /// What a recipe may hold, so that loading and running it stay fast and small. A file
    /// over a limit is refused with the limit named (docs/recipes.md).
    public enum Limits {
        public static let fileBytes = 4 << 20
        public static let stepsPerFile = 10_000
        /// Items and entries in one step's value, all levels counted.
        public static let valueNodes = 100_000
    }

    /// The recipe's bytes as text: UTF-8 only, checked before YAML sees them, so that no byte is
    /// replaced by U+FFFD on its way into a plist.
    static func text(of bytes: [UInt8], path: String) throws(RecipeError) -> String {
        func fail(at offset: Int, _ message: String) -> RecipeError {
            let (line, column) = position(of: offset, in: bytes)
            return RecipeError(path: path, line: line, column: column, message: message)
        }
        if bytes.count > Limits.fileBytes {
            throw fail(at: 0, "the recipe file is \(bytes.count) bytes; recipes are limited to \(Limits.fileBytes) bytes")
        }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0, 0, 0xFE, 0xFF]) {
            throw fail(at: 0, "the recipe file is UTF-16 or UTF-32; save it as UTF-8")
        }
        if let nul = bytes.firstIndex(of: 0) {
            throw fail(at: nul, "NUL byte in the recipe file (UTF-16 or UTF-32 text, or not text at all); save it as UTF-8")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw fail(at: firstInvalidUTF8(bytes), "not valid UTF-8; save the recipe file as UTF-8")
        }
        return text
    }

    /// The offset of the first byte that does not start or continue a valid UTF-8 sequence.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0
            guard length > 0, index + length <= bytes.count,
                String(validating: bytes[index..<(index + length)], as: UTF8.self) != nil
            else { return index }
            index += length
        }
        return bytes.count
    }

    /// 1-based line and column (in characters) of a byte offset.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let before = bytes[..<min(offset, bytes.count)]
        let lineStart = (before.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
        let line = before.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        let column = String(decoding: bytes[lineStart..<before.endIndex], as: UTF8.self).count + 1
        return (line, column)
    }

    /// The passes of one recipe file's text, each with where its id is.
    static func parse(_ text: String, path: String) throws(RecipeError) -> [(RecipePass, Mark?)] {
        let reader = Reader(path: path, text: text)
        let root: Node?
        do {
            // The parser is kept until every anchor is looked for: nodes hold their anchors weakly.
            let parser = try Parser(yaml: text, resolver: .basic)
            root = try parser.singleRoot()
            try withExtendedLifetime(parser) { () throws(RecipeError) in try root.map(reader.refuseAnchors) }
        } catch let error as RecipeError {
            throw error
        } catch {
            throw reader.error(error)
        }
        guard let root else { throw reader.fail(nil, "the recipe file is empty") }
        guard let top = root.mapping else { throw reader.fail(root, "expected a mapping with \"passes\" (a list of passes), or one pass") }
        if let passes = try reader.value(top, "passes") {
            try reader.onlyKeys(top, ["passes"])
            guard let list = passes.sequence, !list.isEmpty else { throw reader.fail(passes, "\"passes\" must be a non-empty list of passes") }
            var result: [(RecipePass, Mark?)] = []
            var ids: [String: Mark?] = [:]
            for node in list {
                let (pass, mark) = try reader.pass(node)
                if let first = ids[pass.id.uppercased()] {
                    throw reader.fail(at: mark, "duplicate id \"\(pass.id)\" (first at line \(first?.line ?? 1))")
                }
                ids[pass.id.uppercased()] = mark
                result.append((pass, mark))
            }
            return result
        }
        return [try reader.pass(root)]
    }
}

/// Turns YAML nodes into passes, steps, paths and values, failing at the node that is wrong.
private struct Reader {
    let path: String
    let text: String

    /// Anchors (`&name`) and aliases (`*name`) are refused before anything is built from the
    /// tree: an alias repeats its anchor's node, and nine levels of ten make a billion. Composed,
    /// an alias is its anchor's node again, anchor included, so the first anchored node in
    /// document order is the definition, and the walk stops there.
    func refuseAnchors(_ root: Node) throws(RecipeError) {
        var stack = [root]
        while let node = stack.popLast() {
            let anchor: Anchor?
            switch node {
            case .scalar(let scalar): anchor = scalar.anchor
            case .sequence(let sequence):
                anchor = sequence.anchor
                stack.append(contentsOf: sequence.reversed())
            case .mapping(let mapping):
                anchor = mapping.anchor
                for (key, value) in mapping.reversed() { stack.append(value); stack.append(key) }
            case .alias(let alias): anchor = alias.anchor
            }
            if let anchor {
                throw fail(node, "YAML anchors and aliases (&\(anchor.rawValue), *\(anchor.rawValue)) are not supported in recipes; write the value out")
            }
        }
    }

    /// The text of a scalar that is plain text: a tag on it (`!!python/name:…`) means nothing
    /// here and is refused rather than ignored.
    func plainText(_ node: Node) throws(RecipeError) -> String? {
        guard case .scalar(let scalar) = node else { return nil }
        switch scalar.tag.rawValue {
        case "", "?", "!", Tag.Name.str.rawValue: return scalar.string
        default: throw fail(node, "unexpected tag \(scalar.tag.rawValue) here: this is plain text")
        }
    }

    /// Text that goes into a plist (a key or a string): every character must be one XML holds.
    func plistText(_ text: String, at node: Node) throws(RecipeError) -> String {
        if let (scalar, _) = XMLCharacters.firstDisallowed(in: text) {
            throw fail(node, "\(XMLCharacters.name(scalar)) cannot be written in a plist (XML 1.0 does not allow it)")
        }
        return text
    }

    func fail(_ node: Node?, _ message: String) -> RecipeError {
        fail(at: node?.mark, message)
    }

    func fail(at mark: Mark?, _ message: String) -> RecipeError {
        RecipeError(path: path, line: mark?.line ?? 1, column: mark?.column ?? 1, message: message)
    }

    func error(_ error: any Error) -> RecipeError {
        guard let yaml = error as? YamlError else { return fail(nil, "not YAML (\(error))") }
        switch yaml {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return fail(at: mark, "not valid YAML: \(problem)")
        case .reader(let problem, let offset, _, _):
            let (line, column) = RecipeLoader.position(of: offset ?? 0, in: Array(text.utf8))
            return RecipeError(path: path, line: line, column: column, message: "not valid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return fail(at: context.mark, "\"\(duplicates.joined(separator: "\", \""))\" is given twice")
        default:
            return fail(nil, "not valid YAML: \(yaml)")
        }
    }

    /// The value of `key` in `mapping`; a key given twice is an error.
    func value(_ mapping: Node.Mapping, _ key: String) throws(RecipeError) -> Node? {
        var found: Node?
        for (name, value) in mapping where name.scalar?.string == key {
            if found != nil { throw fail(name, "\"\(key)\" is given twice") }
            found = value
        }
        return found
    }

    func onlyKeys(_ mapping: Node.Mapping, _ known: [String]) throws(RecipeError) {
        for (name, _) in mapping {
            guard let key = try plainText(name) else { throw fail(name, "keys must be plain text") }
            if !known.contains(key) {
                throw fail(name, "unknown key \"\(key)\" (known here: \(known.joined(separator: ", ")))")
            }
        }
    }

    func string(_ mapping: Node.Mapping, _ key: String, in owner: Node, required: Bool = true) throws(RecipeError) -> String? {
        guard let node = try value(mapping, key) else {
            if required { throw fail(owner, "missing \"\(key)\"") }
            return nil
        }
        guard let text = try plainText(node), !text.isEmpty else { throw fail(node, "\"\(key)\" must be non-empty text") }
        return text
    }

    func pass(_ node: Node) throws(RecipeError) -> (RecipePass, Mark?) {
        guard let mapping = node.mapping else { throw fail(node, "a pass must be a mapping with id, version, title, impact and steps") }
        try onlyKeys(mapping, ["id", "version", "name", "title", "description", "impact", "steps", "files", "infoPlistOf", "minimumOS"])
        let idNode = try value(mapping, "id")
        guard let id = try string(mapping, "id", in: node) else { throw fail(node, "missing \"id\"") }
        guard id.first?.isLetter == true, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw fail(idNode, "\"id\" must start with a letter and hold only letters, digits, - _ and .")
        }
        guard let versionNode = try value(mapping, "version") else { throw fail(node, "missing \"version\"") }
        guard let version = versionNode.scalar.flatMap({ Int($0.string) }), version >= 0 else {
            throw fail(versionNode, "\"version\" must be a whole number (the order recipe passes run in)")
        }
        let title = try string(mapping, "title", in: node) ?? ""
        let name = try string(mapping, "name", in: node, required: false) ?? id.lowercased()
        let description = try string(mapping, "description", in: node, required: false) ?? title
        guard let impactNode = try value(mapping, "impact") else { throw fail(node, "missing \"impact\"") }
        guard let impact = impactNode.scalar.flatMap({ Impact(rawValue: $0.string) }) else {
            throw fail(impactNode, "\"impact\" must be one of \(Impact.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let stepsNode = try value(mapping, "steps") else { throw fail(node, "missing \"steps\"") }
        guard let list = stepsNode.sequence, !list.isEmpty else { throw fail(stepsNode, "\"steps\" must be a non-empty list") }
        guard list.count <= RecipeLoader.Limits.stepsPerFile else {
            throw fail(stepsNode, "\(list.count) steps; a pass is limited to \(RecipeLoader.Limits.stepsPerFile)")
        }
        var steps: [RecipeStep] = []
        for stepNode in list { steps.append(try step(stepNode)) }
        let pass = RecipePass(id: id, version: version, name: name, title: title, rationale: description, impact: impact,
                              steps: steps, source: path, scope: try scope(mapping))
        return (pass, idNode?.mark ?? node.mark)
    }

    /// `files:`, `infoPlistOf:` (each text or a list of text) and `minimumOS:`.
    func scope(_ mapping: Node.Mapping) throws(RecipeError) -> RecipeScope? {
        func list(_ key: String) throws(RecipeError) -> [String] {
            guard let node = try value(mapping, key) else { return [] }
            let items = node.sequence.map(Array.init) ?? [node]
            var texts: [String] = []
            for item in items {
                guard let text = try plainText(item), !text.isEmpty else { throw fail(item, "\"\(key)\" takes text or a list of text") }
                texts.append(text)
            }
            return texts
        }
        let files = try list("files")
        let types = try list("infoPlistOf")
        let known = RecipeScope.productTypes
        if let unknown = types.first(where: { !known.contains($0) }), let node = try value(mapping, "infoPlistOf") {
            throw fail(node, "unknown product type \"\(unknown)\" (known: \(known.joined(separator: ", ")))")
        }
        var minimumOS: String?
        if let node = try value(mapping, "minimumOS") {
            guard let text = try plainText(node), DeploymentTarget(text, source: "") != nil else {
                throw fail(node, "\"minimumOS\" takes OS versions such as ios13, macos11 (several joined by commas)")
            }
            minimumOS = text
        }
        if files.isEmpty && types.isEmpty && minimumOS == nil { return nil }
        return RecipeScope(files: files, infoPlistOf: types, minimumOS: minimumOS)
    }

    static let actions = ["rename", "set", "remove", "replace", "move"]
    static let arguments: [String: [String]] = [
        "rename": ["to"], "set": ["value", "when"], "remove": ["equals"], "replace": ["equals", "with"], "move": ["to"],
    ]

    func step(_ node: Node) throws(RecipeError) -> RecipeStep {
        guard let mapping = node.mapping else { throw fail(node, "a step must be a mapping such as {rename: KEY, to: NEW}") }
        var actions: [(String, Node)] = []
        for (name, value) in mapping {
            if let key = name.scalar?.string, Self.actions.contains(key) { actions.append((key, value)) }
        }
        guard actions.count == 1, let (action, pathNode) = actions.first else {
            throw fail(actions.count > 1 ? mapping.first { $0.key.scalar?.string == actions[1].0 }?.key : node,
                       "a step has exactly one of \(Self.actions.joined(separator: ", "))")
        }
        try onlyKeys(mapping, [action] + Self.arguments[action]!)
        let path = try recipePath(pathNode)
        func required(_ key: String) throws(RecipeError) -> Node {
            guard let found = try value(mapping, key) else { throw fail(node, "\"\(action)\" needs \"\(key)\"") }
            return found
        }
        let last = path.components.last!
        func lastIsKey() throws(RecipeError) {
            guard case .key = last else { throw fail(pathNode, "\"\(action)\" needs a key at the end of its path, not \(path.components.last == .anyKey ? "*" : "[]")") }
        }
        switch action {
        case "rename":
            try lastIsKey()
            let to = try required("to")
            guard let name = try plainText(to), !name.isEmpty else { throw fail(to, "\"to\" must be the new key") }
            _ = try plistText(name, at: to)
            return RecipeStep(path: path, action: .rename(to: name))
        case "set":
            let when: RecipeStep.When
            if let whenNode = try value(mapping, "when") {
                guard let parsed = whenNode.scalar.flatMap({ RecipeStep.When(rawValue: $0.string) }) else {
                    throw fail(whenNode, "\"when\" must be one of \(RecipeStep.When.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                when = parsed
            } else {
                when = .always
            }
            if case .key = last {} else if when == .ifAbsent {
                throw fail(pathNode, "\"when: ifAbsent\" needs a key at the end of the path")
            }
            return RecipeStep(path: path, action: .set(try value(try required("value"), under: path), when: when))
        case "remove":
            let equals = try self.value(mapping, "equals")
            return RecipeStep(path: path, action: .remove(equals: try equals.map { node throws(RecipeError) in try value(node, under: path) }))
        case "replace":
            return RecipeStep(path: path, action: .replace(equals: try value(try required("equals"), under: path),
                                                          with: try value(try required("with"), under: path)))
        default:
            try lastIsKey()
            let destination = try recipePath(try required("to"), allowRoot: true)
            guard destination.components.allSatisfy({ if case .key = $0 { true } else { false } }) else {
                throw fail(try required("to"), "\"to\" must name one dict: no * or [] in it")
            }
            return RecipeStep(path: path, action: .move(to: destination))
        }
    }

    /// `A:B:*` or a list `[A, "B:with:colons", "[]"]`.
    func recipePath(_ node: Node, allowRoot: Bool = false) throws(RecipeError) -> RecipePath {
        let path: RecipePath
        if let text = try plainText(node) {
            path = RecipePath(parsing: text)
        } else if let list = node.sequence {
            var components: [RecipePath.Component] = []
            for item in list {
                guard let text = try plainText(item) else { throw fail(item, "a path lists keys as text") }
                _ = try plistText(text, at: item)
                components.append(RecipePath.component(text))
            }
            path = RecipePath(components)
        } else {
            throw fail(node, "a path is text such as NSAppTransportSecurity:NSExceptionDomains:* or a list of keys")
        }
        if path.components.isEmpty && !allowRoot { throw fail(node, "the path is empty") }
        if path.components.contains(.key("")) { throw fail(node, "the path has an empty key (two : in a row?)") }
        for case .key(let key) in path.components { _ = try plistText(key, at: node) }
        return path
    }

    /// A plist value: true/false, a whole number, a real, text (quote text that looks like
    /// one of those), a list, a mapping, `!date 2026-01-01T00:00:00Z` or `!data BASE64`.
    func value(_ node: Node, under path: RecipePath) throws(RecipeError) -> NewValue {
        var nodes = -1  // the value itself is not one of its items
        // An item of an array at the path's end sits one level deeper than the path.
        return try value(node, depth: PlistDocument.elementDepth(pathLength: path.components.count), nodes: &nodes)
    }

    /// `depth`: the element depth the value would be written at; `nodes`: values so far.
    func value(_ node: Node, depth: Int, nodes: inout Int) throws(RecipeError) -> NewValue {
        nodes += 1
        guard nodes <= RecipeLoader.Limits.valueNodes else {
            throw fail(node, "the value holds more than \(RecipeLoader.Limits.valueNodes) items and entries, the limit for one value")
        }
        guard depth <= PlistDocument.maximumElementDepth else {
            throw fail(node, "the value would be nested \(depth) levels deep in the plist; libxml2, and so every reader built on it, "
                + "refuses more than \(PlistDocument.maximumElementDepth)")
        }
        switch node {
        case .scalar(let scalar):
            let text = scalar.string
            switch scalar.tag.rawValue {
            case "!date":
                guard PlistDate.isValid(text) else {
                    throw fail(node, "!date takes a date that exists, in ISO 8601 UTC such as 2026-01-31T12:00:00Z")
                }
                return .date(text)
            case "!data":
                guard let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { throw fail(node, "!data takes base64") }
                return .data(Array(bytes))
            case Tag.Name.bool.rawValue:
                guard let flag = Self.bool(text) else { throw fail(node, "!!bool takes true or false") }
                return .bool(flag)
            case Tag.Name.int.rawValue:
                guard let number = Int(text) else { throw fail(node, "!!int takes a whole number from -2^63 to 2^63-1") }
                return .integer(number)
            case Tag.Name.float.rawValue:
                guard let number = Double(text), number.isFinite else { throw fail(node, "!!float takes a finite number") }
                return .real(number)
            case Tag.Name.str.rawValue:
                // An explicit tag decides the type: `!!str 42` is the text 42.
                return .string(try plistText(text, at: node))
            case "", "?", "!":
                guard scalar.style == .plain else { return .string(try plistText(text, at: node)) }
                if let flag = Self.bool(text) { return .bool(flag) }
                if let number = Int(text) { return .integer(number) }
                if text.range(of: #"^[-+]?\d+$"#, options: .regularExpression) != nil {
                    throw fail(node, "\(text) is out of range for a plist integer (-2^63 to 2^63-1); write it !!str \(text) for text")
                }
                if text.range(of: #"^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$"#, options: .regularExpression) != nil, let number = Double(text) {
                    guard number.isFinite else { throw fail(node, "\(text) is too large for a plist real") }
                    return .real(number)
                }
                if ["", "~", "null", "Null", "NULL"].contains(text) { throw fail(node, "a plist has no null: give a value") }
                return .string(try plistText(text, at: node))
            default:
                throw fail(node, "unknown tag \(scalar.tag.rawValue) (known: !!str, !!int, !!float, !!bool, !date, !data)")
            }
        case .sequence(let list):
            // A tag on a list (`!evil [1, 2]`, `!!omap`) means something no plist holds.
            guard ["", "?", "!", Tag.Name.seq.rawValue].contains(list.tag.rawValue) else {
                throw fail(node, "unexpected tag \(list.tag.rawValue) on a list")
            }
            var items: [NewValue] = []
            for item in list { items.append(try value(item, depth: depth + 1, nodes: &nodes)) }
            return .array(items)
        case .mapping(let mapping):
            guard ["", "?", "!", Tag.Name.map.rawValue].contains(mapping.tag.rawValue) else {
                throw fail(node, "unexpected tag \(mapping.tag.rawValue) on a mapping")
            }
            var entries: [NewValue.Entry] = []
            var names: Set<String> = []
            for (key, item) in mapping {
                if key.tag.rawValue == Tag.Name.merge.rawValue || (key.scalar?.string == "<<" && key.scalar?.style == .plain) {
                    throw fail(key, "a YAML merge key (<<) is not a plist key; write the entries out")
                }
                guard let name = try plainText(key) else { throw fail(key, "dict keys must be text") }
                if !names.insert(try plistText(name, at: key)).inserted { throw fail(key, "\"\(name)\" is given twice") }
                entries.append(NewValue.Entry(name, try value(item, depth: depth + 1, nodes: &nodes)))
            }
            return .dict(entries)
        case .alias:
            throw fail(node, "YAML aliases are not supported in recipes")
        }
    }

    static func bool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }
}

extension RecipeScope {
    /// The product types `infoPlistOf` takes (`any`: any target's Info.plist).
    public static let productTypes = ["any", "application", "app-extension", "app-clip", "framework", "watch-app", "watch-extension",
                                      "unit-test", "ui-test", "bundle", "tool", "static-library", "dynamic-library"]
}
