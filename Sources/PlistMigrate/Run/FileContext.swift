import ATSPolicy
import PlistDOM
import Project

/// What a caller knows about one file besides its bytes (see `FileMigrator.migrate`).
public struct FileContext<Lookups: FileLookups> {
    public var path: String
    /// For files found by walking: a file that is not an XML plist, or holds none of the plan's
    /// root keys, is `skipped` rather than an error or unchanged.
    public var skipIfNotApplicable: Bool
    /// The app's, from `--min-os`, a config or a project; without one, the project's (asked of
    /// `lookups`), then the plist's own `MinimumOSVersion`/`LSMinimumSystemVersion`, else every era.
    public var deploymentTarget: DeploymentTarget?
    /// The bytes already parsed, unedited, for a caller that has the tree (it is edited).
    public var parsed: PlistDocument?
    /// For a caller that asks only which passes run and which are held back (lint): no diffs
    /// are made and the output gets no write check, so it must not be written or shown.
    public var gateOnly: Bool
    /// Whether the write check also parses the whole output again (step 2 of `EditCheck`): for
    /// bytes about to be written. A dry run's check stands without it (see `EditCheck`).
    public var checksWholeOutput: Bool
    public var lookups: Lookups
    /// Each applied pass records the digest of the bytes it leaves (`PassResult.result`): for a
    /// report that is a review plan, and for a run that applies one.
    public var recordsResults = false

    public init(path: String, skipIfNotApplicable: Bool, deploymentTarget: DeploymentTarget? = nil,
                parsed: PlistDocument? = nil, gateOnly: Bool = false, checksWholeOutput: Bool = true, lookups: Lookups) {
        self.path = path
        self.skipIfNotApplicable = skipIfNotApplicable
        self.deploymentTarget = deploymentTarget
        self.parsed = parsed
        self.gateOnly = gateOnly
        self.checksWholeOutput = checksWholeOutput
        self.lookups = lookups
    }
}

/// What is worked out about a file only when a run needs it: most files never ask.
public protocol FileLookups {
    /// The path diff headers name (`nil`: the file's path), asked once a pass changed the file.
    func diffPath() -> String?
    /// The deployment target of the nearest project around the file, for a file no target
    /// claims, asked once it holds the ATS dict and nothing else gave one.
    func projectTarget() -> DeploymentTarget?
    /// The targets whose Info.plist the file is.
    func claimingTargets() -> [ProjectTarget]
    /// What could not be read of the projects around the file.
    func projectNotes() -> [String]
}

extension FileLookups {
    public func claimingTargets() -> [ProjectTarget] { [] }
    public func projectNotes() -> [String] { [] }
}

/// Lookups already made: the targets claiming the file and the nearest project's target.
public struct KnownLookups: FileLookups {
    public var claimed: [ProjectTarget]
    public var nearest: DeploymentTarget?
    public init(claimed: [ProjectTarget], nearest: DeploymentTarget?) {
        self.claimed = claimed
        self.nearest = nearest
    }
    public func diffPath() -> String? { nil }
    public func projectTarget() -> DeploymentTarget? { nearest }
    public func claimingTargets() -> [ProjectTarget] { claimed }
}

/// Nothing to look up: the file's own path, no project.
public struct NoLookups: FileLookups {
    public init() {}
    public func diffPath() -> String? { nil }
    public func projectTarget() -> DeploymentTarget? { nil }
}
