import ATSPolicy
import Migrations
import PlistDOM

/// Runs a plan's passes over one file's bytes, in order, on one tree, and keeps a snapshot
/// after each pass so each pass gets its own diff.
///
/// Before anything may be written, the output is checked independently of the edit code
/// (`verify`): libxml2 re-reads all of it, every byte outside the root `NSAppTransportSecurity`
/// value must be identical, and that value, parsed again, must equal the input's with exactly
/// the recorded edits applied.
public struct FileMigrator: Sendable {
    public let plan: MigrationPlan

    public init(plan: MigrationPlan) {
        self.plan = plan
    }

    /// - Parameter skipIfNotApplicable: for files found by walking: a file that is not an XML
    ///   plist, or has no root ATS dict, is `skipped` rather than an error/unchanged.
    ///   - deploymentTarget: the app's, from `--min-os`, a config or a project; without one, the
    ///     plist's own `MinimumOSVersion`/`LSMinimumSystemVersion`, else every OS era.
    ///   - parsed: `bytes` already parsed, unedited, for a caller that has the tree (it is edited).
    ///   - projectTarget: without `deploymentTarget`, asked for the project's only once the file
    ///     is known to hold the ATS dict.
    public func migrate(
        _ bytes: [UInt8], path: String, skipIfNotApplicable: Bool, deploymentTarget: DeploymentTarget? = nil,
        diffPath: String? = nil, parsed: PlistDocument? = nil, projectTarget: (() -> DeploymentTarget?)? = nil
    ) -> FileResult {
        var result = FileResult(path: path, status: .unchanged)
        result.diffPath = diffPath ?? path
        result.original = bytes
        result.output = bytes
        var document: PlistDocument
        do {
            if skipIfNotApplicable, let reason = Self.skipReasonWithoutTree(bytes) {
                result.status = .skipped
                result.skipReason = reason
                return result
            }
            if let parsed, parsed.revision == 0 {
                document = parsed
            } else {
                document = try PlistDocument(parsing: bytes)
            }
        } catch {
            if skipIfNotApplicable, let reason = Self.skipReason(error.kind) {
                result.status = .skipped
                result.skipReason = reason
            } else {
                result.status = .error
                result.error = FileError(error.message, at: error.location)
            }
            return result
        }
        guard hasAppTransportSecurity(document) else {
            if skipIfNotApplicable {
                result.status = .skipped
                result.skipReason = "no NSAppTransportSecurity"
            }
            return result
        }

        let target = deploymentTarget ?? projectTarget?() ?? Self.deploymentTarget(declaredIn: document)
        result.deploymentTarget = target
        result.hasAppTransportSecurity = true
        let eras = target?.supportedEras ?? OSEra.allCases
        if let duplicates = Self.duplicateKeyDiagnostics(document) {
            result.diagnostics = duplicates
            return result
        }
        var plannedEdits: [PlannedEdit] = []
        // Taken just before the first edit, so files no pass touches pay nothing for them.
        var originalValue: PlistValue?
        var originalATSRange: Range<Int>?
        var configuration: ATSConfiguration?
        var current = bytes
        var ats = MigrationSession.appTransportSecurity(of: document)
        var heldBack: [String: String] = [:]
        // The passes run in order, and again, until a whole round changes nothing: a pass may
        // produce what an earlier one fixes (ATS005 repairs a misspelled NSExceptionDomains
        // after ATS001 and ATS004 ran), and one run must leave nothing for the next. Each
        // application keeps its own diff. The conflicts reported are those of the last round,
        // the one that changed nothing: they describe the file as it is left.
        var round = 0
        var roundChanged = true
        while roundChanged {
            round += 1
            guard round <= Self.maximumRounds else {
                return Self.internalError("the passes did not settle after \(Self.maximumRounds) rounds", result)
            }
            roundChanged = false
            result.diagnostics = []
            heldBack = [:]
            for migration in plan.selected {
                let session = MigrationSession(document: document, migration: migration, appTransportSecurity: ats)
                if originalValue == nil {
                    session.beforeFirstEdit = {
                        originalValue = Self.atsValue(document)
                        originalATSRange = Self.atsEntryRange(in: document)
                        configuration = ATSConfiguration(document: document)
                    }
                }
                let revision = document.revision
                migration.apply(to: session)
                guard document.revision != revision else {
                    result.diagnostics += session.diagnostics
                    continue
                }
                let next = document.bytes
                guard next != current else {
                    result.diagnostics += session.diagnostics
                    plannedEdits += session.plannedEdits
                    continue
                }
                let changed = ATSConfiguration(document: document)
                let delta = configuration.map { PolicyDelta.Changes(before: $0, after: changed, eras: eras) }
                if let before = configuration, let delta,
                    let reason = overreach(migration, session, before: before, after: changed, delta: delta, target: target)
                {
                    // Held back for this file: the tree goes back to the bytes before the pass.
                    heldBack[migration.id] = reason
                    guard let restored = try? PlistDocument(parsing: current) else {
                        return Self.internalError("could not restore the file after holding back \(migration.id)", result)
                    }
                    document = restored
                    ats = MigrationSession.appTransportSecurity(of: document)
                    continue
                }
                result.diagnostics += session.diagnostics
                plannedEdits += session.plannedEdits
                roundChanged = true
                if let diff = UnifiedDiff.make(from: current, to: next, path: result.diffPath) {
                    result.passes.append(PassResult(
                        id: migration.id, version: migration.version, name: migration.name,
                        impact: migration.impact, editCount: session.editCount, diff: diff,
                        // No snapshot means the pass edited behind its session's back; verify rejects that.
                        policyDelta: delta?.lines() ?? [],
                        round: round))
                }
                configuration = changed
                current = next
            }
        }
        result.output = current
        if current != bytes {
            if let failure = Self.verify(original: bytes, originalValue: originalValue, atsRange: originalATSRange,
                                         output: current, edits: plannedEdits) {
                return Self.internalError(failure, result)
            }
            result.status = .changed
        }
        result.heldBack = heldBackThatWouldChange(document, appTransportSecurity: ats)
        for id in result.heldBack {
            result.heldBackReasons[id] = "changes the effective policy (changesPolicy); --allow-policy-change includes it"
        }
        for migration in plan.selected where heldBack[migration.id] != nil {
            result.heldBack.append(migration.id)
            result.heldBackReasons[migration.id] = heldBack[migration.id]
        }
        return result
    }

    /// Why the policy delta of `migration`'s edits on this file goes beyond its declared intent,
    /// or `nil` when it stays inside it (or the pass was opted in to any change).
    private func overreach(
        _ migration: any Migration, _ session: MigrationSession, before: ATSConfiguration, after: ATSConfiguration,
        delta: PolicyDelta.Changes, target: DeploymentTarget?
    ) -> String? {
        guard migration.intent != .anyChange else { return nil }
        let optedIn = plan.policyChangeAllowed.contains(migration.id)
        if optedIn && migration.intent != .provablyNoPolicyChange { return nil }
        var reach = PolicyReach.nothing
        if migration.intent == .editedSettingsTakeEffect {
            let domainKeys = (before.exceptionDomains + before.pinnedDomains + after.exceptionDomains + after.pinnedDomains).map(\.key)
            for edit in session.plannedEdits {
                for (dict, key) in edit.touchedKeys {
                    reach.formUnion(.of(key: key, inDict: dict, domainKeys: domainKeys))
                }
            }
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
            : "--allow-policy-change includes it"
        return "\(verb) \(shown)\(unknown); \(remedy)"
    }

    /// `MinimumOSVersion` (iOS, tvOS, visionOS apps) and `LSMinimumSystemVersion` (macOS) in
    /// the plist itself, when they hold a version rather than a build-setting reference.
    static func deploymentTarget(declaredIn document: PlistDocument) -> DeploymentTarget? {
        let root = document.rootValue
        guard root.name == "dict" else { return nil }
        var targets: [DeploymentTarget] = []
        var keys: [String] = []
        for (key, platform) in [("MinimumOSVersion", "ios"), ("LSMinimumSystemVersion", "macos")] {
            guard let value = root[key: key], value.name == "string" else { continue }
            let version = value.text.filter { !$0.isWhitespace }
            guard let target = DeploymentTarget(platform: platform, version: version, source: "") else { continue }
            targets.append(target)
            keys.append(key)
        }
        return DeploymentTarget.lowest(targets, source: "the plist's " + keys.joined(separator: " and "))
    }

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
        var diagnostics: [Diagnostic] = []
        func report(_ entry: DictEntry, firstAt first: PlistElement) {
            diagnostics.append(Diagnostic(
                migrationID: "plist-migrate", location: entry.key.location ?? SourceLocation(line: 1, column: 1),
                message: "duplicate key \"\(entry.name)\" (first at line \(first.location?.line ?? 0)); "
                    + "Apple's reader keeps the last one; resolve it by hand, the file is left as it is"))
        }
        func check(_ dict: PlistElement) {
            let entries = dict.entries
            // Small dicts (most of ATS) are compared pairwise; larger ones through a table.
            var seen: [String: PlistElement] = [:]
            for (index, entry) in entries.enumerated() {
                let first = entries.count <= 16
                    ? entries[..<index].first { $0.name == entry.name }?.key
                    : seen[entry.name]
                if let first {
                    report(entry, firstAt: first)
                } else if entries.count > 16 {
                    seen[entry.name] = entry.key
                }
                if entry.value.name == "dict" { check(entry.value) }
            }
        }
        var firstATS: PlistElement?
        for entry in document.rootValue.entries where entry.name == ATSKey.appTransportSecurity {
            if let first = firstATS { report(entry, firstAt: first) } else { firstATS = entry.key }
        }
        if let ats = document.rootValue[key: ATSKey.appTransportSecurity], ats.name == "dict" { check(ats) }
        return diagnostics.isEmpty ? nil : diagnostics
    }

    /// For a file found by walking: why it can be skipped without any XML parse, or `nil` when
    /// it needs the full parse. A file that cannot hold the ATS key is never edited, and whether
    /// an unrelated plist is well-formed is not this tool's business (repositories keep broken
    /// test fixtures on purpose).
    static func skipReasonWithoutTree(_ bytes: [UInt8]) -> String? {
        cannotHoldAppTransportSecurity(bytes) ? "no NSAppTransportSecurity" : nil
    }

    /// True when no spelling of the key `NSAppTransportSecurity` can be in `bytes`: neither the
    /// plain name nor a character reference or CDATA section that could spell it. UTF-16 and
    /// UTF-32 text spells it with NUL bytes between the letters, so such files always get the
    /// full parse (which names their encoding).
    static func cannotHoldAppTransportSecurity(_ bytes: [UInt8]) -> Bool {
        if bytes.prefix(4).contains(0) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return false
        }
        return !bytes.containsBytes(atsMarker) && !bytes.containsBytes(Array("&#".utf8)) && !bytes.containsBytes(Array("[CDATA[".utf8))
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

    private func hasAppTransportSecurity(_ document: PlistDocument) -> Bool {
        document.rootValue.name == "dict" && document.rootValue[key: ATSKey.appTransportSecurity] != nil
    }

    /// Which held-back passes would edit the finished tree: probes, which change nothing.
    private func heldBackThatWouldChange(_ document: PlistDocument, appTransportSecurity ats: PlistElement?) -> [String] {
        plan.heldBack.compactMap { migration in
            let probe = MigrationSession(document: document, migration: migration, probeOnly: true, appTransportSecurity: ats)
            migration.apply(to: probe)
            return probe.wouldEdit ? migration.id : nil
        }
    }

    /// Why `output` is not a safe rewrite of `original`, or `nil` when it is. Independent of
    /// the edit code, in three steps:
    /// 1. every byte outside the root ATS value is the original's (`atsRange`, taken before any
    ///    edit), which locates the new ATS value in the output;
    /// 2. the whole output is well-formed XML (libxml2 re-reads every byte);
    /// 3. the new ATS value, parsed on its own, is exactly one valid plist value, and equals the
    ///    original ATS value with exactly the recorded `edits` applied.
    /// The original was a valid plist and only one value element was swapped for another, so
    /// the output is a valid plist too: no tree of the unchanged part needs building again.
    static func verify(
        original: [UInt8], originalValue: PlistValue?, atsRange oldRange: Range<Int>?, output: [UInt8], edits: [PlannedEdit]
    ) -> String? {
        let oldRange = oldRange ?? (try? PlistDocument(parsing: original)).flatMap { atsEntryRange(in: $0) }
        guard let oldRange else { return "the original has no NSAppTransportSecurity value" }
        let suffixCount = original.count - oldRange.upperBound
        guard output.count >= oldRange.lowerBound + suffixCount,
            original[..<oldRange.lowerBound] == output[..<oldRange.lowerBound],
            original[oldRange.upperBound...] == output[(output.count - suffixCount)...]
        else { return "bytes outside NSAppTransportSecurity changed" }
        do {
            try PlistDocument.checkWellFormed(output)
        } catch {
            return "the rewritten file does not parse (\(error))"
        }
        let newValue = output[oldRange.lowerBound..<(output.count - suffixCount)]
        let open = Array("<plist>".utf8)
        let fragment: PlistDocument
        do {
            fragment = try PlistDocument(parsing: open + newValue + Array("</plist>".utf8))
        } catch {
            return "the rewritten NSAppTransportSecurity value does not parse (\(error))"
        }
        // Exactly one element, nothing around it: the bytes between the fixed parts are the value.
        guard fragment.byteRange(of: fragment.rootValue) == open.count..<(open.count + newValue.count) else {
            return "bytes outside NSAppTransportSecurity changed"
        }
        // Identical bytes around the ATS value mean identical values there, so only the ATS
        // subtree is compared: the original's, as read before any edit (snapshot taken by the
        // first session that edits; without one, parse the original), with the edits applied.
        guard let before = originalValue ?? (try? PlistDocument(parsing: original)).map(atsValue) else {
            return "the original does not parse"
        }
        let after = PlistValue.dict([ATSKey.appTransportSecurity: fragment.value])
        guard after == PlannedEdit.apply(edits, to: before) else {
            return "the rewritten values differ from the planned edits"
        }
        return nil
    }

    /// `{NSAppTransportSecurity: value}`: the part of the value tree migrations may change, in
    /// the shape the recorded edit paths (from the root) expect.
    static func atsValue(_ document: PlistDocument) -> PlistValue {
        guard let ats = document.rootValue[key: ATSKey.appTransportSecurity] else { return .dict([:]) }
        return .dict([ATSKey.appTransportSecurity: PlistValue(ats)])
    }

    /// The byte-level part of `verify` alone, for callers without recorded edits.
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
