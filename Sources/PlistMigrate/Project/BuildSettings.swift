import Foundation

/// One level of build settings (Xcode's order, lowest first: the project's xcconfig, the
/// project, the target's xcconfig, the target), each value with the file it was read from.
struct SettingsLevel: Sendable {
    var values: [String: (value: String, source: String)] = [:]
}

/// Build settings merged as Xcode merges them, with `$(inherited)` and `$(NAME)` / `${NAME}`
/// resolved. What cannot be resolved (an unknown variable) is said, never guessed.
struct BuildSettings {
    var levels: [SettingsLevel]
    /// Variables Xcode defines itself: SRCROOT, PROJECT_DIR, TARGET_NAME, …
    var builtIns: [String: String]

    /// The value of `name` with its source, or `nil` when unset; `unresolved` names what was
    /// referenced and not known.
    func value(_ name: String) -> (value: String, source: String, unresolved: [String])? {
        resolve(name, below: levels.count, depth: 0)
    }

    private func resolve(_ name: String, below top: Int, depth: Int) -> (value: String, source: String, unresolved: [String])? {
        guard depth < 32 else { return ("", "", ["$(\(name)) (a reference cycle)"]) }
        var index = top - 1
        while index >= 0 {
            if let (raw, source) = levels[index].values[name] {
                var unresolved: [String] = []
                let value = expand(raw, inheritedFrom: name, below: index, depth: depth, unresolved: &unresolved)
                return (value, source, unresolved)
            }
            index -= 1
        }
        if let builtIn = builtIns[name] { return (builtIn, "", []) }
        return nil
    }

    private func expand(_ text: String, inheritedFrom name: String, below level: Int, depth: Int, unresolved: inout [String]) -> String {
        var out = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            guard let open = after.first, open == "(" || open == "{",
                let close = after.firstIndex(of: open == "(" ? ")" : "}")
            else {
                out += "$"
                rest = after
                continue
            }
            var variable = String(after[after.index(after: after.startIndex)..<close])
            // `$(NAME:modifier)`: the modifiers are not applied; the value is said unresolved.
            if variable.contains(":") {
                unresolved.append("$(\(variable))")
                variable = ""
            }
            if variable == "inherited" {
                let inherited = resolve(name, below: level, depth: depth + 1)
                out += inherited?.value ?? ""
                unresolved += inherited?.unresolved ?? []
            } else if !variable.isEmpty {
                if let found = resolve(variable, below: levels.count, depth: depth + 1) {
                    out += found.value
                    unresolved += found.unresolved
                } else {
                    unresolved.append("$(\(variable))")
                }
            }
            rest = after[after.index(after: close)...]
        }
        out += rest
        return out.trimmingCharacters(in: .whitespaces)
    }
}

/// `.xcconfig` files: `NAME = value` lines, `//` comments, `#include "file"` and
/// `#include? "file"` (relative to the including file). Conditional settings
/// (`NAME[sdk=iphoneos*]`) are not read.
enum XCConfig {
    /// The settings of `path`, includes first; `problems` names missing files and cycles.
    static func read(_ path: String, display: (String) -> String, problems: inout [String], visiting: Set<String> = []) -> SettingsLevel {
        var level = SettingsLevel()
        guard !visiting.contains(path) else {
            problems.append("\(display(path)) includes itself")
            return level
        }
        guard let bytes = try? FileIO.load(path).bytes else {
            problems.append("\(display(path)) cannot be read")
            return level
        }
        let directory = (path as NSString).deletingLastPathComponent
        for rawLine in String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            var line = Substring(rawLine)
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("#include") {
                let optional = line.contains("#include?")
                guard let first = line.firstIndex(of: "\""), let last = line.lastIndex(of: "\""), first < last else { continue }
                let name = String(line[line.index(after: first)..<last])
                let included = name.hasPrefix("/") ? name : directory + "/" + name
                if optional && !FileManager.default.fileExists(atPath: included) { continue }
                let inner = read(included, display: display, problems: &problems, visiting: visiting.union([path]))
                level.values.merge(inner.values) { _, new in new }
                continue
            }
            if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !name.contains("["), name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasSuffix(";") { value.removeLast() }
            level.values[name] = (value, display(path))
        }
        return level
    }
}
