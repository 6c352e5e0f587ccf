// Room: Explain. `plist-migrate explain`: the effective policy of one file per OS era, host
// and load kind, from ATSPolicy. May call Project, Run, Report (colour).
import ATSPolicy
import PlistDOM

/// `plist-migrate explain`: the effective ATS policy of one file, as a table or for given hosts.
public struct Explainer: Sendable {
    public var era: OSEra?
    /// The hosts to explain, in order; none: the table of host classes.
    public var hosts: [String] = []
    public var kind: LoadKind?
    /// Only its eras are shown; without one, the nearest project's, else the plist's own.
    public var minimumOS: String?
    /// What was made of `--host` (a URL's host taken, a port dropped).
    public var hostNotes: [String] = []
    /// The text given for a host that this tool reads otherwise than Apple's reader would
    /// look it up (`HostInput.isReadDifferently`), by the host as read here.
    public var hostsAsWritten: [String: String] = [:]

    /// Where `minimumOS` came from: `--min-os`, or the config file that set it.
    public var minimumOSSource = "--min-os"

    public init(era: OSEra? = nil, host: String? = nil, kind: LoadKind? = nil, minimumOS: String? = nil) {
        self.init(era: era, hosts: host.map { [$0] } ?? [], kind: kind, minimumOS: minimumOS)
    }

    public init(era: OSEra? = nil, hosts: [String], kind: LoadKind? = nil, minimumOS: String? = nil) {
        self.era = era
        self.hosts = hosts
        self.kind = kind
        self.minimumOS = minimumOS
    }

    public struct Row: Codable, Sendable, Equatable {
        public var host: String
        public var os: String
        public var kind: String
        public var decision: Decision
    }

    public struct Report: Codable, Sendable, Equatable {
        /// 1: the JSON of `explain --format json`; see docs/policy.md.
        public var schemaVersion = 1
        public var path: String
        public var hasAppTransportSecurity: Bool
        public var rows: [Row]
        public var openQuestions: [String]
        /// The deployment target whose eras the table shows (`nil`: none known, every era).
        public var deploymentTarget: String?
        public var deploymentTargetSource: String?
        /// What was made of `--host`.
        public var hostNotes: [String] = []
        /// Where a legacy NSThirdParty…/NSTemporary… key decides a setting: the rows that differ
        /// when the OS ignores those keys, as Apple's open reader does (`nil`: no such key).
        public var rowsIfLegacyKeysIgnored: [Row]? = nil
        /// Where a host's text as given is read otherwise here (case, a trailing dot, an
        /// IPv4-mapped or other spelling of an address): the rows Apple's reader answers
        /// otherwise when it looks up that text (`nil`: no such host).
        public var rowsAsWritten: [Row]? = nil
    }

    public func explain(_ bytes: [UInt8], path: String) throws(ParseError) -> Report {
        let document = try PlistDocument(parsing: bytes)
        let configuration = ATSConfiguration(document: document)
        let directories = DirectoryFacts()
        let index = ProjectIndex(directories: directories)
        let claimed = path == "-" ? [] : index.targets(claiming: path)
        let target = FileMigrator.deploymentTarget(
            given: minimumOS.flatMap { DeploymentTarget($0, source: minimumOSSource) }, claimedBy: claimed,
            own: { FileMigrator.deploymentTarget(declaredIn: document) },
            nearest: { path == "-" ? nil : ProjectDeploymentTargets(directories: directories, index: index).target(forFile: path) })
        let hosts: [PolicyDelta.HostClass] = self.hosts.isEmpty ? PolicyDelta.hostClasses([configuration])
            : self.hosts.map { PolicyDelta.HostClass(label: $0, host: Host($0)) }
        let eras = era.map { [$0] } ?? target?.supportedEras ?? OSEra.allCases
        let labels = EraLabels(target)
        let kinds = kind.map { [$0] } ?? LoadKind.allCases
        var rows: [Row] = []
        var questions: [String] = []
        var asked = Set<String>()
        let decider = PolicyEngine.Decider(configuration)
        // The other reading of the legacy keys, where one decides a setting: only the rows it changes.
        let ignoring = configuration.decidesByLegacyKeys ? PolicyEngine.Decider(configuration.ignoringLegacyKeys()) : nil
        var otherReading: [Row]? = ignoring == nil ? nil : []
        for hostClass in hosts {
            for era in eras {
                let others = ignoring?.decide(era: era, host: hostClass.host, kinds: kinds)
                for (index, (kind, decision)) in zip(kinds, decider.decide(era: era, host: hostClass.host, kinds: kinds)).enumerated() {
                    rows.append(Row(host: hostClass.label, os: labels.label(era), kind: kind.rawValue, decision: decision))
                    for question in decision.openQuestions where asked.insert(question).inserted { questions.append(question) }
                    if let other = others?[index], !other.samePolicy(as: decision) {
                        otherReading?.append(Row(host: hostClass.label, os: labels.label(era), kind: kind.rawValue, decision: other))
                    }
                }
            }
        }
        var notes = hostNotes
        var asWritten: [Row]? = nil
        for hostClass in hosts {
            guard let written = hostsAsWritten[hostClass.label] else { continue }
            let differing = readerRows(hostClass, asWritten: written, eras: eras, labels: labels, kinds: kinds, decider: decider)
            asWritten = (asWritten ?? []) + differing
            if differing.isEmpty {
                // An address is named in its shortest form: "as for 0:0:0:0:0:0:0:1" says nothing.
                let readAs = HostInput(hostClass.label)?.readAs ?? hostClass.label
                notes.append("Apple's reader, looking \(written) up as written, answers as for \(readAs)"
                    + (readAs != hostClass.label ? ", the address it names" : ""))
            } else {
                let question = Self.readingQuestion(written: written, readHere: hostClass.label, rows: differing)
                if asked.insert(question).inserted { questions.append(question) }
            }
        }
        for rule in configuration.exceptionDomains {
            // What is wrong with the key, said precisely, in place of the engine's general doubt about it.
            if let problem = ExceptionKeyCheck.problem(rule.key), asked.insert(problem).inserted {
                questions.removeAll { $0.hasPrefix("NSExceptionDomains › \(rule.key) (") }
                questions.append("NSExceptionDomains › " + problem)
            }
        }
        return Report(path: path, hasAppTransportSecurity: configuration.present, rows: rows, openQuestions: questions,
                      deploymentTarget: target?.platforms.joined(separator: ","), deploymentTargetSource: target?.source,
                      hostNotes: notes, rowsIfLegacyKeysIgnored: otherReading, rowsAsWritten: asWritten)
    }

    /// The rows whose policy differs when Apple's reader looks the host up by the text given.
    private func readerRows(
        _ hostClass: PolicyDelta.HostClass, asWritten written: String, eras: [OSEra], labels: EraLabels, kinds: [LoadKind],
        decider: PolicyEngine.Decider
    ) -> [Row] {
        let literal = Host(asWritten: written)
        var rows: [Row] = []
        for era in eras {
            let readHere = decider.policies(era: era, host: hostClass.host, kinds: kinds)
            for (index, (kind, decision)) in zip(kinds, decider.decide(era: era, host: literal, kinds: kinds)).enumerated()
            where !decision.samePolicy(as: readHere[index]) {
                rows.append(Row(host: written, os: labels.label(era), kind: kind.rawValue, decision: decision))
            }
        }
        return rows
    }

    /// Both readings of a host's text, the reader's answer named: never the more permissive one alone.
    static func readingQuestion(written: String, readHere: String, rows: [Row]) -> String {
        var answers: [String] = []
        var index = 0
        while index < rows.count {
            let group = rows[index...].prefix { $0.os == rows[index].os }
            answers.append("\(rows[index].os) " + group.map(\.kind).joined(separator: "/") + ": HTTP "
                + group.map { $0.decision.httpAllowed ? "allowed" : "blocked" }.joined(separator: "/"))
            index += group.count
        }
        return "\(written) is explained here as \(readHere); Apple's reader looks up the text it is given "
            + "(SecProtocolConfiguration.m, sec_protocol_configuration_find_exception_for_host: a dictionary look-up, case "
            + "and a trailing dot kept; …_for_address: an address key by its text, a range by what inet_pton reads, "
            + "::ffff:a.b.c.d being IPv6), and Apple does not document whether the system passes \(written) on unchanged. "
            + "Looked up as written, the reader answers otherwise: " + answers.joined(separator: "; ")
    }

    /// A table (no `--host`) or the decision with its reasons (`--host`).
    public func text(_ report: Report) -> String {
        var out = "\(report.path)\n"
        if era == nil, let target = report.deploymentTarget {
            // The rows are bands of versions ATS treats alike: the first may begin before the
            // target (16.4 lies in iOS 14–16), which the line says rather than hide.
            let first = report.rows.first.map { "; the first, \($0.os), holds the deployment target" } ?? ""
            out += "deployment target \(target) (from \(report.deploymentTargetSource ?? "?")): each row's OS is a band of versions "
                + "that ATS treats alike\(first), and older bands are not shown\n"
        }
        if !report.hasAppTransportSecurity { out += "no NSAppTransportSecurity: the ATS defaults apply everywhere\n" }
        for note in report.hostNotes { out += "note: \(note)\n" }
        if hosts.isEmpty {
            out += table(report.rows)
        } else {
            out += report.rows.map(decisionText).joined()
        }
        if let other = report.rowsIfLegacyKeysIgnored {
            out += "\nIf the OS ignores NSThirdParty…/NSTemporary… keys, as Apple's open reader does "
                + "(SecProtocolConfiguration.m reads only NSException… keys):\n"
            if other.isEmpty {
                out += "  nothing above changes\n"
            } else if hosts.isEmpty {
                out += table(other)
            } else {
                out += other.map(decisionText).joined()
            }
        }
        if let rows = report.rowsAsWritten, !rows.isEmpty {
            out += "\nIf Apple's reader looks the host up as written (SecProtocolConfiguration.m looks up the text it is given):\n"
            out += rows.map { decisionText($0, namingHost: true) }.joined()
        }
        if !report.openQuestions.isEmpty {
            out += "\nNot documented by Apple (said, not guessed):\n" + report.openQuestions.map { "  - \($0)\n" }.joined()
        }
        return out
    }

    /// One row's decision with its reasons (`--host`).
    private func decisionText(_ row: Row) -> String {
        // With several hosts each decision names its host.
        decisionText(row, namingHost: hosts.count > 1)
    }

    private func decisionText(_ row: Row, namingHost: Bool) -> String {
        let policy = row.decision.policy
        var out = "\n" + (namingHost ? "\(row.host), " : "") + "\(row.os), \(row.kind): HTTP \(policy["HTTP"]!), minimum TLS \(policy["minimum TLS"]!), "
            + "forward secrecy \(policy["forward secrecy"]!), certificate transparency \(policy["certificate transparency"]!)"
        if !row.decision.pinnedCAIdentities.isEmpty || !row.decision.pinnedLeafIdentities.isEmpty {
            out += ", pinned CA \(policy["pinned CA identities"]!), pinned leaf \(policy["pinned leaf identities"]!)"
        }
        out += "\n"
        for reason in row.decision.decidedBy {
            let line = reason.line.map { " (line \($0))" } ?? ""
            out += "  because \(reason.key)\(line): \(reason.rule)\n"
        }
        return out
    }

    private func table(_ rows: [Row]) -> String {
        // One line per host and OS era: HTTP per kind, then the urlSession transport rules.
        var lines: [[String]] = [["HOST", "OS", "HTTP urlSession/media/webView", "MIN TLS", "FWD SECRECY", "CT", "PINS"]]
        var index = 0
        while index < rows.count {
            let group = rows[index...].prefix { $0.host == rows[index].host && $0.os == rows[index].os }
            let http = group.map { $0.decision.httpAllowed ? "allowed" : "blocked" }.joined(separator: "/")
            let main = group.first { $0.kind == LoadKind.urlSession.rawValue }?.decision ?? group.first!.decision
            let pins = main.pinnedCAIdentities.count + main.pinnedLeafIdentities.count
            lines.append([rows[index].host, rows[index].os, http, main.minimumTLS ?? "-",
                          main.requiresForwardSecrecy ? "required" : "no", main.requiresCertificateTransparency ? "required" : "no",
                          pins == 0 ? "-" : "\(pins)"])
            index += group.count
        }
        let widths = (0..<lines[0].count).map { column in lines.map { $0[column].count }.max()! }
        return lines.map { line in
            line.enumerated().map { $0.element.padding(to: widths[$0.offset]) }.joined(separator: "  ")
                .trimmingTrailingSpaces + "\n"
        }.joined()
    }
}

extension String {
    func padding(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
    var trimmingTrailingSpaces: String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
