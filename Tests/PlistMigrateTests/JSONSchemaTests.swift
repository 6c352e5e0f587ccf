import Foundation
import Testing

/// The JSON outputs match their published schemas (`schemas/`, JSON Schema 2020-12), checked
/// with Python's jsonschema over real outputs: changes, conflicts, errors, skips, held-back
/// passes, every explain field.
@Suite(.enabled(if: pythonHas("jsonschema"), "needs Python's jsonschema (pip install jsonschema; .ci/run installs it)"))
struct JSONSchemaTests {
    /// Python's jsonschema on `output` against `schemas/SCHEMA.schema.json`.
    func check(_ output: Data, against schema: String, in directory: URL) throws -> ProcessResult {
        let file = directory.appendingPathComponent("output-\(UUID().uuidString).json")
        try output.write(to: file)
        return try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import json, sys, jsonschema
            jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
            """, Paths.repository.appendingPathComponent("schemas/\(schema).schema.json").path, file.path], in: directory)
    }

    func validate(_ output: Data, against schema: String, in directory: URL) throws {
        let result = try check(output, against: schema, in: directory)
        #expect(result.status == 0, "\(schema): \(result.stderr)")
    }

    @Test func everyJSONOutputMatchesItsSchema() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("ATS004/bad-wildcards.before.plist", to: directory, as: "A/Info.plist")
        _ = try copyFixture("ATS003/tabs.before.plist", to: directory, as: "B/Info.plist")
        _ = try copyFixture("errors/mismatched-tag-in-ats.plist", to: directory, as: "C/Info.plist")
        _ = try copyFixture("roundtrip/all-types.plist", to: directory, as: "D/Settings.plist")
        _ = try copyFixture("gate/ATS002-arbitrary-loads-ignored.before.plist", to: directory, as: "E/Info.plist")
        _ = try copyFixture("lint/everything.plist", to: directory, as: "F/Info.plist")
        _ = try copyFixture("ATS001/tabs.before.plist", to: directory, as: "G/Info.plist")
        _ = try copyFixture("ATS001/twin-equal.before.plist", to: directory, as: "H/Info.plist")
        // A generator's code and settings file: sourceChanges, codeToChange and a spec's passes.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("I"), withIntermediateDirectories: true)
        try Data("let plist = [\"NSAppTransportSecurity\": [\"NSAllowsArbitraryLoadsInMedia\": true]]\n".utf8)
            .write(to: directory.appendingPathComponent("I/Project.swift"))
        try Data("targets:\n  App:\n    info:\n      properties:\n        NSAppTransportSecurity:\n          NSAllowsArbitraryLoadsInMedia: true\n".utf8)
            .write(to: directory.appendingPathComponent("I/project.yml"))
        let migrate = try tool(["--format", "json", "."], in: directory).stdout
        #expect(String(decoding: migrate, as: UTF8.self).contains("\"notes\""), "a pass's notes are in the report")
        #expect(String(decoding: migrate, as: UTF8.self).contains("\"sourceChanges\""), "code to change is in the report")
        try validate(migrate, against: "migrate-report", in: directory)
        try validate(try tool(["--format", "json", "--allow-policy-change", "--min-os", "ios15", "."], in: directory).stdout,
                     against: "migrate-report", in: directory)
        try validate(try tool(["lint", "--format", "json", "."], in: directory).stdout, against: "lint-report", in: directory)
        try validate(try tool(["list", "--format", "json"], in: directory).stdout, against: "list", in: directory)
        try validate(try tool(["explain", "--format", "json", "E/Info.plist"], in: directory).stdout, against: "explain-report", in: directory)
        try validate(try tool(["explain", "--format", "json", "F/Info.plist", "--host", "http://api.example.com:80/x"], in: directory).stdout,
                     against: "explain-report", in: directory)
        let legacy = try tool(["explain", "--format", "json", "G/Info.plist"], in: directory).stdout
        #expect(String(decoding: legacy, as: UTF8.self).contains("\"rowsIfLegacyKeysIgnored\""), "the other reading is in the report")
        try validate(legacy, against: "explain-report", in: directory)
        try validate(try tool(["targets", "--format", "json", "Fixtures/project", "Fixtures/project-xcodegen", "Fixtures/project-xcode16", "Fixtures/project-platforms", "Fixtures/project-conditions"], in: Paths.repository).stdout,
                     against: "targets", in: directory)
        // A host read otherwise than as written: both readings (`rowsAsWritten`).
        let twoReadings = try tool(["explain", "--format", "json", "E/Info.plist", "--host", "::ffff:10.0.0.1"], in: directory).stdout
        #expect(String(decoding: twoReadings, as: UTF8.self).contains("\"rowsAsWritten\""))
        try validate(twoReadings, against: "explain-report", in: directory)
        // A target whose SDKs read their own Info.plists (`infoPlistsBySDK`).
        let multi = directory.appendingPathComponent("Multi")
        _ = try copyFixture("project/App/Info.plist", to: multi, as: "App/Info.plist")
        _ = try copyFixture("project/App/Info.plist", to: multi, as: "App/Info-tvOS.plist")
        try Data(ProjectReadInPartTests.pbxproj("""
            SDKROOT = auto; SUPPORTED_PLATFORMS = "iphoneos macosx appletvos"; IPHONEOS_DEPLOYMENT_TARGET = 18.0; TVOS_DEPLOYMENT_TARGET = 18.0;
            INFOPLIST_FILE = App/Info.plist; "INFOPLIST_FILE[sdk=appletvos*]" = "App/Info-tvOS.plist";
            """).utf8).write(to: multi.appendingPathComponent("App.xcodeproj/project.pbxproj").creatingParent())
        let bySDK = try tool(["targets", "--format", "json", "Multi"], in: directory).stdout
        #expect(String(decoding: bySDK, as: UTF8.self).contains("\"infoPlistsBySDK\""))
        try validate(bySDK, against: "targets", in: directory)
        // An Info.plist named in another case than the file's (`caseInsensitiveMatches`).
        let folded = directory.appendingPathComponent("Case")
        _ = try copyFixture("project/App/Info.plist", to: folded, as: "App/Info.plist")
        try Data(ProjectReadInPartTests.pbxproj("INFOPLIST_FILE = app/Info.plist; IPHONEOS_DEPLOYMENT_TARGET = 16.0;").utf8)
            .write(to: folded.appendingPathComponent("App.xcodeproj/project.pbxproj").creatingParent())
        let matched = try tool(["targets", "--format", "json", "Case"], in: directory).stdout
        #expect(String(decoding: matched, as: UTF8.self).contains("\"caseInsensitiveMatches\""))
        try validate(matched, against: "targets", in: directory)
        let write = try tool(["--format", "json", "--write", "B/Info.plist", "A/Info.plist"], in: directory)
        try validate(write.stdout, against: "migrate-report", in: directory)
    }

    /// A schema that accepted anything would prove nothing: an output with a wrong field fails.
    @Test func theSchemasRejectAWrongDocument() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let wrong = Data(#"{"schemaVersion": 1, "findings": [{"ruleID": "L005", "severity": "fatal"}]}"#.utf8)
        #expect(try check(wrong, against: "lint-report", in: directory).status != 0)
    }
}
