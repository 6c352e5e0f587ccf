import PlistDOM

/// A pass written as data, in a recipe file, rather than in Swift: an id, a version, a title,
/// the declared impact, and steps that run in order. It runs like a built-in pass: one diff
/// per pass, the same write check, and, when it touches the ATS dict, the same policy check
/// against its declared impact.
public struct RecipePass: Migration, Hashable {
    public let id: String
    public let version: Int
    public let name: String
    public let title: String
    public let rationale: String
    public let impact: Impact
    public let steps: [RecipeStep]
    /// The recipe file it was read from, as given.
    public let source: String
    /// Which files it is for; `nil`: every file its paths reach.
    public let scope: RecipeScope?
    /// The root keys its paths start with (and where a move or a root rename leads); `nil`
    /// when a path starts with a wildcard. Worked out once: every edit is checked against it.
    public let rootKeys: [String]?

    public init(id: String, version: Int, name: String, title: String, rationale: String, impact: Impact,
                steps: [RecipeStep], source: String, scope: RecipeScope? = nil) {
        self.id = id
        self.version = version
        self.name = name
        self.title = title
        self.rationale = rationale
        self.impact = impact
        self.steps = steps
        self.source = source
        self.scope = scope
        self.rootKeys = Self.rootKeys(of: steps)
    }

    /// Equal when everything but the file it came from is: one recipe named twice (by a config
    /// and on the command line, under two spellings of its path) is one pass.
    public static func == (lhs: RecipePass, rhs: RecipePass) -> Bool {
        (lhs.id, lhs.version, lhs.name, lhs.title, lhs.rationale, lhs.impact) == (rhs.id, rhs.version, rhs.name, rhs.title, rhs.rationale, rhs.impact)
            && lhs.steps == rhs.steps && lhs.scope == rhs.scope
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(version)
        hasher.combine(steps)
    }

    /// The same pass for every file: its steps alone, as its fixtures exercise them.
    public var withoutScope: RecipePass {
        RecipePass(id: id, version: version, name: name, title: title, rationale: rationale, impact: impact, steps: steps, source: source)
    }

    /// What the impact promises about the ATS policy, checked as for a built-in pass.
    public var intent: PolicyIntent {
        switch impact {
        case .spelling: .noPolicyChange
        case .activatesIntent: .editedSettingsTakeEffect
        case .changesPolicy: .anyChange
        }
    }

    private static func rootKeys(of steps: [RecipeStep]) -> [String]? {
        var keys: [String] = []
        var seen: Set<String> = []
        for step in steps {
            var starts = [step.path.components.first]
            switch step.action {
            case .move(let destination): starts.append(destination.components.first ?? step.path.components.last)
            case .rename(let name) where step.path.components.count == 1: starts.append(.key(name))
            default: break
            }
            for start in starts {
                guard case .key(let key)? = start else { return nil }
                if seen.insert(key).inserted { keys.append(key) }
            }
        }
        return keys
    }

    /// False when a step may add a root entry to a file that holds none of `rootKeys`.
    public var needsRootKeys: Bool {
        !steps.contains { step in
            guard case .set(_, let when) = step.action else { return false }
            return step.path.components.count == 1 && when != .ifPresent
        }
    }

    public func apply(to session: MigrationSession) {
        for step in steps { step.apply(to: session) }
    }
}

/// Where a recipe pass applies, checked for each file before any step runs.
public struct RecipeScope: Sendable, Hashable {
    /// Globs relative to the repository root; empty: any file.
    public var files: [String]
    /// Product types whose targets' Info.plist the file must be (`application`,
    /// `app-extension`, `framework`, `watch-app`, …, or `any`); empty: any file.
    public var infoPlistOf: [String]
    /// `ios13`, `macos11`…: a file whose deployment target is lower, or unknown, is held back.
    public var minimumOS: String?

    public init(files: [String] = [], infoPlistOf: [String] = [], minimumOS: String? = nil) {
        self.files = files
        self.infoPlistOf = infoPlistOf
        self.minimumOS = minimumOS
    }
}
