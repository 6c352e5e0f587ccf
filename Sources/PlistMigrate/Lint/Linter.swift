import ATSPolicy
import Migrations
import PlistDOM

/// `plist-migrate lint`: what is wrong with a file's ATS settings, with the migration that
/// fixes it where one does. Reports Apple's real defaults (e.g. forward secrecy defaults to YES,
/// so its absence is fine).
public enum Linter {
    /// - Parameter deploymentTarget: the app's (else the plist's own, else every OS): a fix the
    ///   engine would hold back for it is said so, and a pass that needs no policy change to be
    ///   right (ATS010) is reported only where that holds.
    ///   `skipPreprocessed`: for walked files, a preprocessed Info.plist (`#ifdef`) is not a finding.
    public static func lint(
        _ bytes: [UInt8], path: String, deploymentTarget: DeploymentTarget? = nil, skipPreprocessed: Bool = false,
        project: KnownLookups = KnownLookups(claimed: [], nearest: nil), posture: Bool = true
    ) -> [Finding] {
        let document: PlistDocument
        do {
            document = try PlistDocument(parsing: bytes)
        } catch {
            if skipPreprocessed && error.kind == .preprocessed { return [] }
            return [Finding(ruleID: "L009", severity: .error, path: path, line: error.location.line,
                            column: error.location.column, message: error.message)]
        }
        var findings: [Finding] = []
        func add(_ rule: String, _ element: PlistElement?, _ message: String, severity: Finding.Severity? = nil, fix: String? = nil) {
            let location = element?.location ?? SourceLocation(line: 1, column: 1)
            let ruleSeverity = LintRule.severities[rule] ?? .warning
            findings.append(Finding(ruleID: rule, severity: severity ?? ruleSeverity, path: path, line: location.line,
                                    column: location.column, message: message, fix: fix))
        }
        checkRootKeySpelling(document, add)
        // Duplicate keys stop the migrations (which copy would they edit?), never the audit: the
        // system reads such a file, the last copy of each key winning, and the checks and posture
        // below read it the same way.
        let duplicates = FileMigrator.duplicateKeyDiagnostics(document)
        for diagnostic in duplicates ?? [] {
            findings.append(Finding(ruleID: "L008", severity: .error, path: path, line: diagnostic.location.line,
                                    column: diagnostic.location.column, message: diagnostic.message))
        }
        // No ATS dict at the root: the system applies its defaults, which posture never reports.
        guard document.rootValue.name == "dict", let ats = document.rootValue[key: ATSKey.appTransportSecurity] else {
            return context(findings)
        }
        // An ATS value that is no dict holds no setting the system could read: defaults again.
        guard ats.name == "dict" else {
            add("L006", ats, "NSAppTransportSecurity is \(article(ats.name)), not a dict: the system reads no setting from it")
            return context(findings)
        }
        if duplicates == nil {
            findings += migrationFindings(document, bytes, path: path, deploymentTarget: deploymentTarget, project: project)
        }
        checkKeysAndTypes(ats, add)
        checkDomains(ats, add)
        // Read as the system reads it: a number counts, a later key only with a Boolean or number.
        let configuration = ATSConfiguration(document: document)
        let target = FileMigrator.deploymentTarget(
            given: deploymentTarget, claimedBy: project.claimed, own: { FileMigrator.deploymentTarget(declaredIn: document) },
            nearest: { project.nearest })
        let labels = EraLabels(target)
        if let arbitrary = configuration.allowsArbitraryLoads, arbitrary.value, let entry = ats.entry(ATSKey.allowsArbitraryLoads) {
            // iOS 10+/macOS 10.12+ ignore it when a later key is present.
            let later = configuration.laterKeySettings.first?.key
            let effect = later.map { "it turns ATS off only on \(labels.label(.ios9)) (later systems ignore it because \($0) is present)" }
                ?? "ATS is off for every host without an exception"
            add("L005", entry.key, "NSAllowsArbitraryLoads is true: \(effect); App Review asks for a justification")
        }
        if posture {
            // The engine places its findings by line; the key's column is looked up only for a file
            // that has one.
            var columns: [Int: Int]?
            Posture.findings(configuration, eras: target?.supportedEras ?? OSEra.allCases, labels: labels, floor: target?.spelledOnward,
                             atsLine: ats.location?.line ?? 1) { rule, line, message, score in
                if columns == nil { columns = keyColumns(ats) }
                findings.append(Finding(ruleID: rule, severity: Posture.severity(score), path: path, line: line,
                                        column: columns?[line] ?? 1, message: message, securitySeverity: score))
            }
        }
        return context(findings)

        /// Suppressions applied, in file order.
        func context(_ findings: [Finding]) -> [Finding] {
            var context = LintContext(document: document, bytes: bytes)
            return context.apply(findings, path: path, notRun: { posture ? false : $0.hasPrefix("P") })
                .sorted { ($0.line, $0.column, $0.ruleID) < ($1.line, $1.column, $1.ruleID) }
        }
    }

    /// Each migration, run alone on the unedited file: every edit it would make is a finding.
    /// A probe on the shared, unedited `document` says whether it edits at all; only then is
    /// it run for real on a parse of its own (its edits change that tree).
    static func migrationFindings(
        _ document: PlistDocument, _ bytes: [UInt8], path: String, deploymentTarget: DeploymentTarget?,
        project: KnownLookups = KnownLookups(claimed: [], nearest: nil)
    ) -> [Finding] {
        var findings: [Finding] = []
        // Found once for the probes, which all read the same unedited tree.
        let ats = MigrationSession.appTransportSecurity(of: document)
        for migration in MigrationRegistry.all {
            var session = MigrationSession(document: document, migration: migration, probeOnly: true, appTransportSecurity: ats)
            migration.apply(to: session)
            var heldBack: String?
            if session.wouldEdit, migration.intent != .anyChange {
                // What the engine would do with this pass alone on this file, its gate included.
                let plan = try? MigrationPlan(registry: [migration])
                let run = plan.map {
                    FileMigrator(plan: $0).migrate(bytes, FileContext(
                        path: path, skipIfNotApplicable: false, deploymentTarget: deploymentTarget, parsed: document.copy(), gateOnly: true,
                        lookups: project))
                }
                heldBack = run?.heldBackReasons[migration.id]
                if heldBack != nil, migration.intent == .provablyNoPolicyChange { continue }
            }
            if session.wouldEdit {
                session = MigrationSession(document: document.copy(), migration: migration)
                migration.apply(to: session)
            }
            let severity = LintRule.severity(of: migration)
            for (edit, location) in zip(session.plannedEdits, session.editLocations) {
                let message = describe(edit, migration) + (heldBack.map { " (its fix is held back: \($0))" } ?? "")
                findings.append(Finding(ruleID: migration.id, severity: severity, path: path, line: location.line,
                                        column: location.column, message: message, fix: heldBack == nil ? migration.id : nil))
            }
            for diagnostic in session.diagnostics {
                findings.append(Finding(ruleID: migration.id, severity: .error, path: path, line: diagnostic.location.line,
                                        column: diagnostic.location.column, message: diagnostic.message))
            }
        }
        return findings
    }

    /// The column of the key that starts each line, for findings the engine places by line.
    static func keyColumns(_ dict: PlistElement) -> [Int: Int] {
        var columns: [Int: Int] = [:]
        func visit(_ element: PlistElement) {
            guard element.name == "dict" else { return }
            for entry in element.entries {
                if let location = entry.key.location, columns[location.line] == nil { columns[location.line] = location.column }
                visit(entry.value)
            }
        }
        visit(dict)
        return columns
    }

    static func describe(_ edit: PlannedEdit, _ migration: any Migration) -> String {
        let change = switch edit {
        case .rename(_, let from, let to): "\(from) should be \(to)"
        case .remove(_, let key) where migration.intent == .provablyNoPolicyChange: "\(key) has no effect on any supported OS"
        case .remove(_, let key): "\(key) is redundant (an equal entry exists)"
        case .insert(_, let key, let value): "add \(key) = \(short(value))"
        case .replace(_, let key, let value): "\(key) should be \(short(value))"
        case .removeItem(let array, let index): "remove item \(index) of \(array.spelled)"
        case .insertItem(let array, let index, let value): "add \(short(value)) at \(array.spelled):\(index)"
        case .replaceItem(let array, let index, let value): "\(array.spelled):\(index) should be \(short(value))"
        }
        return "\(change): \(migration.title.prefix(1).lowercased() + migration.title.dropFirst())"
    }

    static func short(_ value: PlistValue) -> String {
        switch value {
        case .bool(let flag): flag ? "<true/>" : "<false/>"
        case .string(let text): "\"\(text)\""
        default: "\(value)"
        }
    }

    /// `NSAPPTransportSecurity` and friends at the root: nothing reads them.
    static func checkRootKeySpelling(_ document: PlistDocument, _ add: (String, PlistElement?, String, Finding.Severity?, String?) -> Void) {
        guard document.rootValue.name == "dict" else { return }
        let correct = ATSKey.appTransportSecurity, correctLower = correct.lowercased()
        for entry in document.rootValue.entries {
            let name = entry.name
            guard name != correct else { continue }
            // An ASCII name (nearly all) more than two bytes longer or shorter can be neither.
            if abs(name.utf8.count - correct.utf8.count) > 2, name.utf8.isASCII { continue }
            if name.lowercased() == correctLower || ATSKeyCatalog.editDistanceIsSmall(name, correct) {
                add("L001", entry.key, "\(name) is not NSAppTransportSecurity: the system ignores this whole dict", nil, nil)
            }
        }
    }

    static func checkKeysAndTypes(_ ats: PlistElement, _ add: (String, PlistElement?, String, Finding.Severity?, String?) -> Void) {
        func check(_ dict: PlistElement, _ level: ATSKeyCatalog.Level) {
            let known = ATSKeyCatalog.keys[level] ?? [:]
            for entry in dict.entries {
                guard let type = known[entry.name] else {
                    if ATSKeyCatalog.correction(for: entry.name, at: level) == nil {
                        let candidates = ATSKeyCatalog.candidates(for: entry.name, at: level)
                        let hint = candidates.isEmpty ? "" : " (did you mean \(candidates.joined(separator: " or "))?)"
                        add("L001", entry.key, "unknown key \(entry.name) is ignored\(hint)", nil, nil)
                    }
                    continue
                }
                let actual = entry.value.name
                let matches = switch type {
                case .bool: actual == "true" || actual == "false"
                case .string: actual == "string"
                case .dict: actual == "dict"
                case .array: actual == "array"
                }
                let fixableBoolean = type == .bool && actual == "string"
                    && ["yes", "no", "true", "false"].contains(entry.value.text.lowercased().filter { !$0.isWhitespace })
                if !matches, !fixableBoolean, type != .dict {
                    let expected = type == .bool ? "a Boolean (<true/> or <false/>)" : article(type.rawValue)
                    add("L002", entry.value, "\(entry.name) should be \(expected), not \(article(actual))" + readingNote(entry, type), nil, nil)
                }
                if ATSKeyCatalog.minimumTLSKeys.contains(entry.name), actual == "string",
                    !ATSKeyCatalog.tlsVersions.contains(entry.value.text), NormalizeTLSVersion.canonical(entry.value.text) == nil
                {
                    add("L003", entry.value, "\"\(entry.value.text)\" is not a TLS version ATS knows (TLSv1.0, TLSv1.1, TLSv1.2, TLSv1.3)", nil, nil)
                }
            }
        }
        check(ats, .global)
        for (parent, level) in [(ATSKey.exceptionDomains, ATSKeyCatalog.Level.exceptionDomain), (ATSKey.pinnedDomains, .pinnedDomain)] {
            guard let domains = ats[key: parent], domains.name == "dict" else { continue }
            for entry in domains.entries where entry.value.name == "dict" { check(entry.value, level) }
        }
    }

    /// How Apple's reader takes a Boolean key of the wrong type (SecProtocolConfiguration.m,
    /// `sec_protocol_configuration_set_ats_overrides`): a number as YES exactly when it equals 1,
    /// anything else as if the key were absent.
    static func readingNote(_ entry: DictEntry, _ type: ATSKeyCatalog.ValueType) -> String {
        guard type == .bool else { return "" }
        if entry.value.kind == .integer || entry.value.kind == .real {
            guard let number = ATSConfiguration.number(entry.value.text) else { return "" }
            return ": the system reads it as \(number == 1 ? "YES" : "NO") (Apple's reader takes any number, YES when it equals 1); "
                + "write <\(number == 1 ? "true" : "false")/>"
        }
        return ": the system treats the key as absent (Apple's reader takes only a Boolean or number)"
    }

    static func checkDomains(_ ats: PlistElement, _ add: (String, PlistElement?, String, Finding.Severity?, String?) -> Void) {
        for parent in [ATSKey.exceptionDomains, ATSKey.pinnedDomains] {
            guard let domains = ats.entry(parent) else { continue }
            guard domains.value.name == "dict" else {
                add("L006", domains.value, "\(parent) is \(article(domains.value.name)), not a dict", nil, nil)
                continue
            }
            for entry in domains.value.entries {
                if containsBuildSettingReference(entry.name) {
                    add("L010", entry.key, "\(entry.name) is a build setting, resolved when the app is built: this entry cannot be checked here", nil, nil)
                    continue
                }
                if entry.value.name != "dict" {
                    add("L006", entry.value, "the settings of \(entry.name) are \(article(entry.value.name)), not a dict", nil, nil)
                }
                if entry.name.hasSuffix("."), entry.name.count > 1, HostNameKey.canMatch(entry.name) {
                    add("L004", entry.key, "\(entry.name) has a trailing dot: it matches only \"\(entry.name)\", not \"\(entry.name.dropLast())\"", nil, nil)
                }
                if let problem = ExceptionKeyCheck.problem(entry.name) {
                    add("L004", entry.key, problem, nil, nil)
                } else if case .address = ATSConfiguration.matcher(for: entry.name) {
                    let kind = entry.name.contains("/") ? "an IP address range" : "an IP address"
                    add("L004", entry.key, "\(entry.name) is \(kind): valid as an exception key only from iOS 17/macOS 14, ignored before", nil, nil)
                }
                if parent == ATSKey.pinnedDomains, entry.value.name == "dict" { checkPins(entry, add) }
            }
        }
    }

    static func checkPins(_ entry: DictEntry, _ add: (String, PlistElement?, String, Finding.Severity?, String?) -> Void) {
        let lists = ["NSPinnedCAIdentities", "NSPinnedLeafIdentities"].compactMap { entry.value[key: $0] }
        let identities = lists.filter { $0.name == "array" }.flatMap(\.children)
        if identities.isEmpty {
            add("L007", entry.key, "pinned domain \(entry.name) has no NSPinnedCAIdentities or NSPinnedLeafIdentities", nil, nil)
        }
        for identity in identities {
            guard let spki = identity[key: "SPKI-SHA256-BASE64"] else {
                add("L007", identity, "identity without an SPKI-SHA256-BASE64 value", nil, nil)
                continue
            }
            if Base64Check.decodedCount(spki.text) != 32 {
                add("L007", spki, "SPKI-SHA256-BASE64 \"\(spki.text)\" is not the base64 of a 32-byte SHA-256 digest", nil, nil)
            }
        }
    }
}

/// `an integer`, `a string`.
func article(_ noun: String) -> String {
    // A Boolean's element is its value: `<true/>`, not "a true".
    if noun == "true" || noun == "false" { return "<\(noun)/>" }
    return (noun.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + noun
}

enum Base64Check {
    /// Bytes a base64 string decodes to, or `nil` if it is not base64.
    static func decodedCount(_ text: String) -> Int? {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        let body = text.filter { !$0.isWhitespace }
        let padding = body.reversed().prefix { $0 == "=" }.count
        guard body.count % 4 == 0, padding <= 2, body.dropLast(padding).allSatisfy(alphabet.contains) else { return nil }
        return body.count / 4 * 3 - padding
    }
}
