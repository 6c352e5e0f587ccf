import Foundation
import Testing

/// A decision that lists the kinds its review page showed (`reviewed`): a file whose edit is
/// none of them changed since the review, and that is an error of the file in every mode, the
/// one a fleet's page uses (`--decision-spans-runs`) included; a decided kind nobody reviewed
/// is refused before anything is read.
@Suite struct ReviewedDecisionTests {
    /// A folder with the demo app, its kinds of change all accepted and all reviewed, plus one
    /// reviewed kind of another repository.
    func reviewedWorkspace() throws -> (URL, [String]) {
        let directory = try temporaryDirectory()
        _ = try copyFixture("demo/ShopApp/Info.plist", to: directory, as: "A/Info.plist")
        let report = try tool(["--no-config", "--format", "json", "A"], in: directory)
        let document = try #require(try JSONSerialization.jsonObject(with: report.stdout) as? [String: Any])
        let files = try #require(document["files"] as? [[String: Any]])
        let groups = Set(files.flatMap { ($0["passes"] as? [[String: Any]] ?? []).compactMap { $0["group"] as? String } }).sorted()
        #expect(groups.count >= 2, "the demo has several kinds")
        let version = try #require((document["tool"] as? [String: Any])?["version"] as? String)
        let elsewhere = "ATS004-0123456789ab"
        let decision: [String: Any] = ["schemaVersion": 1, "toolVersion": version, "accepted": groups + [elsewhere],
                                       "rejected": [String](), "reviewed": groups + [elsewhere]]
        try JSONSerialization.data(withJSONObject: decision).write(to: directory.appendingPathComponent("decision.json"))
        return (directory, groups)
    }

    @Test func theReviewedFileIsWrittenAndAnotherRepositorysKindIsFine() throws {
        let (directory, _) = try reviewedWorkspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try Data(contentsOf: directory.appendingPathComponent("A/Info.plist"))
        let result = try tool(["--no-config", "--write", "--accept", "decision.json", "--decision-spans-runs", "A"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("A/Info.plist")) != original, "written")
        #expect(!result.stderr.contains("changed since the review"), "\(result.stderr)")
    }

    /// One line inside an accepted kind's lines changes after the review: its edit is another
    /// kind, nobody reviewed it, and the file is not written: exit 2 (`--check`: 1), one error
    /// line naming the file, the summary counting it.
    @Test(arguments: [(["--write"], Int32(2)), (["--check"], Int32(1)), ([], Int32(2))])
    func aFileChangedSinceTheReviewIsAnErrorInTheModeAFleetUses(_ mode: [String], _ status: Int32) throws {
        let (directory, _) = try reviewedWorkspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("A/Info.plist")
        // The domain ATS004 rewrites is written otherwise: its edit's lines are not the reviewed ones.
        let text = try String(contentsOf: file, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "<key>*.images.Example-CDN.com</key>", with: "<key>*.images.Example-CDN.net</key>")
        try #require(edited != text)
        try Data(edited.utf8).write(to: file)
        let changed = try Data(contentsOf: file)
        let result = try tool(["--no-config", "--accept", "decision.json", "--decision-spans-runs"] + mode + ["A"], in: directory)
        #expect(result.status == status, "\(mode): \(result.stderr)")
        #expect(result.stderr.contains("A/Info.plist: error: changed since the review"), "\(result.stderr)")
        #expect(result.stderr.contains("1 file changed since the review: not written"), "\(result.stderr)")
        #expect(try Data(contentsOf: file) == changed, "not written")
        // The warning about the other repository's kind is said once for the run.
        #expect(result.stderr.components(separatedBy: "warning: the review decision names").count == 2, "\(result.stderr)")
    }

    @Test func aDecidedKindNobodyReviewedIsRefusedBeforeAnythingIsRead() throws {
        let (directory, groups) = try reviewedWorkspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let decisionURL = directory.appendingPathComponent("decision.json")
        var decision = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: decisionURL)) as? [String: Any])
        decision["reviewed"] = Array(groups.dropFirst())
        try JSONSerialization.data(withJSONObject: decision).write(to: decisionURL)
        let original = try Data(contentsOf: directory.appendingPathComponent("A/Info.plist"))
        let result = try tool(["--no-config", "--write", "--accept", "decision.json", "--decision-spans-runs", "A"], in: directory)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("\(groups[0]) is decided, but it is no kind the review showed"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("A/Info.plist")) == original)
    }
}
