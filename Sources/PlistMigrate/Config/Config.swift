// Room: Config. `.plist-migrate.json`: reading, validating, and which config applies to a
// file. May call Discovery (globs), Recipes (a config's recipes), Lint (rule ids), Write.
import Foundation
import ATSPolicy
import Migrations
import FileAccess

/// A `.plist-migrate.json` file: how a directory tree pins its migrations.
///
/// `{ "to": 4, "only": ["ATS001"], "skip": [], "allowPolicyChange": false, "exclude": ["Legacy/**"] }`
/// Every key is optional; unknown keys and wrong types are errors naming the file and key.
/// `exclude` globs are matched against paths relative to the config file's directory.
///
/// A config inherits from the configs above it in the repository (`inheriting(from:)`): each
/// key it sets replaces its parent's, except that `exclude` globs add up (each relative to its
/// own file) and `lint.severity` is merged rule by rule.
public struct Config: Sendable, Equatable {
    public static let fileName = ".plist-migrate.json"
    static let knownKeys: Set<String> = ["to", "only", "skip", "allowPolicyChange", "exclude", "minimumOS", "lint", "recipes"]

    /// The file read last (the nearest one, or the last `--config`).
    public var path: String
    /// Every file merged into this one, parents first.
    public var sources: [String]
    public var selection: Selection
    /// The file whose `minimumOS` applies.
    public var minimumOSSource: String?
    public var excludes: [ExcludeGlob]
    /// `"lint": { "disable": ["L005"], "severity": { "ATS003": "warning" } }`
    public var lint = LintSettings()

    public struct LintSettings: Sendable, Equatable {
        public var disable: Set<String> = []
        public var severity: [String: Finding.Severity] = [:]
        /// Whether a file said `disable` (an empty list re-enables what a parent disabled).
        var setsDisable = false
    }

    /// An `exclude` glob and the directory it is relative to (its config file's).
    public struct ExcludeGlob: Sendable, Equatable {
        public var directory: String
        public var pattern: String
    }

    /// This config over `parent`: what this file says wins, key by key.
    public func inheriting(from parent: Config) -> Config {
        var merged = self
        merged.sources = parent.sources + sources
        let own = selection, base = parent.selection
        merged.selection = Selection(
            only: own.only ?? base.only, skip: own.skip ?? base.skip, to: own.to ?? base.to,
            allowPolicyChange: own.allowPolicyChange ?? base.allowPolicyChange, minimumOS: own.minimumOS ?? base.minimumOS,
            recipes: own.recipes ?? base.recipes)
        merged.minimumOSSource = own.minimumOS == nil ? parent.minimumOSSource : minimumOSSource
        merged.excludes = parent.excludes + excludes
        merged.lint.disable = lint.setsDisable ? lint.disable : parent.lint.disable
        merged.lint.setsDisable = lint.setsDisable || parent.lint.setsDisable
        merged.lint.severity = parent.lint.severity.merging(lint.severity) { $1 }
        return merged
    }

    /// `--config A --config B`: the files read in order, each inheriting from the one before.
    public static func loading(_ paths: [String]) throws(ConfigError) -> Config? {
        var merged: Config?
        for path in paths {
            let bytes: [UInt8]
            do {
                bytes = try FileIO.load(path).bytes
            } catch {
                throw ConfigError(path: path, message: "cannot read the config: \(error.message)")
            }
            let config = try Config(path: path, data: Data(bytes))
            merged = merged.map { config.inheriting(from: $0) } ?? config
        }
        if let merged, let problem = merged.planProblem {
            throw ConfigError(path: merged.sources.joined(separator: " + "), message: problem)
        }
        return merged
    }

    public struct ConfigError: Error, Sendable, Equatable {
        public var path: String
        public var message: String
        public var line: String { "\(path): error: \(message)" }
    }

    public init(path: String, data: Data) throws(ConfigError) {
        self.path = path
        sources = [path]
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ConfigError(path: path, message: "not valid JSON")
        }
        guard case .object(let dict) = root else {
            throw ConfigError(path: path, message: "expected a JSON object at the top level")
        }
        if let duplicate = JSONDuplicateKeys.first(in: Array(data)) {
            throw ConfigError(path: path, message: "\"\(duplicate.key)\" is given twice (line \(duplicate.line)): say it once")
        }
        if let unknown = dict.keys.sorted().first(where: { !Self.knownKeys.contains($0) }) {
            throw ConfigError(path: path, message: "unknown key \"\(unknown)\" (known: \(Self.knownKeys.sorted().joined(separator: ", ")))")
        }
        func strings(_ key: String) throws(ConfigError) -> [String]? {
            guard let value = dict[key] else { return nil }
            guard case .array(let items) = value else {
                throw ConfigError(path: path, message: "\"\(key)\" must be an array of strings")
            }
            return try items.map { item throws(ConfigError) in
                guard case .string(let text) = item else {
                    throw ConfigError(path: path, message: "\"\(key)\" must be an array of strings")
                }
                return text
            }
        }
        var to: Int?
        if let value = dict["to"] {
            guard case .integer(let number) = value else {
                throw ConfigError(path: path, message: "\"to\" must be an integer")
            }
            to = number
        }
        var allow: Bool?
        if let value = dict["allowPolicyChange"] {
            guard case .bool(let flag) = value else {
                throw ConfigError(path: path, message: "\"allowPolicyChange\" must be true or false")
            }
            allow = flag
        }
        var minimumOS: String?
        if let value = dict["minimumOS"] {
            let text: String
            switch value {
            case .string(let single): text = single
            case .array: text = (try strings("minimumOS") ?? []).joined(separator: ",")
            default: throw ConfigError(path: path, message: "\"minimumOS\" must be a string such as \"ios15,macos12\" or an array of them")
            }
            guard DeploymentTarget(text, source: path) != nil else {
                throw ConfigError(path: path, message: "\"minimumOS\": \"\(text)\" is not a deployment target (e.g. ios15, macos12, tvos15, visionos1)")
            }
            minimumOS = text
            minimumOSSource = path
        }
        var recipes: [RecipePass]?
        if let files = try strings("recipes") {
            let directory = (path as NSString).deletingLastPathComponent
            let paths = files.map { $0.hasPrefix("/") || directory.isEmpty ? $0 : directory + "/" + $0 }
            do {
                recipes = try RecipeLoader.load(paths)
            } catch {
                throw ConfigError(path: "\(error.path):\(error.line):\(error.column)", message: "\(error.message) (a recipe of \(path))")
            }
        }
        selection = Selection(only: try strings("only"), skip: try strings("skip"), to: to, allowPolicyChange: allow, minimumOS: minimumOS,
                              recipes: recipes)
        let directory = (path as NSString).deletingLastPathComponent
        excludes = (try strings("exclude") ?? []).map { ExcludeGlob(directory: directory, pattern: $0) }
        if let value = dict["lint"] {
            guard case .object(let section) = value else {
                throw ConfigError(path: path, message: "\"lint\" must be an object with \"only\", \"disable\" and \"severity\"")
            }
            for key in section.keys.sorted() where key != "disable" && key != "severity" && key != "only" {
                throw ConfigError(path: path, message: "unknown key \"lint.\(key)\" (known: only, disable, severity)")
            }
            // SwiftLint's only_rules: every rule not named (by id, name or group) is disabled.
            if let only = section["only"] {
                guard case .array(let items) = only else {
                    throw ConfigError(path: path, message: "\"lint.only\" must be an array of rule ids, names or groups")
                }
                var kept: Set<String> = []
                for item in items {
                    guard case .string(let rule) = item else {
                        throw ConfigError(path: path, message: "\"lint.only\" must be an array of rule ids, names or groups")
                    }
                    if LintRule.groups.contains(rule) {
                        kept.formUnion(LintRule.all.filter { $0.group == rule }.map(\.id))
                        continue
                    }
                    guard let id = LintRule.id(named: rule) else {
                        throw ConfigError(path: path, message: "\"lint.only\": unknown rule \"\(rule)\"\(LintRule.suggestion(for: rule)) (an id or a name from `plist-migrate rules`; groups: posture, checks)")
                    }
                    kept.insert(id)
                }
                lint.setsDisable = true
                lint.disable.formUnion(Set(LintRule.all.map(\.id)).subtracting(kept))
            }
            if let disable = section["disable"] {
                lint.setsDisable = true
                guard case .array(let items) = disable else {
                    throw ConfigError(path: path, message: "\"lint.disable\" must be an array of rule ids")
                }
                for item in items {
                    guard case .string(let rule) = item else {
                        throw ConfigError(path: path, message: "\"lint.disable\" must be an array of rule ids")
                    }
                    if LintRule.groups.contains(rule) {
                        lint.disable.formUnion(LintRule.all.filter { $0.group == rule }.map(\.id))
                        continue
                    }
                    guard let id = LintRule.id(named: rule) else {
                        throw ConfigError(path: path, message: "\"lint.disable\": unknown rule \"\(rule)\"\(LintRule.suggestion(for: rule)) (an id or a name from `plist-migrate rules`; groups: posture, checks)")
                    }
                    lint.disable.insert(id)
                }
            }
            if let severity = section["severity"] {
                guard case .object(let levels) = severity else {
                    throw ConfigError(path: path, message: "\"lint.severity\" must map rule ids to note, warning or error")
                }
                for (rule, level) in levels {
                    guard let id = LintRule.id(named: rule), case .string(let text) = level, let parsed = Finding.Severity(rawValue: text) else {
                        throw ConfigError(path: path, message: "\"lint.severity\": \"\(rule)\"\(LintRule.id(named: rule) == nil ? LintRule.suggestion(for: rule) : "") must be a known rule (id or name) set to note, warning or error")
                    }
                    lint.severity[id] = parsed
                }
            }
        }
        if let problem = planProblem { throw ConfigError(path: path, message: problem) }
    }

    /// Why no plan can be made of the selection (`nil` when one can): every config, merged or
    /// not, is checked before anything runs.
    var planProblem: String? {
        do {
            _ = try selection.plan()
            return nil
        } catch {
            return error.description
        }
    }
}

/// Just enough JSON to tell `true` from `1` and `"4"` from `4`.
enum JSONValue: Decodable {
    case bool(Bool), integer(Int), number(Double), string(String), array([JSONValue]), object([String: JSONValue]), null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }
}

/// The config of a file: the `.plist-migrate.json` files from the repository root (the
/// directory that holds `.git`) down to the file's directory, each inheriting from the one
/// above; or, when `--config` files are given, those alone.
public final class ConfigResolver: @unchecked Sendable {
    private var cache: [String: Result<Config?, Config.ConfigError>] = [:]
    private let directories: DirectoryFacts
    private let explicit: Config?

    public convenience init(explicit: Config? = nil) {
        self.init(directories: DirectoryFacts(), explicit: explicit)
    }

    init(directories: DirectoryFacts, explicit: Config? = nil) {
        self.directories = directories
        self.explicit = explicit
    }

    /// Sizes the table of answers for about `count` directories once (a tree's walk asks for
    /// one or two per file), so that it is not grown and rehashed many times.
    func expectDirectories(_ count: Int) {
        cache.reserveCapacity(cache.count + count)
    }

    public func config(forFile path: String) -> Result<Config?, Config.ConfigError> {
        if let explicit { return .success(explicit) }
        return config(ofDirectory: DirectoryFacts.directory(ofFile: path))
    }

    /// `config(forFile:)` for a file in `directory` (absolute, `""` for `/`), for a caller that
    /// has it at hand.
    func config(forFileIn directory: String) -> Result<Config?, Config.ConfigError> {
        if let explicit { return .success(explicit) }
        return config(ofDirectory: directory)
    }

    private func config(ofDirectory directory: String) -> Result<Config?, Config.ConfigError> {
        if let cached = cache[directory] { return cached }
        let facts = directories.facts(of: directory)
        var found: Result<Config?, Config.ConfigError> = .success(nil)
        if !facts.hasGit, let parent = DirectoryFacts.parent(of: directory) { found = config(ofDirectory: parent) }
        // Most directories hold no config: its path is made only for one that does.
        if case .success(let inherited) = found, facts.hasConfig, case let candidate = directory + "/" + Config.fileName,
            let data = try? FileIO.load(candidate).bytes
        {
            do throws(Config.ConfigError) {
                let own = try Config(path: Self.relative(candidate), data: Data(data))
                let merged = inherited.map { own.inheriting(from: $0) } ?? own
                if inherited != nil, let problem = merged.planProblem {
                    // A parent's `only` past a child's `to`, say: both files are named.
                    throw Config.ConfigError(path: merged.path, message: "\(problem) (with \(merged.sources.dropLast().joined(separator: ", ")))")
                }
                found = .success(merged)
            } catch {
                found = .failure(error)
            }
        }
        cache[directory] = found
        return found
    }

    static func relative(_ absolute: String) -> String {
        let cwd = FileIO.absolute(".") + "/"
        return absolute.hasPrefix(cwd) ? String(absolute.dropFirst(cwd.count)) : absolute
    }
}
