import Foundation

/// The formats CI systems ingest besides SARIF: JUnit XML (one test case per finding, a
/// passing one when there is none), Checkstyle XML (findings per file), and GitLab Code
/// Quality JSON (an array of issues with a stable fingerprint).
struct JUnitLintReporter: LintReporter {
    func bytes(for findings: [Finding]) -> [UInt8] {
        let failures = findings.filter { $0.severity != .note }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"plist-migrate lint\" tests=\"\(max(findings.count, 1))\" failures=\"\(failures)\">\n"
        xml += "  <testsuite name=\"plist-migrate lint\" tests=\"\(max(findings.count, 1))\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(findings.count - failures)\">\n"
        if findings.isEmpty {
            xml += "    <testcase classname=\"plist-migrate\" name=\"lint\"/>\n"
        }
        for finding in findings {
            let name = XMLText.escape("[\(finding.ruleID)] \(finding.path):\(finding.line):\(finding.column)")
            xml += "    <testcase classname=\"\(XMLText.escape(finding.path))\" name=\"\(name)\">\n"
            if finding.severity == .note {
                xml += "      <skipped message=\"\(XMLText.escape(finding.message))\"/>\n"
            } else {
                xml += "      <failure type=\"\(finding.severity.rawValue)\" message=\"\(XMLText.escape(finding.message))\">"
                    + XMLText.escape(finding.text) + "</failure>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return Array(xml.utf8)
    }
}

struct CheckstyleLintReporter: LintReporter {
    func bytes(for findings: [Finding]) -> [UInt8] {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"
        var order: [String] = []
        var byFile: [String: [Finding]] = [:]
        for finding in findings {
            if byFile[finding.path] == nil { order.append(finding.path) }
            byFile[finding.path, default: []].append(finding)
        }
        for path in order {
            xml += "  <file name=\"\(XMLText.escape(path))\">\n"
            for finding in byFile[path]! {
                let severity = finding.severity == .note ? "info" : finding.severity.rawValue
                xml += "    <error line=\"\(finding.line)\" column=\"\(finding.column)\" severity=\"\(severity)\" "
                    + "message=\"\(XMLText.escape(finding.message))\" source=\"plist-migrate.\(finding.ruleID)\"/>\n"
            }
            xml += "  </file>\n"
        }
        xml += "</checkstyle>\n"
        return Array(xml.utf8)
    }
}

struct GitLabLintReporter: LintReporter {
    struct Issue: Encodable {
        struct Location: Encodable {
            struct Lines: Encodable { var begin: Int }
            var path: String
            var lines: Lines
        }
        var description: String
        var check_name: String
        var fingerprint: String
        var severity: String
        var location: Location
    }

    func bytes(for findings: [Finding]) -> [UInt8] {
        let identities = Finding.identities(findings) { $0.path }
        let issues = zip(findings, identities).map { finding, identity in
            // Stable across runs and unrelated edits, and distinct within the run.
            Issue(
                description: finding.message, check_name: finding.ruleID,
                fingerprint: String(FNV1a.hash(identity.utf8), radix: 16),
                severity: finding.severity == .error ? "major" : finding.severity == .warning ? "minor" : "info",
                location: .init(path: finding.path, lines: .init(begin: finding.line)))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(issues)) ?? Data("[]".utf8)) + [0x0A]
    }
}
