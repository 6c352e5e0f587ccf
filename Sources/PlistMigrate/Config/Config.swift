// Room: Config. `.plist-migrate.json`: reading, validating, and which config applies to a
// file. May call Discovery (globs), Recipes (a config's recipes), Lint (rule ids), Write.
import Foundation
import ATSPolicy
import Migrations

/// A `.plist-migrate.json` file: how a directory tree pins its migrations.
///
/// `{ "to": 4, "only": ["ATS001"], "skip": [], "allowPolicyChange": false, "exclude": ["Legacy/**"] }`
/// Every key is optional; unknown keys and wrong types are errors naming the file and key.
/// `exclude` globs are matched against paths relative to the config file's directory.
public struct Config: Sendable, Equatable {
    public static let fileName = ".plist-migrate.json"
    static let knownKeys: Set<String> = ["to", "only", "skip", "allowPolicyChange", "exclude", "minimumOS", "lint", "recipes"]

    public var path: String
    public var selection: Selection
    public var exclude: [String]
    /// `"lint": { "disable": ["L005"], "severity": { "ATS003": "warning" } }`
    public var lint = LintSettings()

    public struct LintSettings: Sendable, Equatable {
        public var disable: Set<String> = []
        public var severity: [String: Finding.Severity] = [:]
    }

    public struct ConfigError: Error, Sendable, Equatable {
        public var path: String
        public var message: String
        public var line: String { "\(path): error: \(message)" }
    }

    public init(path: String, data: Data) throws(ConfigError) {
        self.path = path
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ConfigError(path: path, message: "not valid JSON")
        }
        guard case .object(let dict) = root else {
            throw ConfigError(path: path, message: "expected a JSON object at the top level")
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
        exclude = try strings("exclude") ?? []
        if let value = dict["lint"] {
            guard case .object(let section) = value else {
                throw ConfigError(path: path, message: "\"lint\" must be an object with \"disable\" and \"severity\"")
            }
            let knownRules = Set(LintRule.all.map(\.id))
            for key in section.keys.sorted() where key != "disable" && key != "severity" {
                throw ConfigError(path: path, message: "unknown key \"lint.\(key)\" (known: disable, severity)")
            }
            if let disable = section["disable"] {
                guard case .array(let items) = disable else {
                    throw ConfigError(path: path, message: "\"lint.disable\" must be an array of rule ids")
                }
                for item in items {
                    guard case .string(let rule) = item else {
                        throw ConfigError(path: path, message: "\"lint.disable\" must be an array of rule ids")
                    }
                    guard knownRules.contains(rule.uppercased()) else {
                        throw ConfigError(path: path, message: "\"lint.disable\": unknown rule \"\(rule)\" (see `plist-migrate lint --format sarif` rules)")
                    }
                    lint.disable.insert(rule.uppercased())
                }
            }
            if let severity = section["severity"] {
                guard case .object(let levels) = severity else {
                    throw ConfigError(path: path, message: "\"lint.severity\" must map rule ids to note, warning or error")
                }
                for (rule, level) in levels {
                    guard knownRules.contains(rule.uppercased()), case .string(let text) = level, let parsed = Finding.Severity(rawValue: text) else {
                        throw ConfigError(path: path, message: "\"lint.severity\": \"\(rule)\" must be a known rule set to note, warning or error")
                    }
                    lint.severity[rule.uppercased()] = parsed
                }
            }
        }
        do {
            _ = try selection.plan()
        } catch {
            throw ConfigError(path: path, message: error.description)
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

/// Finds the nearest `.plist-migrate.json` for a file: its directory, then each parent, stopping
/// after the directory that holds `.git` (the repository root).
public final class ConfigResolver: @unchecked Sendable {
    private var cache: [String: Result<Config?, Config.ConfigError>] = [:]
    private let directories: DirectoryFacts

    public convenience init() {
        self.init(directories: DirectoryFacts())
    }

    init(directories: DirectoryFacts) {
        self.directories = directories
    }

    public func config(forFile path: String) -> Result<Config?, Config.ConfigError> {
        let absolute = FileIO.absolute(path)
        var directory = DirectoryFacts.parent(of: absolute) ?? ""
        var visited: [String] = []
        var found: Result<Config?, Config.ConfigError> = .success(nil)
        while true {
            if let cached = cache[directory] {
                found = cached
                break
            }
            visited.append(directory)
            let facts = directories.facts(of: directory)
            let candidate = directory + "/" + Config.fileName
            if facts.hasConfig, let data = try? FileIO.load(candidate).bytes {
                do {
                    found = .success(try Config(path: Self.relative(candidate), data: Data(data)))
                } catch {
                    found = .failure(error)
                }
                break
            }
            guard !facts.hasGit, let parent = DirectoryFacts.parent(of: directory) else { break }
            directory = parent
        }
        for dir in visited { cache[dir] = found }
        return found
    }

    /// The config's directory, for matching its `exclude` globs.
    public static func directory(of config: Config) -> String {
        (config.path as NSString).deletingLastPathComponent
    }

    static func relative(_ absolute: String) -> String {
        let cwd = FileIO.absolute(".") + "/"
        return absolute.hasPrefix(cwd) ? String(absolute.dropFirst(cwd.count)) : absolute
    }
}
