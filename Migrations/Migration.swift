import PlistDOM

/// What a migration does to the app's effective App Transport Security policy.
public enum Impact: String, Sendable, Codable, CaseIterable {
    /// Same meaning, current spelling.
    case spelling
    /// Makes a setting the author wrote take effect (the system ignored it before).
    case activatesIntent
    /// Changes the effective policy beyond what was written. Runs only when asked for.
    case changesPolicy
}

/// What a pass may do to the effective policy, stated next to the pass and checked by the
/// engine for every file it edits: a pass whose delta goes further is held back for that file.
public enum PolicyIntent: String, Sendable, Codable {
    /// Same meaning: nothing about the effective policy may change.
    case noPolicyChange
    /// The settings the pass edited take effect, each within its own reach (a domain entry: its
    /// hosts; `NSAllowsArbitraryLoadsForMedia`: media loads; `NSAllowsLocalNetworking`: local
    /// hosts; …), and nothing outside that reach changes.
    case editedSettingsTakeEffect
    /// Anything: `changesPolicy` passes, which run only when asked for.
    case anyChange
    /// Like `noPolicyChange`, but no flag includes it otherwise: the engine must show that the
    /// policy does not change on any OS the app supports, or the pass does nothing.
    case provablyNoPolicyChange
}

/// One versioned, idempotent rewrite of the root `NSAppTransportSecurity` dict.
///
/// Like a swift-format rule: a small type with a stable id, its place in the order
/// (`version`), and a doc comment on the type saying what it changes and why.
public protocol Migration: Sendable {
    /// Stable identifier, e.g. `ATS001`.
    var id: String { get }
    /// Position in the run order; also what `--to VERSION` compares against.
    var version: Int { get }
    /// Kebab-case name, e.g. `third-party-exception-keys`.
    var name: String { get }
    /// One line for listings.
    var title: String { get }
    /// Why, citing Apple's documented rule.
    var rationale: String { get }
    var impact: Impact { get }
    /// What the pass may do to the effective policy of a file it edits (checked per file).
    var intent: PolicyIntent { get }

    /// The root entries this pass may edit, everything inside their values included; `nil` for
    /// any. The engine refuses the output of a pass that edits outside them.
    var rootKeys: [String]? { get }
    /// Whether a file holding none of `rootKeys` is left alone by this pass (a walked file that
    /// cannot spell any of them is then skipped without a parse).
    var needsRootKeys: Bool { get }

    /// Edits `session.document`; records edits and conflicts on the session.
    func apply(to session: MigrationSession)

    /// Whether, on a file whose ATS dict is `outline`, `apply` would neither edit nor record
    /// anything: the rounds then leave the pass out. `false` (always run) unless the pass knows.
    func isInert(on outline: ATSOutline) -> Bool

    /// Whether `apply` would edit a file whose ATS dict is `outline`, when the outline tells;
    /// `nil` when only running the pass does (a held-back pass is then probed).
    func wouldEdit(on outline: ATSOutline) -> Bool?
}

extension Migration {
    /// The built-in passes edit the root `NSAppTransportSecurity` dict and nothing else.
    public var rootKeys: [String]? { [ATSKey.appTransportSecurity] }
    public var needsRootKeys: Bool { true }
    public func isInert(on outline: ATSOutline) -> Bool { false }
    public func wouldEdit(on outline: ATSOutline) -> Bool? { isInert(on: outline) ? false : nil }

    /// The root keys `edit` touches that this pass does not declare (a root-array edit: `":"`).
    public func undeclaredRootKeys(_ edit: PlannedEdit) -> [String] {
        guard let declared = rootKeys else { return [] }
        return edit.rootKeys(outside: Set(declared))
    }

    /// `ATS001 third-party-exception-keys (spelling)`
    public var label: String { "\(id) \(name) (\(impact.rawValue))" }
}

extension PlannedEdit {
    /// The root keys this edit touches that are not in `declared` (a root-array edit: `":"`).
    public func rootKeys(outside declared: Set<String>) -> [String] {
        if let first = container.first {
            // The usual edit, inside a root key's value: no list made when that key is declared.
            let key = first.key ?? ":"
            return declared.contains(key) ? [] : [key]
        }
        let touched: [String] = switch self {
        case .rename(_, let from, let to): [from, to]
        case .remove(_, let key), .insert(_, let key, _), .replace(_, let key, _): [key]
        case .removeItem, .insertItem, .replaceItem: [":"]
        }
        return touched.filter { !declared.contains($0) }
    }

    /// The first of `edits` that touches a root key outside `declared`. Edits come in runs
    /// inside one root key's value (every domain of the ATS dict): a run's key is asked once.
    public static func first(of edits: [PlannedEdit], touchingRootKeysOutside declared: Set<String>) -> PlannedEdit? {
        var inside: PathStep?
        return edits.first { edit in
            let first = edit.container.first
            if let first, first == inside { return false }
            guard edit.rootKeys(outside: declared).isEmpty else { return true }
            inside = first
            return false
        }
    }
}
