import Foundation
import Testing
@testable import PlistMigrate

/// The review as a saved plan: a report records its run's options and, per changed file, the
/// digest of its bytes and of each pass's result; the page's decision carries that plan; and
/// `apply DECISION` writes exactly what was reviewed, or refuses the file.
@Suite struct ReviewPlanTests {
    /// The options every review here is made with: not the defaults, so that a command that
    /// forgot them would apply something else.
    static let reviewOptions = ["--allow-policy-change", "--min-os", "ios15"]

    /// A repository holding the demo's ShopApp (ATS001, ATS002, ATS004) and ShopApp-Dev
    /// (ATS003 then ATS010 with `--allow-policy-change`).
    static func repository(in root: URL, named name: String = "shop") throws -> URL {
        let repository = root.appendingPathComponent(name)
        _ = try copyFixture("demo/ShopApp/Info.plist", to: repository, as: "App/Info.plist")
        _ = try copyFixture("demo/ShopApp-Dev/Info.plist", to: repository, as: "Dev/Info.plist")
        #expect(try git(["init", "-q"], in: repository).status == 0)
        _ = try git(["remote", "add", "origin", "https://example.com/\(name).git"], in: repository)
        _ = try git(["add", "-A"], in: repository)
        _ = try git(["-c", "user.email=a@example.com", "-c", "user.name=A", "commit", "-qm", "init"], in: repository)
        return repository
    }

    /// The review page of `paths` (run in `directory` with the review's options), and the
    /// decision its script would download: the page's own plan block, and the kinds decided
    /// by `decide` (`accept`, `reject` or `nil` for undecided). The browser test drives the
    /// real script; this is the same JSON for the tests that are about applying it.
    static func review(_ paths: [String], in directory: URL, options: [String] = reviewOptions,
                       decide: (String) -> String?) throws -> [String: Any] {
        let page = try tool(options + ["--format", "html"] + paths, in: directory)
        // A tree with a broken file still makes its page (and exits 2 for that file).
        #expect(page.status == 0 || page.status == 2 && !page.stdout.isEmpty, "\(page.stderr)")
        let html = page.text
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"review-plan\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
        let kinds = ((plan["files"] as? [[String: Any]]) ?? []).flatMap { (($0["passes"] as? [[String: Any]]) ?? []).compactMap { $0["kind"] as? String } }
        var reviewed: [String] = []
        for kind in kinds where !reviewed.contains(kind) { reviewed.append(kind) }
        var decision: [String: Any] = ["schemaVersion": 2, "toolVersion": "0.2.0", "reviewed": reviewed,
                                       "accepted": reviewed.filter { decide($0) == "accept" }, "rejected": reviewed.filter { decide($0) == "reject" }]
        for key in ["runs", "repositories", "files"] { decision[key] = plan[key] }
        return decision
    }

    static func write(_ decision: [String: Any], to url: URL) throws {
        try JSONSerialization.data(withJSONObject: decision, options: [.sortedKeys]).write(to: url)
    }

    static func sha(_ url: URL) throws -> String {
        let result = try run(URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", url.path], in: url.deletingLastPathComponent())
        return String(result.text.prefix(32))
    }

    @Test func theReportRecordsTheOptionsAndTheDigestsOfEveryStep() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let repository = try Self.repository(in: root)
        let json = try ReviewTests.json(try tool(Self.reviewOptions + ["--format", "json", "."], in: repository).stdout)
        let plans = try #require(json["plans"] as? [[String: Any]])
        #expect(plans.count == 1 && plans[0]["allowPolicyChange"] as? Bool == true && plans[0]["minimumOS"] as? String == "ios15", "\(plans)")
        #expect((plans[0]["passes"] as? [String])?.first == "ATS001@1")
        let files = try #require(json["files"] as? [[String: Any]]).filter { $0["digest"] != nil }
        #expect(files.count == 2)
        // sha256sum is the oracle: the digest is the file's as read; the last pass's result is
        // the file `--write` leaves with the same options.
        for file in files {
            let path = try #require(file["path"] as? String)
            #expect(file["digest"] as? String == (try Self.sha(repository.appendingPathComponent(path))), "\(path)")
        }
        #expect(try tool(Self.reviewOptions + ["--write", "."], in: repository).status == 0)
        for file in files {
            let path = try #require(file["path"] as? String)
            let last = (file["passes"] as? [[String: Any]])?.last?["result"] as? String
            #expect(last == (try Self.sha(repository.appendingPathComponent(path))), "\(path)")
        }
    }

    /// Everything accepted: each file ends exactly as the plan's result, the same bytes as a
    /// `--write` with the review's options; `apply --check` exits 1 before and 0 after; a
    /// second apply changes nothing.
    @Test func everythingAcceptedLandsAsThePlanSaysAndOnlyOnce() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let repository = try Self.repository(in: root)
        let twin = try Self.repository(in: root, named: "twin")
        let decisionFile = root.appendingPathComponent("decision.json")
        try Self.write(try Self.review(["."], in: repository) { _ in "accept" }, to: decisionFile)
        #expect(try tool(["apply", "--check", decisionFile.path], in: repository).status == 1)
        let applied = try tool(["apply", decisionFile.path], in: repository)
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try tool(Self.reviewOptions + ["--write", "."], in: twin).status == 0)
        for name in ["App/Info.plist", "Dev/Info.plist"] {
            #expect(try Data(contentsOf: repository.appendingPathComponent(name)) == (try Data(contentsOf: twin.appendingPathComponent(name))), "\(name)")
        }
        let check = try tool(["apply", "--check", decisionFile.path], in: repository)
        #expect(check.status == 0 && !check.stderr.contains("warning"), "\(check.stderr)")
        let again = try tool(["apply", decisionFile.path], in: repository)
        #expect(again.status == 0 && again.stderr.contains("0 changed"), "\(again.stderr)")
    }

    /// A rejected kind holds back every kind after it in that file, with a note, and exit 0:
    /// never "changed since the review". The kinds before it, and other files, land.
    @Test func aRejectedKindHoldsBackWhatFollowsItQuietly() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let repository = try Self.repository(in: root)
        let before = try Data(contentsOf: repository.appendingPathComponent("Dev/Info.plist"))
        let decision = try Self.review(["."], in: repository) { $0.hasPrefix("ATS003") ? "reject" : "accept" }
        try Self.write(decision, to: root.appendingPathComponent("decision.json"))
        let applied = try tool(["apply", root.appendingPathComponent("decision.json").path], in: repository)
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(applied.stderr.contains("ATS003 held back") && applied.stderr.contains("was rejected in review"), "\(applied.stderr)")
        #expect(applied.stderr.contains("ATS010 held back") && applied.stderr.contains("applies after ATS003-"), "\(applied.stderr)")
        #expect(!applied.stderr.contains("changed since"), "\(applied.stderr)")
        #expect(try Data(contentsOf: repository.appendingPathComponent("Dev/Info.plist")) == before)
        #expect(!(try String(contentsOf: repository.appendingPathComponent("App/Info.plist"), encoding: .utf8)).contains("NSThirdParty"))
        // Undecided holds back the same way, and says so.
        let other = try Self.repository(in: root, named: "other")
        try Self.write(try Self.review(["."], in: other) { $0.hasPrefix("ATS003") ? nil : "accept" }, to: root.appendingPathComponent("d2.json"))
        let undecided = try tool(["apply", root.appendingPathComponent("d2.json").path], in: other)
        #expect(undecided.status == 0 && undecided.stderr.contains("was left undecided in review"), "\(undecided.stderr)")
    }

    /// A file whose bytes are not those reviewed is an error of that file, whatever was edited:
    /// a context line that changes the policy effect of a reviewed kind (TLSv1.2 → TLSv1.1 in
    /// the Payments entry), or a value flipped outside every hunk. It is not written, the run
    /// exits 2 and the summary counts it; the other reviewed file is still written.
    @Test(arguments: [("<string>TLSv1.2</string>", "<string>TLSv1.1</string>"), ("<false/>", "<true/>")])
    func aFileChangedAfterTheReviewIsRefused(edit: (String, String)) throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let repository = try Self.repository(in: root)
        try Self.write(try Self.review(["."], in: repository) { _ in "accept" }, to: root.appendingPathComponent("decision.json"))
        let app = repository.appendingPathComponent("App/Info.plist")
        let changed = try String(contentsOf: app, encoding: .utf8).replacingOccurrences(of: edit.0, with: edit.1)
        try Data(changed.utf8).write(to: app)
        let applied = try tool(["apply", root.appendingPathComponent("decision.json").path], in: repository)
        #expect(applied.status == 2, "\(applied.stderr)")
        #expect(applied.stderr.contains("App/Info.plist: error: changed since the review"), "\(applied.stderr)")
        #expect(applied.stderr.contains("1 file changed since the review: not written"), "\(applied.stderr)")
        #expect(try String(contentsOf: app, encoding: .utf8) == changed, "not written")
        #expect(!(try String(contentsOf: repository.appendingPathComponent("Dev/Info.plist"), encoding: .utf8)).contains("NSAllowsArbitraryLoads</key>\n\t\t<true/>\n\t\t<key>NSAllowsArbitraryLoadsInWebContent"),
                "the other file is written")
        // The kind the page showed covers its policy effect: the same lines with another effect
        // are another kind.
        if edit.0.contains("TLS") {
            let now = try ReviewTests.json(try tool(Self.reviewOptions + ["--format", "json", "App"], in: repository).stdout)
            let reviewed = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("decision.json"))) as? [String: Any])
            let kinds = Set((now["files"] as? [[String: Any]] ?? []).flatMap { ($0["passes"] as? [[String: Any]] ?? []).compactMap { $0["group"] as? String } })
            let ats004 = kinds.filter { $0.hasPrefix("ATS004") }
            #expect(!ats004.isEmpty && ats004.isDisjoint(with: Set(reviewed["reviewed"] as? [String] ?? [])), "\(ats004)")
        }
    }

    /// A file that was not in the review (added since) is never touched nor called changed; a
    /// kind no reviewed file has is refused before anything is written.
    @Test func aKindNoRunHasIsRefusedAndAnUnreviewedFileIsLeftAlone() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let repository = try Self.repository(in: root)
        var decision = try Self.review(["App"], in: repository) { _ in "accept" }
        try Self.write(decision, to: root.appendingPathComponent("decision.json"))
        let dev = try Data(contentsOf: repository.appendingPathComponent("Dev/Info.plist"))
        _ = try copyFixture("demo/ShopApp/Info.plist", to: repository, as: "Added/Info.plist")
        let applied = try tool(["apply", root.appendingPathComponent("decision.json").path], in: repository)
        #expect(applied.status == 0 && !applied.stderr.contains("changed since"), "\(applied.stderr)")
        #expect(try Data(contentsOf: repository.appendingPathComponent("Dev/Info.plist")) == dev)
        #expect(try String(contentsOf: repository.appendingPathComponent("Added/Info.plist"), encoding: .utf8).contains("NSThirdParty"))

        let fresh = try Self.repository(in: root, named: "fresh")
        decision = try Self.review(["."], in: fresh) { _ in "accept" }
        let before = try Data(contentsOf: fresh.appendingPathComponent("App/Info.plist"))
        for key in ["accepted", "reviewed"] { decision[key] = (decision[key] as? [String] ?? []) + ["ATS001-0123456789ab"] }
        try Self.write(decision, to: root.appendingPathComponent("forged.json"))
        let refused = try tool(["apply", root.appendingPathComponent("forged.json").path], in: fresh)
        #expect(refused.status == 2 && refused.stderr.contains("ATS001-0123456789ab") && refused.stderr.contains("no reviewed file has"), "\(refused.stderr)")
        #expect(try Data(contentsOf: fresh.appendingPathComponent("App/Info.plist")) == before, "nothing written")
    }

    /// Every option that chooses what runs, typed beside a decision that carries its plan:
    /// one that contradicts the plan is refused, one that repeats it is fine.
    @Test(arguments: [(["--min-os", "ios12"], Int32(2)), (["--skip", "ATS004"], Int32(2)), (["--only", "ATS001"], Int32(2)),
                      (["--to", "3"], Int32(2)), (["--no-config"], Int32(2)), (["--allow-policy-change"], Int32(0)),
                      (["--min-os", "ios15"], Int32(0)), ([], Int32(0))])
    func anOptionThatContradictsThePlanIsRefused(options: [String], status: Int32) throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let repository = try Self.repository(in: root)
        try Self.write(try Self.review(["."], in: repository) { _ in "accept" }, to: root.appendingPathComponent("decision.json"))
        let before = try Data(contentsOf: repository.appendingPathComponent("App/Info.plist"))
        let result = try tool(["--write", "--accept", root.appendingPathComponent("decision.json").path] + options + ["."], in: repository)
        #expect(result.status == status, "\(options): \(result.stderr)")
        if status == 2 {
            #expect(result.stderr.contains("contradict") && result.stderr.contains(options[0]), "\(result.stderr)")
            #expect(try Data(contentsOf: repository.appendingPathComponent("App/Info.plist")) == before)
        } else {
            #expect(!(try String(contentsOf: repository.appendingPathComponent("Dev/Info.plist"), encoding: .utf8)).contains("NSAllowsArbitraryLoadsInWebContent</key>\n\t\t<true/>\n\t\t<key>NSAllowsArbitraryLoads<"),
                    "the accepted ATS003 lands: \(result.stderr)")
        }
    }

    /// One page over two repositories: in each, the page's command applies that repository's
    /// files alone; from above them, every reviewed file.
    @Test func inARepositoryTheDecisionAppliesThatRepositorysFiles() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let alpha = try Self.repository(in: root, named: "alpha"), beta = try Self.repository(in: root, named: "beta")
        try Self.write(try Self.review(["alpha", "beta"], in: root) { _ in "accept" }, to: root.appendingPathComponent("decision.json"))
        let betaBefore = try Data(contentsOf: beta.appendingPathComponent("App/Info.plist"))
        let inAlpha = try tool(["apply", root.appendingPathComponent("decision.json").path], in: alpha)
        #expect(inAlpha.status == 0 && inAlpha.stderr.contains("2 files scanned, 2 changed"), "\(inAlpha.stderr)")
        #expect(try Data(contentsOf: beta.appendingPathComponent("App/Info.plist")) == betaBefore)
        // In a repository the review did not cover: refused, and beta is still not touched.
        let other = try Self.repository(in: root, named: "other")
        let elsewhere = try tool(["apply", root.appendingPathComponent("decision.json").path], in: other)
        #expect(elsewhere.status == 2 && elsewhere.stderr.contains("is none the decision reviewed"), "\(elsewhere.stderr)")
        #expect(try Data(contentsOf: beta.appendingPathComponent("App/Info.plist")) == betaBefore)
        let above = try tool(["apply", "decision.json"], in: root)
        #expect(above.status == 0 && above.stderr.contains("4 files scanned, 2 changed, 2 unchanged"), "\(above.stderr)")
    }

    /// A decision without its plan (schemaVersion 1, hand-written) still works, and says that
    /// it cannot tell a changed file.
    @Test func anOlderDecisionStillWorksAndSaysWhatItCannotTell() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let repository = try Self.repository(in: root)
        let kinds = try Self.review(["App"], in: repository, options: []) { _ in "accept" }["accepted"] as? [String] ?? []
        try Self.write(["schemaVersion": 1, "toolVersion": "0.2.0", "accepted": kinds, "rejected": [String]()], to: root.appendingPathComponent("old.json"))
        let result = try tool(["--write", "--accept", root.appendingPathComponent("old.json").path, "App"], in: repository)
        #expect(result.status == 0 && result.stderr.contains("it cannot tell a file edited after the review"), "\(result.stderr)")
        #expect(!(try String(contentsOf: repository.appendingPathComponent("App/Info.plist"), encoding: .utf8)).contains("NSThirdParty"))
        let apply = try tool(["apply", root.appendingPathComponent("old.json").path], in: repository)
        #expect(apply.status == 2 && apply.stderr.contains("carries no plan"), "\(apply.stderr)")
    }
}

/// SHA-256 against FIPS 180-4's own examples and Python's hashlib over lengths around every
/// padding boundary.
@Suite struct SHA256Tests {
    @Test func knownAnswers() {
        #expect(SHA256.hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.digest(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223")
    }

    @Test func agreesWithHashlibAroundEveryBlockBoundary() throws {
        let lengths = [1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4096]
        let result = try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import hashlib, sys
            for n in map(int, sys.argv[1:]): print(hashlib.sha256(bytes((i * 7 + 3) % 256 for i in range(n))).hexdigest())
            """] + lengths.map(String.init), in: Paths.repository)
        let expected = result.text.split(separator: "\n").map(String.init)
        #expect(expected.count == lengths.count, "\(result.stderr)")
        for (length, want) in zip(lengths, expected) {
            let bytes = (0..<length).map { UInt8(($0 * 7 + 3) % 256) }
            #expect(SHA256.hex(SHA256.hash(bytes)) == want, "\(length) bytes")
        }
    }
}

extension ReviewPlanTests {
    /// A recipe the review ran is part of its plan, by digest: `apply` runs it again as it was,
    /// and a recipe edited since the review refuses the decision before any file is read.
    @Test func aRecipeEditedAfterTheReviewRefusesTheDecision() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let repository = try Self.repository(in: root)
        let recipe = root.appendingPathComponent("encryption.yml")
        let text = """
            passes:
              - id: ENC900
                version: 1
                name: declare-export-compliance
                title: Set ITSAppUsesNonExemptEncryption to false where it is absent
                description: The export-compliance answer, for every file.
                impact: spelling
                steps:
                  - set: ITSAppUsesNonExemptEncryption
                    value: false
                    when: ifAbsent

            """
        try Data(text.utf8).write(to: recipe)
        let options = Self.reviewOptions + ["--recipe", recipe.path]
        let decision = try Self.review(["."], in: repository, options: options) { _ in "accept" }
        #expect((decision["files"] as? [[String: Any]] ?? []).contains { (($0["passes"] as? [[String: Any]]) ?? []).contains { ($0["kind"] as? String)?.hasPrefix("ENC900") == true } },
                "the recipe's pass is among the reviewed kinds")
        try Self.write(decision, to: root.appendingPathComponent("decision.json"))
        try Data((try String(contentsOf: recipe, encoding: .utf8) + "\n# edited\n").utf8).write(to: recipe)
        let before = try Data(contentsOf: repository.appendingPathComponent("App/Info.plist"))
        let refused = try tool(["apply", root.appendingPathComponent("decision.json").path], in: repository)
        #expect(refused.status == 2 && refused.stderr.contains("encryption.yml changed since the review"), "\(refused.stderr)")
        #expect(try Data(contentsOf: repository.appendingPathComponent("App/Info.plist")) == before)
        // As it was, the recipe runs again and its kind lands.
        try Data(text.utf8).write(to: recipe)
        let applied = try tool(["apply", root.appendingPathComponent("decision.json").path], in: repository)
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try String(contentsOf: repository.appendingPathComponent("App/Info.plist"), encoding: .utf8).contains("ITSAppUsesNonExemptEncryption"))
    }
}
