import Foundation
import Testing
@testable import PlistMigrate

/// What real repositories tripped over.
@Suite struct RealRepositoryTests {
    @Test func aWalkedPreprocessedInfoPlistIsSkippedAndANamedOneSaysWhere() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("errors/preprocessed.plist", to: directory, as: "App/Info.plist")
        let walked = try tool(["--check", "."], in: directory)
        #expect(walked.status == 0, "\(walked.stderr)")
        #expect(walked.stderr.contains("1 skipped (1 preprocessed Info.plist (#if directives))"))
        let lint = try tool(["lint", "."], in: directory)
        #expect(lint.status == 0, "\(lint.stderr)")
        let named = try tool(["App/Info.plist"], in: directory)
        #expect(named.status == 2)
        #expect(named.stderr.hasPrefix("App/Info.plist:8:2: error: C preprocessor directive `#ifdef`"))
    }

    @Test func explainSaysWhatAFalseValueDoes() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
            <plist><dict><key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict>
            <key>example.com</key><dict>
            <key>NSTemporaryExceptionAllowsInsecureHTTPLoads</key><false/>
            <key>NSExceptionRequiresForwardSecrecy</key><false/>
            </dict></dict></dict></dict></plist>
            """.write(to: directory.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        let result = try tool(["explain", "Info.plist", "--host", "example.com", "--os", "ios16", "--kind", "urlSession"], in: directory)
        #expect(result.text.contains("NSTemporaryExceptionAllowsInsecureHTTPLoads (line 3): keeps insecure HTTP loads blocked for this domain"), "\(result.text)")
        #expect(result.text.contains("NSExceptionRequiresForwardSecrecy (line 4): does not require forward secrecy for this domain"))
        #expect(!result.text.contains("allows insecure HTTP loads"))
    }

    /// Diff and patch paths are relative to the repository root, wherever the tool is run from.
    @Test(arguments: [("/", true), ("App", false)])
    func patchPathsAreRelativeToTheRepositoryRoot(_ workingDirectory: String, absolute: Bool) throws {
        let repository = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: repository) }
        let file = try copyFixture("ATS001/tabs.before.plist", to: repository, as: "App/Info.plist")
        _ = try git(["init", "-q"], in: repository)
        let directory = workingDirectory == "/" ? URL(fileURLWithPath: "/") : repository.appendingPathComponent(workingDirectory)
        let patch = try tool(["--format", "patch", absolute ? repository.path : ".."], in: directory)
        #expect(patch.text.hasPrefix("--- a/App/Info.plist\n+++ b/App/Info.plist\n"), "\(patch.text.prefix(80))")
        let text = try tool([absolute ? repository.path : ".."], in: directory)
        #expect(text.text.contains("--- a/App/Info.plist"), "per-pass diffs use the same paths")
        try patch.stdout.write(to: repository.appendingPathComponent("ats.patch"))
        let applied = try git(["apply", "ats.patch"], in: repository)
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try Data(contentsOf: file) == Data(contentsOf: Paths.fixtures.appendingPathComponent("ATS001/tabs.after.plist")))
    }
}
