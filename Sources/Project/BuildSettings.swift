import Foundation
import FileAccess

/// One level of build settings (Xcode's order, lowest first: the project's xcconfig, the
/// project, the target's xcconfig, the target), each value with the file it was read from.
public struct SettingsLevel: Sendable {
    public var values: [String: (value: String, source: String)] = [:]
    /// A configuration file of this level (or one it includes) that could not be read, as shown:
    /// what it would have set is not known.
    var unreadable: String?
    /// `NAME[sdk=iphoneos*][config=Release]`: each name's conditional values, in file order.
    var conditional: [String: [ConditionalSetting]] = [:]

    /// Stores `key` (plain, or with `[condition]`s) = `value`.
    mutating func set(_ key: String, _ value: String, source: String) {
        guard let open = key.firstIndex(of: "[") else {
            values[key] = (value, source)
            return
        }
        let name = String(key[..<open])
        var conditions: [(key: String, pattern: String)] = []
        for part in key[open...].split(whereSeparator: { $0 == "[" || $0 == "]" || $0 == "," }) {
            // `[=]` has an empty key: a condition this cannot decide, said (the fuzzer's `A[=]`).
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            conditions.append((String(pair[0]).trimmingCharacters(in: .whitespaces),
                               pair.count == 2 ? String(pair[1]).trimmingCharacters(in: .whitespaces) : ""))
        }
        conditional[name, default: []].append(ConditionalSetting(written: key, conditions: conditions, value: value, source: source))
    }

    /// Another level's settings over this one's (an included xcconfig under its includer).
    mutating func merge(_ other: SettingsLevel) {
        values.merge(other.values) { _, new in new }
        for (name, list) in other.conditional { conditional[name, default: []] += list }
        unreadable = unreadable ?? other.unreadable
    }
}

/// A setting that applies only where its conditions hold, as Xcode evaluates them.
struct ConditionalSetting: Sendable {
    var written: String
    var conditions: [(key: String, pattern: String)]
    var value: String
    var source: String

    enum Match { case yes, no, unknown }

    /// Whether the conditions hold for a build for the target's device SDK (`sdk`, e.g.
    /// `iphoneos`, without its version) and configuration: `sdk=iphoneos*` holds,
    /// `sdk=iphonesimulator*` does not, `arch=*` holds; a condition this cannot decide
    /// (`sdk=iphoneos17*`, `arch=x86_64`, an unknown key) is `unknown`.
    func matches(sdk: String?, configuration: String?, arch: String? = nil) -> Match {
        var result = Match.yes
        for (key, pattern) in conditions {
            switch key {
            case "sdk":
                guard let sdk, !sdk.isEmpty, sdk != "auto" else { result = .unknown; continue }
                switch Self.sdkPattern(pattern, matches: sdk) {
                case .yes: continue
                case .no: return .no
                case .unknown: result = .unknown
                }
            case "config":
                guard let configuration else { result = .unknown; continue }
                if fnmatch(pattern, configuration, 0) != 0 { return .no }
            case "arch":
                // `arch`: the one architecture a build is read for (`BuildSettings.arch`); `""`
                // reads the build no architecture condition holds for.
                if pattern == "*" { continue }
                guard let arch else { result = .unknown; continue }
                if arch.isEmpty || fnmatch(pattern, arch, 0) != 0 { return .no }
            default:
                result = .unknown
            }
        }
        return result
    }

    /// Xcode matches an `sdk=` pattern against the SDK's name and version (`iphoneos18.0`) as a
    /// shell pattern. Without the version: a pattern that every version of `sdk` matches holds
    /// (`iphoneos*`, `iphone*`, `*`), one that no name beginning with `sdk` can match does not
    /// (`appletvos*`, `iphonesimulator*` for `iphoneos`), and one that depends on the version
    /// (`iphoneos17*`) is undecided.
    static func sdkPattern(_ pattern: String, matches sdk: String) -> Match {
        let anyVersion = [sdk, sdk + "1.0", sdk + "26.4.1"]
        if anyVersion.allSatisfy({ fnmatch(pattern, $0, 0) == 0 }) { return .yes }
        let literal = pattern.prefix { !"*?[\\".contains($0) }
        if !literal.hasPrefix(sdk) && !sdk.hasPrefix(literal) { return .no }
        return .unknown
    }
}

/// Build settings merged as Xcode merges them, with `$(inherited)` and `$(NAME)` / `${NAME}`
/// resolved. What cannot be resolved (an unknown variable) is said, never guessed.
///
/// A project file is input anyone can write, so the work is bounded: a setting
/// that refers to itself is a cycle, said at once; each setting is expanded once per look-up
/// (`A = $(B)$(B)` chains cost their length, not two to its power); a look-up stops after
/// `maximumSteps` expansions or a value of `maximumLength` characters, and says so.
public struct BuildSettings {
    var levels: [SettingsLevel]
    /// Variables Xcode defines itself: SRCROOT, PROJECT_DIR, TARGET_NAME, …
    var builtIns: [String: String]
    /// The device SDK conditions are evaluated for (`iphoneos`), once SDKROOT is known.
    var sdk: String?
    /// The architecture `[arch=…]` conditions are read for: `nil` leaves them undecided (said),
    /// `""` reads them as not holding. `ProjectSettings` reads a deployment target once per
    /// architecture its conditions name and takes the lowest.
    var arch: String?
    /// How a condition this cannot decide (`[sdk=iphoneos17*]`) is read: said as not evaluated
    /// (the value is then unknown), read as not holding, or read as holding for the one setting
    /// written so (`ProjectSettings` takes a deployment target's lowest over its readings).
    var undecided = Undecided.said

    public init(levels: [SettingsLevel], builtIns: [String: String], sdk: String? = nil, arch: String? = nil, undecided: Undecided = .said) {
        self.levels = levels
        self.builtIns = builtIns
        self.sdk = sdk
        self.arch = arch
        self.undecided = undecided
    }

    public enum Undecided: Equatable {
        case said
        case notHolding
        case holding(written: String)
    }

    /// The settings of `name` written with conditions this cannot decide, at any level, each once.
    func undecidedConditions(of name: String) -> [String] {
        var seen: [String] = []
        for level in levels {
            for setting in level.conditional[name] ?? []
            where setting.matches(sdk: sdk, configuration: builtIns["CONFIGURATION"], arch: arch) == .unknown && !seen.contains(setting.written) {
                seen.append(setting.written)
            }
        }
        return seen
    }

    /// The conditional setting of `name` that holds where its value is read (`NAME[sdk=macosx*]`),
    /// as written; `nil` when the value read is a plain one.
    func conditionHolding(_ name: String) -> String? {
        for level in levels.reversed() {
            let holding = (level.conditional[name] ?? []).last {
                $0.matches(sdk: sdk, configuration: builtIns["CONFIGURATION"], arch: arch) == .yes
            }
            if let holding { return holding.written }
            if level.values[name] != nil { return nil }
        }
        return nil
    }

    /// Whether `name` has a value with an `[sdk=…]` condition at some level.
    func hasSDKConditions(_ name: String) -> Bool {
        levels.contains { level in (level.conditional[name] ?? []).contains { $0.conditions.contains { $0.key == "sdk" } } }
    }

    /// The architectures `[arch=…]` conditions of `name` name, at any level, each once.
    func architectures(of name: String) -> [String] {
        var seen: [String] = []
        for level in levels {
            for setting in level.conditional[name] ?? [] {
                for (key, pattern) in setting.conditions where key == "arch" && pattern != "*" && !seen.contains(pattern) {
                    seen.append(pattern)
                }
            }
        }
        return seen
    }

    static let maximumSteps = 10_000
    static let maximumLength = 4_096
    /// What one look-up says it could not resolve, at most.
    static let maximumUnresolved = 8

    /// `chain`: where the value came from, its own source first, then the sources of the
    /// settings it refers to (`$(inherited)`, `$(NAME)`), each once.
    public typealias Resolved = (value: String, source: String, unresolved: [String], chain: [String])

    /// One look-up's bookkeeping: the settings being expanded (a cycle is one met again), the
    /// ones expanded already, and the steps taken.
    private struct Resolution {
        struct Key: Hashable {
            var name: String
            var below: Int
        }
        var steps = 0
        var inProgress: Set<Key> = []
        var done: [Key: Resolved?] = [:]
    }

    /// The value of `name` with its source, or `nil` when unset; `unresolved` names what was
    /// referenced and not known.
    public func value(_ name: String) -> Resolved? {
        var resolution = Resolution()
        return resolve(name, below: levels.count, &resolution)
    }

    private func resolve(_ name: String, below top: Int, _ resolution: inout Resolution) -> Resolved? {
        let key = Resolution.Key(name: name, below: top)
        if let done = resolution.done[key] { return done }
        guard !resolution.inProgress.contains(key) else { return ("", "", ["$(\(name)) (a reference cycle)"], []) }
        resolution.steps += 1
        guard resolution.steps <= Self.maximumSteps else {
            return ("", "", ["$(\(name)) (expansion stopped after \(Self.maximumSteps) steps)"], [])
        }
        resolution.inProgress.insert(key)
        defer { resolution.inProgress.remove(key) }
        var found: Resolved?
        var notEvaluated: [String] = []
        var index = top - 1
        while index >= 0 {
            // At one level a conditional value that holds wins over the plain one, as in Xcode.
            var chosen = levels[index].values[name]
            for setting in levels[index].conditional[name] ?? [] {
                switch setting.matches(sdk: sdk, configuration: builtIns["CONFIGURATION"], arch: arch) {
                case .yes: chosen = (setting.value, setting.source)
                case .no: break
                case .unknown:
                    switch undecided {
                    case .said: notEvaluated.append("\(setting.written) (\(setting.source)) not evaluated")
                    case .notHolding: break
                    case .holding(let written): if setting.written == written { chosen = (setting.value, setting.source) }
                    }
                }
            }
            if let (raw, source) = chosen {
                var unresolved = notEvaluated
                var chain = [source]
                let value = expand(raw, inheritedFrom: name, below: index, &resolution, unresolved: &unresolved, chain: &chain)
                found = (value, source, Self.capped(unresolved), chain)
                break
            }
            index -= 1
        }
        if found == nil, !notEvaluated.isEmpty { found = ("", "", Self.capped(notEvaluated), []) }
        if found == nil, let builtIn = builtIns[name] { found = (builtIn, "", [], []) }
        resolution.done[key] = .some(found)
        return found
    }

    /// The bracket closing the reference `text` opens (`(` or `{` first), past nested references
    /// (`$(A:default=$(B))`); `nil` when it is not closed.
    static func matchingClose(of text: Substring) -> Substring.Index? {
        guard let open = text.first else { return nil }
        let close: Character = open == "(" ? ")" : "}"
        var depth = 0
        for index in text.indices {
            if text[index] == open { depth += 1 } else if text[index] == close {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// Each problem once, and no more than `maximumUnresolved` of them.
    private static func capped(_ unresolved: [String]) -> [String] {
        var seen = Set<String>()
        let unique = unresolved.filter { seen.insert($0).inserted }
        guard unique.count > maximumUnresolved else { return unique }
        return Array(unique.prefix(maximumUnresolved)) + ["and \(unique.count - maximumUnresolved) more"]
    }

    private func expand(
        _ text: String, inheritedFrom name: String, below level: Int, _ resolution: inout Resolution, unresolved: inout [String],
        chain: inout [String]
    ) -> String {
        var out = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            guard out.utf8.count <= Self.maximumLength else { break }
            let after = rest[rest.index(after: dollar)...]
            guard let open = after.first, open == "(" || open == "{", let close = Self.matchingClose(of: after) else {
                out += "$"
                rest = after
                continue
            }
            var variable = String(after[after.index(after: after.startIndex)..<close])
            if variable.contains(":") {
                // `$(NAME:modifier)`: the modifiers are not applied; the value is said unresolved, whole.
                unresolved.append("$(\(variable))")
                variable = ""
            } else if variable.contains("$") {
                // `$($(WHICH)_NAME)`: the name is itself expanded first.
                variable = expand(variable, inheritedFrom: name, below: level, &resolution, unresolved: &unresolved, chain: &chain)
                if variable.contains("$") || variable.contains("(") { unresolved.append("$(\(variable))"); variable = "" }
            }
            if variable == "inherited" {
                let inherited = resolve(name, below: level, &resolution)
                out += inherited?.value ?? ""
                unresolved += inherited?.unresolved ?? []
                for source in inherited?.chain ?? [] where !chain.contains(source) && chain.count < 16 { chain.append(source) }
            } else if !variable.isEmpty {
                if let found = resolve(variable, below: levels.count, &resolution) {
                    out += found.value
                    unresolved += found.unresolved
                    for source in found.chain where !source.isEmpty && !chain.contains(source) && chain.count < 16 { chain.append(source) }
                } else {
                    unresolved.append("$(\(variable))")
                }
            }
            rest = after[after.index(after: close)...]
        }
        out += rest
        if out.utf8.count > Self.maximumLength {
            unresolved.append("$(\(name)) (a value longer than \(Self.maximumLength) characters)")
            return ""
        }
        return Self.trimmed(out)
    }

    /// `text` without leading and trailing whitespace; most values have none, and are returned
    /// as they are without a trip through Foundation.
    static func trimmed(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last else { return text }
        if first > 0x20, first < 0x80, last > 0x20, last < 0x80 { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }
}

/// `.xcconfig` files: `NAME = value` lines, `//` comments, `#include "file"` and
/// `#include? "file"` (relative to the including file), and conditional settings
/// (`NAME[sdk=iphoneos*]`, evaluated by `BuildSettings`). Each value's source is `file:line`.
///
/// Includes are followed on canonical paths (`./a.xcconfig` including itself is a cycle), with
/// one visited set for the whole chain and at most `maximumDepth` levels; a symbolic-link loop
/// is named as one.
public enum XCConfig {
    static let maximumDepth = 64

    /// `value` with each `$(inherited)`, `${inherited}`, `$(NAME)` and `${NAME}` replaced by the
    /// earlier assignment's value. A value past `BuildSettings.maximumLength` (a chain that
    /// doubles on every line) is kept only that long, without references, so that reading it
    /// says it is too long instead of giving a wrong value.
    static func substitutingEarlier(_ value: String, name: String, earlier: String) -> String {
        let references = ["$(inherited)", "${inherited}", "$(\(name))", "${\(name)}"].map { Array($0.utf8) }
        let bytes = Array(value.utf8)
        // Where each reference starts, found in one pass over the value's bytes.
        var found: [(at: Int, length: Int)] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "$"),
                let reference = references.first(where: { bytes[index...].starts(with: $0) })
            {
                found.append((index, reference.count))
                index += reference.count
            } else {
                index += 1
            }
        }
        guard !found.isEmpty else { return value }
        // Measured before it is built: a chain that doubles on every line costs each line its
        // own length, not the limit's (10,000 such lines took seconds through Foundation).
        let length = bytes.count - found.reduce(0) { $0 + $1.length } + found.count * earlier.utf8.count
        guard length <= BuildSettings.maximumLength else { return tooLong }
        var out: [UInt8] = []
        out.reserveCapacity(length)
        var start = 0
        for (at, referenceLength) in found {
            out += bytes[start..<at]
            out += earlier.utf8
            start = at + referenceLength
        }
        out += bytes[start...]
        return String(decoding: out, as: UTF8.self)
    }

    /// A value past the limit, kept only that long and without references.
    static let tooLong = String(repeating: "x", count: BuildSettings.maximumLength + 1)

    /// The settings of `path`, includes first; `problems` names missing files and cycles.
    ///
    /// An include not found beside the including file is looked for in the project's folder
    /// (`projectDir`), where Xcode finds it: element-ios's `Riot/Common.xcconfig` includes
    /// `Config/AppIdentifiers.xcconfig`, which exists only at the project's root, and the app
    /// builds. Only where neither has it is it said missing.
    public static func read(_ path: String, display: (String) -> String, problems: inout [String], projectDir: String? = nil) -> SettingsLevel {
        var visiting: Set<String> = []
        return read(path, display: display, problems: &problems, visiting: &visiting, depth: 0, projectDir: projectDir)
    }

    private static func read(
        _ path: String, display: (String) -> String, problems: inout [String], visiting: inout Set<String>, depth: Int, projectDir: String?
    ) -> SettingsLevel {
        // `xcconfig/./Base.xcconfig` and `App/../Common.xcconfig` are named as the files they
        // are; symbolic links are kept as written.
        let path = FileIO.absolute(path)
        var level = SettingsLevel()
        let canonical: String
        switch FileIO.canonicalPath(path) {
        case .success(let found): canonical = found
        case .failure(let error):
            problems.append(error.code == ELOOP ? "\(display(path)) is in a loop of symbolic links" : "\(display(path)) cannot be read")
            level.unreadable = display(path)
            return level
        }
        guard !visiting.contains(canonical) else {
            problems.append("\(display(path)) includes itself")
            return level
        }
        guard depth < maximumDepth else {
            problems.append("\(display(path)): includes nested more than \(maximumDepth) deep are not read")
            return level
        }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.load(canonical).bytes
        } catch {
            problems.append("\(display(path)) cannot be read (\(error.message))")
            level.unreadable = display(path)
            return level
        }
        visiting.insert(canonical)
        defer { visiting.remove(canonical) }
        let directory = PathText.directory(of: path)
        for (offset, rawLine) in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = offset + 1
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("#include") {
                let optional = line.contains("#include?")
                guard let first = line.firstIndex(of: "\""), let last = line.lastIndex(of: "\""), first < last else { continue }
                let name = String(line[line.index(after: first)..<last])
                var included = name.hasPrefix("/") ? name : directory + "/" + name
                if !name.hasPrefix("/"), !FileIO.exists(included), let projectDir, FileIO.exists(projectDir + "/" + name) {
                    included = projectDir + "/" + name
                }
                if optional && !FileIO.exists(included) { continue }
                let inner = read(included, display: display, problems: &problems, visiting: &visiting, depth: depth + 1, projectDir: projectDir)
                level.merge(inner)
                continue
            }
            if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
            // The `=` of the assignment, not one inside `[sdk=…]`.
            var depth = 0
            guard let equals = line.firstIndex(where: { character in
                if character == "[" { depth += 1 } else if character == "]" { depth -= 1 }
                return character == "=" && depth == 0
            }) else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let name = key.prefix { $0 != "[" }
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), key == name || key.hasSuffix("]") else { continue }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasSuffix(";") { value.removeLast() }
            // Xcode 10 and later: a later assignment's `$(inherited)` (or `$(NAME)`) is the value
            // an earlier assignment in this file or one it includes gave.
            if key == name, let earlier = level.values[String(name)] {
                value = Self.substitutingEarlier(value, name: String(name), earlier: earlier.value)
            }
            level.set(key, value, source: "\(display(path)):\(lineNumber)")
        }
        return level
    }
}

