import ATSPolicy
import Foundation
import Migrations
import PlistDOM
import Project
import FileAccess

/// ATS settings where a generator keeps them: XcodeGen's `project.yml`
/// (`targets.<name>.info.properties`, which `xcodegen generate` writes into the target's
/// Info.plist) and Expo's `app.json` (`expo.ios.infoPlist`). The passes run on a plist made of
/// the settings, as the generator writes it, with the file's deployment target; each pass's
/// value edits are then made in the file's own bytes (`SourceEdits`), with a diff of the file
/// per pass, and the result is checked as a plist's is: every byte outside the settings is the
/// original's, and the settings read back are the original's with exactly those edits.
enum GeneratedSettings {
    /// One place in a file that holds the settings a generator writes into one Info.plist.
    struct Unit {
        /// From the file's root to the Info.plist's properties (`targets`, `App`, `info`, `properties`).
        var properties: [PathStep]
        /// `targets.App.info.properties`, as people read it.
        var label: String
        /// The XcodeGen target (for its deployment target).
        var target: String?
        /// The Info.plist the generator writes, as the file names it.
        var generatedPlist: String?

        /// Its XcodeGen target's deployment target, among the spec's `targets`.
        func deploymentTarget(in targets: [ProjectTarget]) -> DeploymentTarget? {
            target.flatMap { name in targets.first { $0.name == name }?.deploymentTarget }
        }
    }

    /// The targets of the XcodeGen spec at `file` (none for Expo, or read from standard input).
    static func specTargets(_ file: String?, format: SourceEdits.Format) -> [ProjectTarget] {
        guard format == .yaml, let file else { return [] }
        return (try? XcodeGenReader.targets(projectYML: FileIO.absolute(file), display: { $0 })) ?? []
    }

    /// The generators' files a walk reads, by name.
    static let fileNames: Set<String> = ["project.yml", "project.yaml", "app.json"]

    static func isSettingsFile(_ path: String) -> Bool {
        fileNames.contains(String(path.split(separator: "/").last ?? ""))
    }

    static func format(of path: String) -> SourceEdits.Format? {
        if path.hasSuffix(".yml") || path.hasSuffix(".yaml") { return .yaml }
        if path.hasSuffix(".json") { return .json }
        return nil
    }

    /// The bytes of the key, which a file without it cannot hold anywhere.
    private static let atsMarker = Array(ATSKey.appTransportSecurity.utf8)

    /// Whether a generator's file (settings or code) names the ATS key at all.
    static func namesAppTransportSecurity(_ bytes: [UInt8]) -> Bool {
        bytes[...].firstOffset(of: atsMarker) != nil
    }

    /// A generator's file through the plan: a result like a plist's, its diffs of the file.
    /// `file`: the path to read the spec's targets from (`nil`: standard input). `passLimit`: only
    /// the first passes are applied (a review that accepted those), the rest held back.
    static func migrate<Lookups>(
        _ bytes: [UInt8], _ context: FileContext<Lookups>, file: String?, migrator: FileMigrator, format: SourceEdits.Format,
        passLimit: Int? = nil
    ) -> FileResult {
        var result = FileResult(path: context.path, status: .unchanged)
        result.original = bytes
        result.output = bytes
        func skipped(_ reason: String) -> FileResult {
            var skipped = result
            if context.skipIfNotApplicable { skipped.status = .skipped; skipped.skipReason = reason }
            return skipped
        }
        guard namesAppTransportSecurity(bytes) else { return skipped("no NSAppTransportSecurity") }
        let units: [Unit]
        do {
            units = try self.units(in: bytes, format: format)
        } catch {
            result.status = .error
            result.error = error
            return result
        }
        guard !units.isEmpty else {
            return skipped(format == .yaml ? "no NSAppTransportSecurity in a target's info.properties" : "no NSAppTransportSecurity in expo.ios.infoPlist")
        }
        result.hasAppTransportSecurity = true
        let targets = specTargets(file, format: format)
        var current = bytes
        var diffPath: String?
        for unit in units {
            let ats = unit.properties + [.key(ATSKey.appTransportSecurity)]
            let read: (value: SourceValue, line: Int, range: Range<Int>)
            do {
                guard let found = try settings(at: ats, in: current, format: format) else { continue }
                read = found
            } catch {
                result.notes.append("\(unit.label).NSAppTransportSecurity left as it is: \(error.message)")
                continue
            }
            let target = context.deploymentTarget ?? unit.deploymentTarget(in: targets)
                ?? (format == .json ? expoDeploymentTarget(current) : nil)
            let (plist, lines) = read.value.plist(under: ATSKey.appTransportSecurity, line: read.line)
            // Kinds a decision accepts are this file's kinds (of its own diffs): the passes all run on
            // the plist, and the file takes them while their kinds are accepted.
            let all = migrator.accepted == nil ? migrator : FileMigrator(plan: migrator.plan)
            let run = all.migrate(plist, FileContext(path: context.path, skipIfNotApplicable: false, deploymentTarget: target, lookups: NoLookups()))
            result.deploymentTarget = result.deploymentTarget ?? run.deploymentTarget
            result.heldBack += run.heldBack
            result.heldBackReasons.merge(run.heldBackReasons) { first, _ in first }
            result.notes += run.notes
            result.diagnostics += run.diagnostics.map { Self.placed($0, lines) }
            if run.status == .error {
                result.status = .error
                result.error = run.error.map { FileError("\(unit.label): \($0.message)", at: $0.location.map { Self.placed($0, lines) }) }
                return result
            }
            let finalOrder = try? PlistDocument(parsing: run.output)
            var unitEdits: [PlannedEdit] = []
            var atStart = current
            let produced = unit.generatedPlist.map { " \(ATSKey.appTransportSecurity) of \($0) is written from here" } ?? ""
            for pass in run.passes {
                if let passLimit, result.passes.count >= passLimit { break }
                var next = current
                do {
                    for edit in pass.plannedEdits {
                        next = try SourceEdits.apply(edit, to: next, format: format, prefix: unit.properties,
                                                     after: insertedAfter(edit, finalOrder: finalOrder, in: next, format: format, prefix: unit.properties))
                    }
                } catch {
                    result.notes.append("\(unit.label).NSAppTransportSecurity: \(pass.id) left out: "
                        + "\(error.message)\(error.line.map { " (line \($0))" } ?? ""); the file is not rewritten to make it")
                    break
                }
                let path = diffPath ?? context.lookups.diffPath() ?? context.path
                diffPath = path
                var shown = pass
                shown.diff = UnifiedDiff.make(from: current, to: next, path: path) ?? ""
                shown.group = EditGroup.id(pass: pass.id, version: pass.version, diff: shown.diff, policyDelta: pass.policyDelta)
                if let accepted = migrator.accepted, !accepted.contains(shown.group) {
                    result.notAcceptedGroups.append(shown.group)
                    result.heldBack.append(pass.id)
                    result.heldBackReasons[pass.id] = "its edit here (\(shown.group)) " + FileMigrator.notAcceptedReason
                    break
                }
                shown.notes = ["in \(unit.label) (line \(read.line));\(produced.isEmpty ? " the settings an Info.plist is written from" : produced)"]
                    + pass.notes.map { Self.relined($0, lines) }
                shown.result = context.recordsResults ? SHA256.digest(next) : nil
                result.passes.append(shown)
                unitEdits += pass.plannedEdits
                current = next
            }
            // The write check: the settings read back are the original's with exactly these edits,
            // and no byte outside them changed.
            if !unitEdits.isEmpty {
                if let failure = check(original: atStart, output: current, settings: ats, before: read, edits: unitEdits, format: format) {
                    result.status = .error
                    result.error = FileError("internal error: \(unit.label): \(failure); the file is left as it is")
                    result.passes = []
                    result.output = bytes
                    return result
                }
                atStart = current
            }
        }
        result.output = current
        if current != bytes {
            result.status = .changed
            result.diffPath = diffPath ?? context.path
        }
        return result
    }

    /// `lint` of a generator's settings file: each unit's settings linted as the plist the
    /// generator writes, each finding at the file's own line.
    static func lintFindings(_ bytes: [UInt8], path: String, file: String?, format: SourceEdits.Format, deploymentTarget: DeploymentTarget?,
                             posture: Bool) -> [Finding] {
        guard namesAppTransportSecurity(bytes) else { return [] }
        let units: [Unit]
        do { units = try self.units(in: bytes, format: format) } catch {
            return [Finding(ruleID: "L009", severity: .error, path: path, line: error.location?.line ?? 1, column: error.location?.column ?? 1,
                            message: error.message)]
        }
        let targets = specTargets(file, format: format)
        var findings: [Finding] = []
        for unit in units {
            guard let read = ((try? settings(at: unit.properties + [.key(ATSKey.appTransportSecurity)], in: bytes, format: format)) ?? nil) else { continue }
            let target = deploymentTarget ?? unit.deploymentTarget(in: targets)
            let (plist, lines) = read.value.plist(under: ATSKey.appTransportSecurity, line: read.line)
            for var finding in Linter.lint(plist, path: path, deploymentTarget: target, skipPreprocessed: false,
                                           project: KnownLookups(claimed: [], nearest: nil), posture: posture) {
                finding.line = placed(SourceLocation(line: finding.line, column: 1), lines).line
                finding.column = 1
                finding.message = relined(finding.message, lines)
                findings.append(finding)
            }
        }
        return findings
    }

    /// For a plist a generator writes: what writes it and from where, so that an edit of the
    /// plist alone is not taken for the whole change (the next generation would undo it).
    /// XcodeGen: a target of a spec claims it and the spec holds ATS settings (migrated in the
    /// same walk). Expo: it lies in `ios/` beside the app's configuration.
    static func generatorNote(forPlist path: String, targets: [ProjectTarget]) -> String? {
        // Nearly every plist has neither: asked cheaply first.
        guard mayBeExpoNative(path) || targets.contains(where: { $0.project.hasSuffix(".yml") || $0.project.hasSuffix(".yaml") })
        else { return nil }
        for target in targets where target.project.hasSuffix(".yml") || target.project.hasSuffix(".yaml") {
            let spec = FileIO.absolute(target.project)
            var loader = SpecLoader(rootDirectory: PathText.directory(of: spec), display: ReportPaths.current.name)
            guard (try? loader.load(spec)) != nil else { continue }
            let holding = loader.files.first { file in
                namesAppTransportSecurity((try? FileIO.load(file).bytes) ?? [])
            }
            if let holding {
                return "xcodegen generate writes this file from \(ReportPaths.current.name(FileIO.absolute(holding))) (targets.\(target.name).info.properties); "
                    + "the settings there are migrated by the same passes when the walk reaches them"
            }
        }
        let components = FileIO.absolute(path).split(separator: "/", omittingEmptySubsequences: false)
        guard let ios = components.lastIndex(of: "ios"), ios > 0 else { return nil }
        let app = components[..<ios].joined(separator: "/")
        for name in ["app.config.ts", "app.config.js", "app.json"] where FileIO.exists(app + "/" + name) {
            let source = ReportPaths.current.name(app + "/" + name)
            return name == "app.json"
                ? "expo prebuild writes this file from \(source) (expo.ios.infoPlist), which the same passes migrate when the walk reaches it"
                : "expo prebuild writes this file from \(source), code the tool does not rewrite: change NSAppTransportSecurity there too, or the next prebuild undoes this"
        }
        return nil
    }

    private static let iosName: [UInt8] = Array("ios".utf8)

    /// Whether the path has a folder named `ios` (bytes compared, no string search).
    static func mayBeExpoNative(_ path: String) -> Bool {
        var component = 0, matched = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if matched == 3, component == 3 { return true }
                component = 0
                matched = 0
                continue
            }
            if component < 3, byte == iosName[component], matched == component { matched += 1 }
            component += 1
        }
        return false
    }

    /// An Expo app's iOS deployment target, where its configuration sets one: the
    /// `expo-build-properties` plugin's `ios.deploymentTarget` (Expo's own default is not assumed).
    static func expoDeploymentTarget(_ bytes: [UInt8]) -> DeploymentTarget? {
        guard let document = try? JSONSpans(bytes), let plugins = document.node(at: [.key("expo"), .key("plugins")]),
            case .array(let items) = plugins.kind
        else { return nil }
        for item in items {
            guard case .array(let pair) = item.kind, pair.count == 2, case .string("expo-build-properties") = pair[0].kind,
                case .object(let options) = pair[1].kind, let ios = options.last(where: { $0.key == "ios" })?.value,
                case .object(let settings) = ios.kind, case .string(let version)? = settings.last(where: { $0.key == "deploymentTarget" })?.value.kind
            else { continue }
            return DeploymentTarget(platform: "ios", version: version, source: "app.json (expo-build-properties ios.deploymentTarget)")
        }
        return nil
    }

    /// The settings found in a file: each target's (XcodeGen) or the app's (Expo).
    static func units(in bytes: [UInt8], format: SourceEdits.Format) throws(FileError) -> [Unit] {
        switch format {
        case .yaml:
            let document = try YAMLSpans(bytes)
            var units: [Unit] = []
            for group in ["targets", "targetTemplates"] {
                guard case .mapping(let targets)? = document.node(at: [.key(group)]) else { continue }
                for (name, _) in targets {
                    guard let name = name.string else { continue }
                    let properties: [PathStep] = [.key(group), .key(name), .key("info"), .key("properties")]
                    guard document.node(at: properties + [.key(ATSKey.appTransportSecurity)]) != nil else { continue }
                    let info = document.node(at: [.key(group), .key(name), .key("info"), .key("path")])?.string
                    units.append(Unit(properties: properties, label: "\(group).\(name).info.properties", target: group == "targets" ? name : nil,
                                      generatedPlist: info))
                }
            }
            return units
        case .json:
            let document = try JSONSpans.parsed(bytes)
            let properties: [PathStep] = [.key("expo"), .key("ios"), .key("infoPlist")]
            guard document.node(at: properties + [.key(ATSKey.appTransportSecurity)]) != nil else { return [] }
            return [Unit(properties: properties, label: "expo.ios.infoPlist", target: nil, generatedPlist: nil)]
        }
    }

    /// The settings at `path`, with their key's line and the bytes of their value; `nil` where
    /// they are not a dict. What an edit could not keep is refused here.
    static func settings(at path: [PathStep], in bytes: [UInt8], format: SourceEdits.Format)
        throws(FileError) -> (value: SourceValue, line: Int, range: Range<Int>)?
    {
        switch format {
        case .yaml:
            let document = try YAMLSpans(bytes)
            guard let parent = document.node(at: path.dropLast()), let entries = document.entries(of: parent),
                let entry = entries.last(where: { $0.key == path.last?.key }), case .mapping = entry.value,
                let value = YAMLSpans.value(of: entry.value)
            else { return nil }
            let line = document.line(of: entry.keyRange.lowerBound)
            if let special = document.specialTokenLine(in: entry.lines) {
                throw FileError("an anchor, alias, tag or merge key (line \(special)) is not kept by an edit")
            }
            return (value, line, entry.lines)
        case .json:
            let document = try JSONSpans.parsed(bytes)
            guard let node = document.node(at: path), case .object = node.kind, let value = document.value(of: node),
                let parent = document.node(at: path.dropLast()), case .object(let members) = parent.kind,
                let member = members.last(where: { $0.key == path.last?.key })
            else { return nil }
            return (value, document.place(of: member.keyRange.lowerBound).line, member.keyRange.lowerBound..<node.range.upperBound)
        }
    }

    /// The entry an inserted one follows: the nearest before it, in the passes' plist, that
    /// the file's dict has.
    private static func insertedAfter(_ edit: PlannedEdit, finalOrder: PlistDocument?, in bytes: [UInt8], format: SourceEdits.Format,
                                      prefix: [PathStep]) -> String? {
        guard case .insert(let container, let key, _) = edit, let finalOrder, let dict = finalOrder.element(at: container) else { return nil }
        let order = dict.entries.map(\.name)
        guard let at = order.firstIndex(of: key),
            let present = ((try? settings(at: prefix + container, in: bytes, format: format)) ?? nil)?.value.keys(at: [])
        else { return nil }
        return order[..<at].last { present.contains($0) }
    }

    /// The write check of one unit.
    static func check(original: [UInt8], output: [UInt8], settings path: [PathStep], before: (value: SourceValue, line: Int, range: Range<Int>),
                      edits: [PlannedEdit], format: SourceEdits.Format) -> String? {
        let after: (value: SourceValue, line: Int, range: Range<Int>)
        do {
            guard let found = try settings(at: path, in: output, format: format) else { return "the settings are not read back" }
            after = found
        } catch {
            return "the rewritten file does not read back (\(error.message))"
        }
        let suffix = original.count - before.range.upperBound
        guard after.range.lowerBound == before.range.lowerBound, output.count - suffix == after.range.upperBound,
            original[..<before.range.lowerBound].elementsEqual(output[..<after.range.lowerBound]),
            original[before.range.upperBound...].elementsEqual(output[after.range.upperBound...])
        else { return "bytes outside the settings changed" }
        let expected = PlannedEdit.apply(edits, to: .dict([ATSKey.appTransportSecurity: before.value.plistValue]))
        guard expected == .dict([ATSKey.appTransportSecurity: after.value.plistValue]) else {
            return "the settings read back are not the original's with the passes' edits"
        }
        return nil
    }

    /// A diagnostic of the passes' plist, placed at the generator's line.
    static func placed(_ diagnostic: Diagnostic, _ lines: [Int]) -> Diagnostic {
        var moved = diagnostic
        moved.location = placed(diagnostic.location, lines)
        moved.message = relined(diagnostic.message, lines)
        return moved
    }

    static func placed(_ location: SourceLocation, _ lines: [Int]) -> SourceLocation {
        SourceLocation(line: lines.indices.contains(location.line - 1) ? lines[location.line - 1] : location.line, column: 1)
    }

    /// `line 12` of the passes' plist, said as the generator's line.
    static func relined(_ message: String, _ lines: [Int]) -> String {
        message.replacing(/\bline (\d+)\b/) { match in
            guard let line = Int(match.output.1), lines.indices.contains(line - 1) else { return String(match.output.0) }
            return "line \(lines[line - 1])"
        }
    }
}
