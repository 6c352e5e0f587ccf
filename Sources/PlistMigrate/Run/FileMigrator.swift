import ATSPolicy
import Foundation
import Migrations
import PlistDOM
import Project
import FileAccess

/// Runs a plan's passes over one file's bytes, in order, on one tree, and keeps a snapshot
/// after each pass so each pass gets its own diff.
///
/// Every output is checked independently of the edit code (`EditCheck`): every byte outside
/// the values the passes edited must be identical, each of those values, parsed again, must
/// equal the input's with exactly the recorded edits applied, and before a write libxml2
/// re-reads all of it. Each pass may edit only the root keys it declares.
public struct FileMigrator: Sendable {
    private final class Storage: Sendable {
        let plan: MigrationPlan
        let rootKeyMarkers: [[UInt8]]?
        let rootKeys: [String]
        /// The root keys every file is read for, listed once.
        let rootKeyNames: RootKeys.Names
        let noRootKeyReason: String
        let accepted: Set<String>?
        /// With `accepted`: the same plan without it, made once for every file's reference run.
        let withoutDecision: FileMigrator?
        /// Each selected pass's scope (recipe passes may have one), found once rather than by a
        /// cast per pass per file; `nil` when no pass has a scope.
        let scopes: [RecipeScope?]?
        init(plan: MigrationPlan, rootKeyMarkers: [[UInt8]]?, rootKeys: [String], noRootKeyReason: String, accepted: Set<String>?) {
            self.plan = plan
            let scopes = plan.selected.map { ($0 as? RecipePass)?.scope }
            self.scopes = scopes.contains { $0 != nil } ? scopes : nil
            self.accepted = accepted
            withoutDecision = accepted == nil ? nil : FileMigrator(plan: plan)
            self.rootKeyMarkers = rootKeyMarkers
            self.rootKeys = rootKeys
            rootKeyNames = RootKeys.Names(declared: rootKeys)
            self.noRootKeyReason = noRootKeyReason
        }
    }
    private let storage: Storage
    public var plan: MigrationPlan { storage.plan }
    private var rootKeyMarkers: [[UInt8]]? { storage.rootKeyMarkers }
    private var rootKeys: [String] { storage.rootKeys }
    private var noRootKeyReason: String { storage.noRootKeyReason }
    /// `--accept`: the edit groups a reviewer accepted (`EditGroup.id`); a pass whose edit in a
    /// file is not one of them is held back there. `nil`: every edit may be applied.
    var accepted: Set<String>? { storage.accepted }
    /// The kinds the review showed, when the decision lists them (see `RunOptions.reviewed`).
    public var reviewed: Set<String>?

    /// The same plan without a review decision: what the file would get, every kind applied.
    var withoutDecision: FileMigrator { storage.withoutDecision ?? self }

    public init(plan: MigrationPlan, accepted: Set<String>? = nil) {
        let passes = plan.selected + plan.heldBack
        var keys: [String] = []
        var anyFile = false
        for pass in passes {
            guard pass.needsRootKeys, let declared = pass.rootKeys else {
                anyFile = true
                break
            }
            for key in declared where !keys.contains(key) { keys.append(key) }
        }
        storage = Storage(
            plan: plan, rootKeyMarkers: anyFile ? nil : keys.map { $0 == ATSKey.appTransportSecurity ? Self.atsMarker : Array($0.utf8) },
            rootKeys: keys, noRootKeyReason: "no " + (keys.isEmpty ? ATSKey.appTransportSecurity : keys.joined(separator: " or ")),
            accepted: accepted)
    }

    /// One file's bytes through the plan, with nothing known about the file but its path.
    public func migrate(
        _ bytes: [UInt8], path: String, skipIfNotApplicable: Bool, deploymentTarget: DeploymentTarget? = nil,
        parsed: PlistDocument? = nil, gateOnly: Bool = false
    ) -> FileResult {
        migrate(bytes, FileContext(path: path, skipIfNotApplicable: skipIfNotApplicable, deploymentTarget: deploymentTarget,
                                   parsed: parsed, gateOnly: gateOnly, lookups: NoLookups()))
    }

    /// One file's bytes through the plan: parse, choose the passes, run them in rounds (each
    /// pass gated by its policy intent and given its own diff), check the output, say what was
    /// held back.
    public func migrate<Lookups: FileLookups>(_ bytes: [UInt8], _ context: FileContext<Lookups>) -> FileResult {
        var result = FileResult(path: context.path, status: .unchanged)
        result.original = bytes
        result.output = bytes
        guard let document = parse(bytes, context, into: &result) else { return result }
        let root = RootKeys(document, storage.rootKeyNames)
        guard rootKeyMarkers == nil || root.holdsADeclaredKey else {
            if context.skipIfNotApplicable {
                result.status = .skipped
                result.skipReason = noRootKeyReason
            }
            return result
        }
        let target = Self.learnProject(context, root: root, into: &result)
        // Duplicate keys in the ATS dict leave it to a person: passes that may edit it do not
        // run; recipe passes that stay outside it still do.
        // Read once here: the duplicate-key check and the rounds both ask it.
        let outline = ATSOutline(appTransportSecurity: root.appTransportSecurityDict)
        let duplicates = Self.duplicateKeyDiagnostics(root, outline: outline)
        let (passes, scopeHeldBack) = choosePasses(duplicates: duplicates, context, root: root, target: target, into: &result)
        if let duplicates, passes.isEmpty {
            result.diagnostics = duplicates
            return result
        }
        let rounds = PassRounds(migrator: self, document: document, bytes: bytes, root: root, outline: outline, target: target,
                                eras: target?.supportedEras ?? OSEra.allCases, duplicates: duplicates, context: context)
        switch rounds.run(passes) {
        case .settled: break
        case .bug(let failure): return Self.internalError(failure, result)
        case .unsettled(let recipes): return Self.unsettled(recipes, result)
        }
        // Moved out (the rounds are done with them), not copied.
        swap(&result.passes, &rounds.applied)
        swap(&result.diagnostics, &rounds.diagnostics)
        swap(&result.notAcceptedGroups, &rounds.notAcceptedGroups)
        result.output = rounds.current
        if !rounds.current.bytesEqual(bytes) {
            if !context.gateOnly, let failure = EditCheck.failure(
                original: bytes, originalDocument: rounds.firstEdit.document, output: rounds.current, edits: rounds.plannedEdits,
                wholeOutput: context.checksWholeOutput)
            {
                return Self.internalError(failure, result)
            }
            result.status = .changed
            result.diffPath = rounds.headerPath()
        }
        sayHeldBack(rounds, duplicates: duplicates, scope: scopeHeldBack, into: &result)
        return result
    }

    /// The targets that claim the file, what could not be read of its projects, and its
    /// deployment target (for a file with the ATS dict).
    private static func learnProject<Lookups>(_ context: FileContext<Lookups>, root: RootKeys, into result: inout FileResult) -> DeploymentTarget? {
        let hasATS = !root.appTransportSecurity.isEmpty
        result.hasAppTransportSecurity = hasATS
        result.targets = context.lookups.claimingTargets()
        if hasATS, result.targets.isEmpty { result.projectNotes += context.lookups.projectNotes() }
        for target in result.targets where !target.unresolved.isEmpty {
            result.projectNotes += Self.unresolvedNotes(target)
        }
        result.notes += result.projectNotes
        for target in result.targets where hasATS {
            if let match = target.caseInsensitiveMatch { result.notes.append("target \(target.name) (\(target.project)): \(match)") }
        }
        result.deploymentTarget = hasATS ? deploymentTarget(context, claimedBy: result.targets, root: root) : nil
        return result.deploymentTarget
    }

    /// What could not be read of a target's settings, as sentences: CocoaPods' generated
    /// configuration files (missing in a fresh clone until `pod install`) in one, whatever their
    /// number; anything else as it was found.
    static func unresolvedNotes(_ target: ProjectTarget) -> [String] {
        let podsMissing = target.unresolved.filter { $0.contains(ProjectTarget.podsFolder) && $0.contains(".xcconfig cannot be read") }
        let other = target.unresolved.filter { !podsMissing.contains($0) }
        var notes: [String] = []
        if !podsMissing.isEmpty {
            notes.append("target \(target.name) (\(target.project)): its CocoaPods settings are not here (\(podsMissing.count) "
                + "configuration file\(podsMissing.count == 1 ? "" : "s") under \(ProjectTarget.podsFolder), which `pod install` makes), "
                + "so what they set is not read: the deployment target is taken from the rest of the project")
        }
        if !other.isEmpty {
            notes.append("target \(target.name) (\(target.project)): cannot resolve \(other.joined(separator: "; "))")
        }
        return notes
    }

    /// The plan's passes that run on this file: not those that may edit a dict with duplicate
    /// keys, nor recipe passes whose scope leaves the file out (said in `outOfScope`) or holds
    /// it back (returned with the reason).
    private func choosePasses<Lookups>(
        duplicates: [Diagnostic]?, _ context: FileContext<Lookups>, root: RootKeys, target: DeploymentTarget?, into result: inout FileResult
    ) -> ([any Migration], [(String, String)]) {
        let keeps: (any Migration) -> Bool = { $0.rootKeys.map { !$0.contains(ATSKey.appTransportSecurity) } ?? false }
        // Without a scoped pass (the usual plan), only duplicate keys set passes aside.
        guard let scopes = storage.scopes else {
            result.outOfScope = [:]
            return (duplicates == nil ? plan.selected : plan.selected.filter(keeps), [])
        }
        let unscoped = zip(plan.selected, scopes).filter { duplicates == nil || keeps($0.0) }
        var heldBack: [(String, String)] = []
        var outside: [String: String] = [:]
        let targets = result.targets
        // A file without the ATS dict has no target yet: worked out once, for the first scope that asks.
        var scopeTarget: DeploymentTarget?? = target.map { $0 }
        let passes = unscoped.filter { pass, scope in
            guard let scope else { return true }
            if scopeTarget == nil { scopeTarget = .some(Self.deploymentTarget(context, claimedBy: targets, root: root)) }
            switch Self.verdict(scope, path: context.lookups.diffPath() ?? context.path, targets: targets, target: scopeTarget!) {
            case nil: return true
            case .outside(let reason)?: outside[pass.id] = reason
            case .heldBack(let reason)?: heldBack.append((pass.id, reason))
            }
            return false
        }.map(\.0)
        result.outOfScope = outside
        return (passes, heldBack)
    }

    /// The passes held back on this file and why: by policy, by their gate, by their scope.
    private func sayHeldBack<Lookups>(
        _ rounds: PassRounds<Lookups>, duplicates: [Diagnostic]?, scope: [(String, String)], into result: inout FileResult
    ) {
        result.heldBack = duplicates == nil
            ? heldBackThatWouldChange(rounds.document, appTransportSecurity: rounds.ats, outline: rounds.outline()) : []
        for id in result.heldBack {
            result.heldBackReasons[id] = "changes the effective policy (changesPolicy); " + Self.allowPolicyChangeIncludesIt
        }
        // In the plan's order; most files have none to say (then the plan is not walked).
        for migration in rounds.heldBack.isEmpty ? [] : plan.selected where rounds.heldBack[migration.id] != nil {
            result.heldBack.append(migration.id)
            result.heldBackReasons[migration.id] = rounds.heldBack[migration.id]
        }
        for (id, reason) in scope {
            result.heldBack.append(id)
            result.heldBackReasons[id] = reason
        }
    }

    /// Recipe passes that still changed the file after the last round: the recipe's doing.
    private static func unsettled(_ recipes: [String], _ partial: FileResult) -> FileResult {
        var result = partial
        result.status = .error
        result.error = FileError("\(recipes.joined(separator: ", ")) still changed the file after \(maximumRounds) rounds: "
            + "the steps undo one another (or another pass's edits), so no run would leave the file settled; file left untouched")
        return result
    }

    /// The deployment target that counts for a file, first found of: `--min-os` or a config;
    /// the targets whose Info.plist it is (the lowest of them); the plist's own
    /// `MinimumOSVersion`/`LSMinimumSystemVersion`; for a file no project claims, the nearest
    /// project's; else none (every era counts).
    private static func deploymentTarget<Lookups>(
        _ context: FileContext<Lookups>, claimedBy targets: [ProjectTarget], root: RootKeys
    ) -> DeploymentTarget? {
        deploymentTarget(given: context.deploymentTarget, claimedBy: targets, own: { deploymentTarget(declaredIn: root) },
                         nearest: { context.lookups.projectTarget() })
    }

    /// The order above, for every command that needs a file's deployment target.
    static func deploymentTarget(
        given: DeploymentTarget?, claimedBy targets: [ProjectTarget], own: () -> DeploymentTarget?, nearest: () -> DeploymentTarget?
    ) -> DeploymentTarget? {
        if let given { return given }
        let claimed = targets.compactMap(\.deploymentTarget)
        if !claimed.isEmpty { return DeploymentTarget.lowest(claimed, source: claimed.map(\.source).joined(separator: ", ")) }
        if let own = own() { return own }
        return targets.isEmpty ? nearest() : nil
    }

    /// The file's tree, or `nil` with the result saying why it is skipped or an error.
    private func parse<Lookups>(_ bytes: [UInt8], _ context: FileContext<Lookups>, into result: inout FileResult) -> PlistDocument? {
        do {
            if context.skipIfNotApplicable, let reason = skipReasonWithoutTree(bytes) {
                result.status = .skipped
                result.skipReason = reason
                return nil
            }
            if let parsed = context.parsed, parsed.revision == 0 { return parsed }
            return try PlistDocument(parsing: bytes)
        } catch {
            if context.skipIfNotApplicable, let reason = Self.skipReason(error.kind) {
                result.status = .skipped
                result.skipReason = reason
            } else {
                result.status = .error
                result.error = FileError(error.message, at: error.location)
            }
            return nil
        }
    }

    /// The passes of one file, run in order and again until a whole round changes nothing: a
    /// pass may produce what an earlier one fixes (ATS005 repairs a misspelled
    /// NSExceptionDomains after ATS001 and ATS004 ran), and one run must leave nothing for the
    /// next. Each application keeps its own diff. The conflicts reported are those of the last
    /// round, the one that changed nothing: they describe the file as it is left.
    private final class PassRounds<Lookups: FileLookups> {
        let migrator: FileMigrator
        let context: FileContext<Lookups>
        let eras: [OSEra]
        /// How policy lines name the eras: for the platforms of `target`.
        let labels: EraLabels
        let target: DeploymentTarget?
        let duplicates: [Diagnostic]?
        // The rounds of a file run on one thread: the runtime's exclusivity checks on these
        // (one per access, several per pass) are left out.
        /// What the rounds add to the file's result: the passes applied, what they said (of the
        /// last round), the kinds of change a review did not accept. Only these, so that the
        /// result is not copied in and out.
        @exclusivity(unchecked) var applied: [PassResult] = []
        @exclusivity(unchecked) var diagnostics: [Diagnostic] = []
        @exclusivity(unchecked) var notAcceptedGroups: [String] = []
        @exclusivity(unchecked) var document: PlistDocument
        @exclusivity(unchecked) var current: [UInt8]
        /// The ATS dict; set again when holding a pass back replaces the tree.
        var ats: PlistElement? { didSet { outlineRead = nil } }
        /// The ATS dict's outline and the tree's revision it was read at (for this `ats`).
        private var outlineRead: (revision: Int, outline: ATSOutline)?
        @exclusivity(unchecked) var configuration: ATSConfiguration?
        @exclusivity(unchecked) var heldBack: [String: String] = [:]
        @exclusivity(unchecked) var plannedEdits: [PlannedEdit] = []
        /// Taken just before the first edit, so files no pass touches pay nothing for them.
        let firstEdit = FirstEditSnapshot()
        var firstEditTaken = false
        /// One closure for every session until then (the tree is not replaced before the first
        /// edit), called from each pass's own before-first-edit hook. It captures the tree, not
        /// this object's variables.
        let takeFirstEdit: () -> Void
        /// The tree just before the running pass's first edit: what holding the pass back restores.
        private var beforePass: PlistDocument?
        /// Every session's hook before its first edit: the file's snapshot when none is taken yet,
        /// then the tree as the pass found it. One closure for the file, not one per pass.
        private lazy var beforeFirstEdit: () -> Void = { [unowned self] in
            if firstEdit.document == nil { takeFirstEdit() }
            beforePass = document.copy()
        }
        /// The domain rules read so far, so that the ATS settings read after a pass read again
        /// only the domains it edited; only for a large file (`bytesWorthARuleCache`: a few
        /// domains cost less read again than followed).
        let ruleCache: ATSConfiguration.DomainRuleCache?
        private var resolvedDiffPath: String?

        init(migrator: FileMigrator, document: PlistDocument, bytes: [UInt8], root: RootKeys, outline: ATSOutline,
             target: DeploymentTarget?, eras: [OSEra], duplicates: [Diagnostic]?, context: FileContext<Lookups>) {
            self.migrator = migrator
            self.document = document
            self.current = bytes
            self.ats = root.appTransportSecurityDict
            outlineRead = (document.revision, outline)
            self.target = target
            self.eras = eras
            labels = EraLabels(target)
            self.duplicates = duplicates
            self.context = context
            ruleCache = bytes.count > FileMigrator.bytesWorthARuleCache ? ATSConfiguration.DomainRuleCache() : nil
            let unedited = document, snapshot = firstEdit, cache = ruleCache
            takeFirstEdit = {
                snapshot.document = unedited.copy()
                snapshot.configuration = ATSConfiguration(document: unedited, reusing: cache)
            }
        }

        /// The path diff headers name, asked of the caller once a pass changed the file.
        func headerPath() -> String {
            if let resolvedDiffPath { return resolvedDiffPath }
            let found = context.lookups.diffPath() ?? context.path
            resolvedDiffPath = found
            return found
        }

        enum Ending {
            case settled
            /// A bug in a built-in pass or the engine.
            case bug(String)
            /// Recipe passes (these ids) that undo one another: the user's recipe, not a bug.
            case unsettled([String])
        }

        /// Rounds until no pass changes the file. A round after the first runs a pass only where
        /// it could find something new: a pass after the last one that changed the file in the
        /// round before, with nothing changed yet in this round, last ran on these very bytes,
        /// and what it said then (its diagnostics, its reason to be held back) stands.
        func run(_ passes: [any Migration]) -> Ending {
            var round = 0
            var changing: [any Migration] = passes
            var lastChanged = passes.count
            // What each pass said and why it was held back, for the rounds after the first:
            // made when a pass first has something (most files have nothing to keep).
            var said: [ArraySlice<Diagnostic>] = []
            var heldBackBy: [String?] = []
            while !changing.isEmpty {
                round += 1
                guard round <= FileMigrator.maximumRounds else {
                    let recipes = changing.compactMap { $0 as? RecipePass }.map(\.id)
                    return recipes.isEmpty ? .bug("the passes did not settle after \(FileMigrator.maximumRounds) rounds") : .unsettled(recipes)
                }
                changing = []
                diagnostics = duplicates ?? []
                heldBack = [:]
                let settledAfter = lastChanged
                lastChanged = -1
                for (index, migration) in passes.enumerated() {
                    if round > 1, index > settledAfter, changing.isEmpty {
                        if !said.isEmpty { diagnostics += said[index] }
                        if !heldBackBy.isEmpty, let reason = heldBackBy[index] { heldBack[migration.id] = reason }
                        continue
                    }
                    let start = diagnostics.endIndex
                    switch apply(migration, round: round) {
                    case .changed:
                        changing.append(migration)
                        lastChanged = index
                    case .unchanged: break
                    case .failed(let failure): return .bug(failure)
                    }
                    let saidNow = diagnostics[start...]
                    if !said.isEmpty || !saidNow.isEmpty {
                        if said.isEmpty { said = Array(repeating: [], count: passes.count) }
                        said[index] = saidNow
                    }
                    let reason = heldBack.isEmpty ? nil : heldBack[migration.id]
                    if !heldBackBy.isEmpty || reason != nil {
                        if heldBackBy.isEmpty { heldBackBy = Array(repeating: nil, count: passes.count) }
                        heldBackBy[index] = reason
                    }
                }
            }
            return .settled
        }

        enum Outcome { case changed, unchanged, failed(String) }

        /// The ATS dict's outline as the tree is now, read once per revision.
        func outline() -> ATSOutline {
            if let outlineRead, outlineRead.revision == document.revision { return outlineRead.outline }
            let read = ATSOutline(appTransportSecurity: ats)
            outlineRead = (document.revision, read)
            return read
        }

        /// Held back for this file: the tree goes back to what it was before the pass.
        private func holdBack(_ migration: any Migration, because reason: String) -> Outcome {
            heldBack[migration.id] = reason
            // The tree as it was before the pass's first edit (a copy of its plain values), as
            // if the pass had not run: later passes' conflicts keep the lines of the file on
            // disk, which a tree parsed again from the bytes of this moment would not know. A
            // pass that edited without its session (no copy was taken) gets the bytes parsed.
            if let beforePass {
                document = beforePass
            } else {
                guard let restored = try? PlistDocument(parsing: current) else {
                    return .failed("could not restore the file after holding back \(migration.id)")
                }
                document = restored
            }
            ats = MigrationSession.appTransportSecurity(of: document)
            ruleCache?.clear()
            return .unchanged
        }

        /// Tells the rule cache which domains the session's edits reached; an edit it cannot
        /// place (of a whole domain dict or the ATS dict, or not recorded) empties it.
        private func noteEditedDomains(_ session: MigrationSession) {
            guard let cache = ruleCache, !cache.isEmpty else { return }
            // The tree changed through edits the session did not record (none at all: the pass
            // edited behind its back), which the write check refuses: nothing to follow.
            guard session.editCount > 0, session.editCount == session.plannedEdits.count else { return cache.clear() }
            for edit in session.plannedEdits {
                let container = edit.container
                // The keys it names (none for an item edit), worked out only for edits at the
                // top of the ATS dict: most edits lie inside one domain.
                guard container.first == .key(ATSKey.appTransportSecurity) else {
                    if container.isEmpty, edit.steps.contains(.key(ATSKey.appTransportSecurity)) { return cache.clear() }
                    continue
                }
                guard container.count >= 2 else {
                    let steps = edit.steps
                    if steps.contains(.key(ATSKey.exceptionDomains)) || steps.contains(.key(ATSKey.pinnedDomains)) { return cache.clear() }
                    continue
                }
                guard container[1] == .key(ATSKey.exceptionDomains) || container[1] == .key(ATSKey.pinnedDomains) else { continue }
                if container.count >= 3 {
                    // Inside one domain's dict.
                    guard case .key(let domain) = container[2] else { return cache.clear() }
                    cache.touch(domain)
                } else {
                    // A domain key itself.
                    let steps = edit.steps
                    guard steps.allSatisfy({ $0.key != nil }) else { return cache.clear() }
                    for case .key(let key) in steps { cache.touch(key) }
                }
                if cache.isEmpty { return }
            }
        }

        /// One pass on the tree: its edits gated by its intent (held back and undone when they
        /// go beyond it), and, when it changed the bytes, its diff.
        private func apply(_ migration: any Migration, round: Int) -> Outcome {
            beforePass = nil
            // Most ATS dicts hold a switch or two: passes with nothing to do there are not run.
            if migration.isInert(on: outline()) { return .unchanged }
            let session = MigrationSession(document: document, migration: migration, appTransportSecurity: ats,
                                           beforeFirstEdit: beforeFirstEdit)
            let revision = document.revision
            migration.apply(to: session)
            if !firstEditTaken, firstEdit.document != nil {
                firstEditTaken = true
                configuration = firstEdit.configuration
                // Held here from now on: the snapshot's copy would outlive it (a file of many
                // domains keeps three readings at once otherwise).
                firstEdit.configuration = nil
            }
            guard document.revision != revision else {
                // Most passes find nothing to say: appending nothing still costs a call.
                if !session.diagnostics.isEmpty { diagnostics += session.diagnostics }
                return .unchanged
            }
            noteEditedDomains(session)
            let next = document.bytes
            // By `memcmp`: `!=` on byte arrays compares one byte at a time.
            guard !next.bytesEqual(current) else {
                diagnostics += session.diagnostics
                plannedEdits += session.plannedEdits
                return .unchanged
            }
            if let declared = migration.rootKeys.map(Set.init), let edit = PlannedEdit.first(of: session.plannedEdits, touchingRootKeysOutside: declared) {
                let keys = migration.undeclaredRootKeys(edit).joined(separator: ", ")
                return .failed("\(migration.id) edited \(keys), outside the root keys it declares (\((migration.rootKeys ?? []).joined(separator: ", ")))")
            }
            let changed = ATSConfiguration(document: document, reusing: ruleCache)
            // Debug builds (the tests) check the cache against a reading of every domain.
            assert(changed == ATSConfiguration(document: document), "\(migration.id): the domain rule cache kept a stale rule")
            let delta = configuration.map { PolicyDelta.Readings(before: $0, after: changed, eras: eras, labels: labels) }
            if let before = configuration, let delta,
                let reason = migrator.overreach(migration, session, before: before, after: changed, delta: delta, target: target)
            {
                return holdBack(migration, because: reason)
            }
            let diff = context.gateOnly && migrator.accepted == nil ? nil : UnifiedDiff.make(from: current, to: next, path: headerPath())
            // What the page shows of the edit's effect is part of its kind: read once, for both.
            let policyDelta = diff == nil ? [] : delta?.lines() ?? []
            let group = diff.map { EditGroup.id(pass: migration.id, version: migration.version, diff: $0, policyDelta: policyDelta) }
            if let accepted = migrator.accepted, let group, !accepted.contains(group) {
                notAcceptedGroups.append(group)
                return holdBack(migration, because: "its edit here (\(group)) " + FileMigrator.notAcceptedReason)
            }
            diagnostics += session.diagnostics
            plannedEdits += session.plannedEdits
            if !context.gateOnly, let diff, let group {
                applied.append(PassResult(
                    id: migration.id, version: migration.version, name: migration.name,
                    impact: migration.impact, editCount: session.editCount, diff: diff,
                    // No snapshot means the pass edited behind its session's back; verify rejects that.
                    policyDelta: policyDelta, notes: session.notes,
                    round: round, group: group, result: context.recordsResults ? SHA256.digest(next) : nil,
                    plannedEdits: session.plannedEdits))
            }
            configuration = changed
            current = next
            return .changed
        }
    }

    /// The tree and its ATS settings as they were just before a file's first edit (the
    /// settings until the pass that made the edit takes them over).
    final class FirstEditSnapshot {
        // Used by one thread, and read after every pass: no runtime exclusivity checks.
        @exclusivity(unchecked) var document: PlistDocument?
        @exclusivity(unchecked) var configuration: ATSConfiguration?
    }

    /// Why the policy delta of `migration`'s edits on this file goes beyond its declared intent,
    /// or `nil` when it stays inside it (or the pass was opted in to any change).
    fileprivate func overreach(
        _ migration: any Migration, _ session: MigrationSession, before: ATSConfiguration, after: ATSConfiguration,
        delta: PolicyDelta.Readings, target: DeploymentTarget?
    ) -> String? {
        guard migration.intent != .anyChange else { return nil }
        let optedIn = plan.policyChangeAllowed.contains(migration.id)
        if optedIn && migration.intent != .provablyNoPolicyChange { return nil }
        // Nothing changes: no change can lie outside the edits' reach, which is not worked out.
        guard !delta.isEmpty else { return nil }
        var reach = PolicyReach.nothing
        if migration.intent == .editedSettingsTakeEffect {
            // Listed only when an edit names `NSExceptionDomains` or `NSPinnedDomains` itself.
            var listed: [String]?
            let domainKeys = {
                if let listed { return listed }
                let keys = (before.exceptionDomains + before.pinnedDomains + after.exceptionDomains + after.pinnedDomains).map(\.key)
                listed = keys
                return keys
            }
            for edit in session.plannedEdits { Self.widen(&reach, by: edit, domainKeys: domainKeys) }
        }
        let inside = reach.matcher()
        guard delta.hasChanges(include: { !inside($0, $1) }) else { return nil }
        let outside = delta.lines(include: { !inside($0, $1) })
        guard outside != ["no policy change"] else { return nil }
        let shown = outside.prefix(2).joined(separator: "; and ") + (outside.count > 2 ? "; and \(outside.count - 2) more" : "")
        let unknown = target == nil ? " (no deployment target known, so every OS counts: give --min-os or minimumOS)" : ""
        let verb = migration.intent == .provablyNoPolicyChange ? "would change" : "would also change"
        let remedy = migration.intent == .provablyNoPolicyChange
            ? "it runs only where the policy stays the same on every supported OS"
            : Self.allowPolicyChangeIncludesIt
        return "\(verb) \(shown)\(unknown); \(remedy)"
    }

    /// Widens `reach` by the keys `edit` touches (`PlannedEdit.touchedKeys`). The usual edit,
    /// of a dict inside the ATS dict reached through keys alone, is read off its container
    /// without making the path of each key (a pass editing 10,000 domains makes 15,000 edits).
    static func widen(_ reach: inout PolicyReach, by edit: PlannedEdit, domainKeys: () -> [String]) {
        let container = edit.container
        var keys: (String, String?)?
        switch edit {
        case .rename(_, let from, let to): keys = (from, to)
        case .remove(_, let key), .insert(_, let key, _), .replace(_, let key, _): keys = (key, nil)
        case .removeItem, .insertItem, .replaceItem: keys = nil
        }
        guard let keys, container.first == .key(ATSKey.appTransportSecurity), container.allSatisfy({ $0.key != nil }) else {
            for (dict, key) in edit.touchedKeys { reach.add(key: key, inDict: dict, domainKeys: domainKeys()) }
            return
        }
        let domain = container.count >= 3 ? container[2].key : nil
        reach.add(key: keys.0, depthInATS: container.count - 1, domain: domain, domainKeys: domainKeys)
        if let second = keys.1 { reach.add(key: second, depthInATS: container.count - 1, domain: domain, domainKeys: domainKeys) }
    }

    /// `MinimumOSVersion` (iOS, tvOS, visionOS apps) and `LSMinimumSystemVersion` (macOS) in
    /// the plist itself, when they hold a version rather than a build-setting reference.
    static func deploymentTarget(declaredIn document: PlistDocument) -> DeploymentTarget? {
        deploymentTarget(declaredIn: RootKeys(document, declared: []))
    }

    private static func deploymentTarget(declaredIn root: RootKeys) -> DeploymentTarget? {
        var targets: [DeploymentTarget] = []
        var keys: [String] = []
        let ownPlatform = root.marksAWatchApp ? "watchos" : "ios"
        for (key, platform, found) in [("MinimumOSVersion", ownPlatform, root.minimumOSVersion), ("LSMinimumSystemVersion", "macos", root.minimumSystemVersion)] {
            guard let value = found, value.kind == .string else { continue }
            let text = value.text
            // Printable ASCII (nearly every version) holds no whitespace to take out.
            let version = text.utf8AllSatisfy { $0 > 0x20 && $0 < 0x7F } ? text : text.filter { !$0.isWhitespace }
            guard let target = DeploymentTarget(platform: platform, version: version, source: "") else { continue }
            targets.append(target)
            keys.append(key)
        }
        guard !targets.isEmpty else { return nil }
        return DeploymentTarget.lowest(targets, source: "the plist's " + keys.joined(separator: " and "))
    }

    #if DEBUG
    /// Debug builds (the tests) follow the edits of every file, so that the check of the rule
    /// cache against a full reading reaches every pass.
    static let bytesWorthARuleCache = -1
    #else
    /// A file of many domains (64 take about 10 KB): in a smaller one, following the edits
    /// costs more than reading every domain again.
    static let bytesWorthARuleCache = 16_384
    #endif

    /// How the reason of a pass held back ends when `--allow-policy-change` would include it
    /// (the summary's next step counts those files by it).
    static let allowPolicyChangeIncludesIt = "--allow-policy-change includes it"

    /// How a pass held back by `accepted` ends its reason.
    static let notAcceptedReason = "was not accepted in review"

    /// A file whose passes still change it after this many rounds is left alone as a bug: every
    /// pass is idempotent and none undoes another, so two or three rounds settle any real file.
    static let maximumRounds = 8

    private static func internalError(_ failure: String, _ partial: FileResult) -> FileResult {
        var result = partial
        result.status = .error
        result.error = FileError("internal error (a bug in plist-migrate, please report it): \(failure); file left untouched")
        result.output = result.original
        result.passes = []
        result.diagnostics = []
        return result
    }

    /// Duplicate keys where migrations work (the root's ATS key, and every dict inside the ATS
    /// value) make "the" entry ambiguous: Apple's reader keeps the last one. Such files are
    /// reported and left alone rather than guessed at.
    static func duplicateKeyDiagnostics(_ document: PlistDocument) -> [Diagnostic]? {
        duplicateKeyDiagnostics(RootKeys(document, declared: []), outline: nil)
    }

    private static func duplicateKeyDiagnostics(_ root: RootKeys, outline: ATSOutline?) -> [Diagnostic]? {
        // Switches alone, each once (most ATS dicts), under one ATS key: nothing to look for.
        if root.appTransportSecurity.count == 1, outline?.isSwitchesOnly == true { return nil }
        var diagnostics: [Diagnostic] = []
        func report(_ entry: DictEntry, firstAt first: PlistElement) {
            diagnostics.append(Diagnostic(
                migrationID: "plist-migrate", location: entry.key.location ?? SourceLocation(line: 1, column: 1),
                message: "duplicate key \"\(entry.name)\" (first at line \(first.location?.line ?? 0)); "
                    + "Apple's reader keeps the last one; resolve it by hand, the file is left as it is"))
        }
        func check(_ dict: PlistElement) {
            let entries = dict.entries
            // Small dicts (most of ATS) are compared pairwise, on the bytes; larger ones
            // through a set of their names, sized once, the first of a name looked for only
            // when it is met again (rare).
            let names = entries.count > 16 ? entries.map(\.name) : []
            var seen = Set<String>(minimumCapacity: names.count)
            for (index, entry) in entries.enumerated() {
                let first = entries.count <= 16
                    ? entries[..<index].first { $0.key.hasSameText(as: entry.key) }?.key
                    : seen.insert(names[index]).inserted ? nil : entries[names.firstIndex(of: names[index])!].key
                if let first { report(entry, firstAt: first) }
                if entry.value.kind == .dict { check(entry.value) }
            }
        }
        if let first = root.appTransportSecurity.first?.key {
            for entry in root.appTransportSecurity.dropFirst() { report(entry, firstAt: first) }
        }
        if let ats = root.appTransportSecurityDict { check(ats) }
        return diagnostics.isEmpty ? nil : diagnostics
    }

    /// What the engine asks of the root dict, found in one pass over its keys (a root dict can
    /// hold hundreds): every `NSAppTransportSecurity` entry, the last of each minimum-OS key,
    /// and whether any of the `declared` root keys is there. All empty when the root is not
    /// a dict.
    struct RootKeys {
        var appTransportSecurity: [DictEntry] = []
        var minimumOSVersion: PlistElement?
        var minimumSystemVersion: PlistElement?
        /// A key only a watch app's or watch extension's Info.plist holds: its
        /// `MinimumOSVersion` is a watchOS version.
        var marksAWatchApp = false
        var holdsADeclaredKey = false

        /// The ATS dict the passes edit: the last entry's value (Apple's reader keeps the last),
        /// when it is a dict.
        var appTransportSecurityDict: PlistElement? {
            appTransportSecurity.last.flatMap { $0.value.kind == .dict ? $0.value : nil }
        }

        /// The keys a file is read for: the three it is always asked about, then the declared
        /// keys that are not among them; and which of them are declared.
        struct Names: Sendable {
            static let asked = [ATSKey.appTransportSecurity, "MinimumOSVersion", "LSMinimumSystemVersion"]
            static let watchAppKeys = ["WKApplication", "WKWatchKitApp", "WKWatchOnly", "WKExtensionDelegateClassName"]
            let names: [String]
            let isDeclared: [Bool]

            init(declared: [String]) {
                let names = Self.asked + declared.filter { !Self.asked.contains($0) }
                self.names = names
                // The ATS key may be declared too (the built-in passes declare it).
                isDeclared = names.indices.map { $0 >= Self.asked.count || declared.contains(names[$0]) }
            }
        }

        init(_ document: PlistDocument, declared: [String]) {
            self.init(document, Names(declared: declared))
        }

        init(_ document: PlistDocument, _ names: Names) {
            document.rootValue.forEachEntry(named: names.names) { name, entry in
                switch name {
                case 0: appTransportSecurity.append(entry)
                case 1: minimumOSVersion = entry.value
                case 2: minimumSystemVersion = entry.value
                default: break
                }
                if names.isDeclared[name] { holdsADeclaredKey = true }
            }
            // Asked only of the few files that declare their own version (most leave it to the project).
            if minimumOSVersion != nil {
                document.rootValue.forEachEntry(named: Names.watchAppKeys) { _, _ in marksAWatchApp = true }
            }
        }
    }

    /// For a file found by walking: why it can be skipped without any XML parse, or `nil` when
    /// it needs the full parse. A file that cannot hold the ATS key is never edited, and whether
    /// an unrelated plist is well-formed is not this tool's business (repositories keep broken
    /// test fixtures on purpose).
    func skipReasonWithoutTree(_ bytes: [UInt8]) -> String? {
        if let reason = Self.notTextReason(bytes, markers: rootKeyMarkers) { return reason }
        guard let markers = rootKeyMarkers else { return nil }
        return Self.cannotHold(markers, bytes) ? noRootKeyReason : nil
    }

    private static let gitCrypt = Array("\0GITCRYPT\0".utf8)

    /// Why a walked file with NUL bytes is no UTF-8 text plist to work on: encrypted
    /// (git-crypt), UTF-16 or UTF-32 text that holds none of `markers` (with one, it gets the
    /// full parse, which refuses it with a hint to convert it), or binary. `nil` without NULs,
    /// and for text that holds one of `markers` (any plist, without markers) in spite of its
    /// NULs: that is a plist the run should read, and its parse says where it is broken (an
    /// error of the file, never a silent skip).
    static func notTextReason(_ bytes: [UInt8], markers: [[UInt8]]?) -> String? {
        let hasNUL = bytes.withUnsafeBytes { $0.baseAddress.map { memchr($0, 0, bytes.count) != nil } ?? false }
        guard hasNUL, !bytes.starts(with: Array("bplist".utf8)) else { return nil }
        if bytes.starts(with: gitCrypt) { return "encrypted (git-crypt)" }
        if let (text, name) = wideText(bytes) {
            guard let markers else { return "\(name) text (convert it to UTF-8 to process it)" }
            let utf8 = Array(text.utf8)
            return cannotHold(markers, utf8) ? "\(name) text, none of the keys the passes edit" : nil
        }
        if let markers { return cannotHold(markers, bytes) ? "binary (NUL bytes)" : nil }
        return bytes.containsBytes(plistElement) ? nil : "binary (NUL bytes)"
    }

    private static let plistElement = Array("<plist".utf8)

    /// UTF-16 or UTF-32 text (by its BOM, or by the NULs around an ASCII `<`), decoded.
    private static func wideText(_ bytes: [UInt8]) -> (String, String)? {
        let candidates: [(prefix: [UInt8], encoding: String.Encoding, name: String)] = [
            ([0x00, 0x00, 0xFE, 0xFF], .utf32BigEndian, "UTF-32"), ([0xFF, 0xFE, 0x00, 0x00], .utf32LittleEndian, "UTF-32"),
            ([0xFE, 0xFF], .utf16BigEndian, "UTF-16"), ([0xFF, 0xFE], .utf16LittleEndian, "UTF-16"),
            ([0x00, 0x00, 0x00, 0x3C], .utf32BigEndian, "UTF-32"), ([0x3C, 0x00, 0x00, 0x00], .utf32LittleEndian, "UTF-32"),
            ([0x00, 0x3C], .utf16BigEndian, "UTF-16"), ([0x3C, 0x00], .utf16LittleEndian, "UTF-16"),
        ]
        for candidate in candidates where bytes.starts(with: candidate.prefix) {
            guard let text = String(data: Data(bytes), encoding: candidate.encoding) else { return nil }
            return (text, candidate.name)
        }
        return nil
    }

    /// True when no spelling of any of the `keys` can be in `bytes`: neither the plain name nor
    /// a character reference or CDATA section that could spell it. UTF-16 and UTF-32 text
    /// spells it with NUL bytes between the letters, so such files always get the full parse
    /// (which names their encoding).
    static func cannotHold(_ keys: [[UInt8]], _ bytes: [UInt8]) -> Bool {
        if bytes.prefix(4).contains(0) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return false
        }
        return !keys.contains(where: bytes.containsBytes) && !bytes.containsBytes(characterReference)
            && !bytes.containsBytes(cdata)
    }

    private static let characterReference = Array("&#".utf8), cdata = Array("[CDATA[".utf8)

    /// `NSAppTransportSecurity` holds `NSAppTransport`; the shorter marker is what
    /// `cannotHold` looks for in files the built-in passes alone may edit.
    static func cannotHoldAppTransportSecurity(_ bytes: [UInt8]) -> Bool {
        cannotHold([atsMarker], bytes)
    }

    /// Why a walked file whose parse failed this way is skipped rather than an error: it is not
    /// an XML plist, or Xcode preprocesses it (the repository builds fine).
    static func skipReason(_ kind: ParseError.Kind) -> String? {
        switch kind {
        case .notAPropertyList: "not an XML property list"
        case .preprocessed: "preprocessed Info.plist (#if directives)"
        case .unsupported, .malformed: nil
        }
    }

    private static let atsMarker = Array("NSAppTransport".utf8)


    /// Which held-back passes would edit the finished tree: probes, which change nothing.
    private func heldBackThatWouldChange(_ document: PlistDocument, appTransportSecurity ats: PlistElement?, outline: ATSOutline) -> [String] {
        plan.heldBack.compactMap { migration in
            // Most files' ATS dict tells without a run.
            if let known = migration.wouldEdit(on: outline) { return known ? migration.id : nil }
            let probe = MigrationSession(document: document, migration: migration, probeOnly: true, appTransportSecurity: ats)
            migration.apply(to: probe)
            return probe.wouldEdit ? migration.id : nil
        }
    }

    /// Whether every byte outside the root ATS value is the same (for tests of ATS-only runs).
    static func verifyBytesOutsideATS(original: [UInt8], output: [UInt8]) -> String? {
        guard let before = try? PlistDocument(parsing: original), let after = try? PlistDocument(parsing: output)
        else { return "a file does not parse" }
        guard let oldRange = atsEntryRange(in: before), let newRange = atsEntryRange(in: after),
            original[..<oldRange.lowerBound] == output[..<newRange.lowerBound],
            original[oldRange.upperBound...] == output[newRange.upperBound...]
        else { return "bytes outside NSAppTransportSecurity changed" }
        return nil
    }

    /// Byte range of the root ATS entry's value, located by printing the document up to it.
    private static func atsEntryRange(in document: PlistDocument) -> Range<Int>? {
        guard let value = document.rootValue[key: ATSKey.appTransportSecurity] else { return nil }
        return document.byteRange(of: value)
    }
}
