import Foundation
import Testing
@testable import PlistMigrate

@Suite struct ReportTests {
    /// The summary's kinds of deployment-target source, from the source each file names.
    @Test func deploymentTargetSourcesAreSortedIntoKinds() {
        let kinds = [
            "--min-os": "--min-os", "unknown": "unknown",
            "repo/.plist-migrate.json": "config",
            "App (App/App.xcodeproj/project.pbxproj)": "target",
            "Café, Thé (Ünïcode/Ünïcode.xcodeproj/project.pbxproj)": "target",
            "App/App.xcodeproj/project.pbxproj": "project.pbxproj",
            "project.yml": "project.yml", "Specs/App.yaml": "project.yml",
            "project.yml, shared.yml (included)": "target", "App.yml, Base.yml": "project.yml",
            "Base.yaml, Other": "project.yml",
            "the plist's MinimumOSVersion": "Info.plist", "the plist's MinimumOSVersion and LSMinimumSystemVersion": "Info.plist",
            "App (nearest)x": "Info.plist", "(App)": "Info.plist", "": "Info.plist",
        ]
        for (source, kind) in kinds {
            #expect(Report.sourceKind(source) == kind, "\(source)")
        }
    }

    /// The JSON the tool prints decodes into the documented schema and re-encodes to the same bytes.
    @Test func jsonSchemaRoundTrips() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("ATS004/bad-wildcards.before.plist", to: dir, as: "A/Info.plist")
        _ = try copyFixture("ATS003/tabs.before.plist", to: dir, as: "B/Info.plist")
        _ = try copyFixture("errors/mismatched-tag-in-ats.plist", to: dir, as: "C/Info.plist")
        _ = try copyFixture("roundtrip/all-types.plist", to: dir, as: "D/Settings.plist")
        let result = try tool(["--format", "json", "."], in: dir)
        #expect(result.status == 2)
        let decoded = try JSONDecoder().decode(Report.Document.self, from: result.stdout)
        #expect(decoded.schemaVersion == 1)
        #expect(decoded.files.map(\.status) == ["changed", "unchanged", "error", "skipped"])
        #expect(decoded.files[0].diagnostics.count == 2)
        #expect(decoded.files[1].heldBack == ["ATS003"])
        #expect(decoded.files[2].error?.line == 9)
        #expect(decoded.files[3].skipReason == "no NSAppTransportSecurity")
        #expect(decoded.summary == Report.Summary(
            scanned: 4, changed: 1, unchanged: 1, skipped: 1, errors: 1, conflicts: 1, heldBack: 1,
            skippedReasons: ["no NSAppTransportSecurity": 1], editsPerPass: ["ATS004": 1],
            deploymentTargetSources: ["unknown": 2]))
        #expect(decoded.files[0].deploymentTarget == Report.TargetRecord(minimumOS: nil, source: "unknown"))
        #expect(decoded.files[2].deploymentTarget == nil, "no target for a file that did not parse")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        #expect(try encoder.encode(decoded) + Data("\n".utf8) == result.stdout)
    }

    @Test func colourIsOnlyAddedWhenAskedAndKeepsTheDiffText() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("ATS002/crlf.before.plist", to: dir, as: "Info.plist")
        let plain = try tool(["Info.plist"], in: dir)
        #expect(!plain.text.contains("\u{1B}["), "no colour in a pipe")
        let coloured = try tool(["--color", "always", "Info.plist"], in: dir)
        #expect(coloured.text.contains("\u{1B}[31m-"))
        let stripped = coloured.text.replacing(/\x{1B}\[[0-9;]*m/, with: "")
        #expect(stripped == plain.text)
    }
}
