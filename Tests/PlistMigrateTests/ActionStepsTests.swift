import Foundation
import Testing
import Yams

/// The GitHub Action's steps, run as `action.yml` writes them (read from the file,
/// their `${{ … }}` expressions filled in as the runner does, each script run by
/// `bash --noprofile --norc -eo pipefail` as GitHub runs `shell: bash`), for every input. The
/// build step runs too, with `swift` on the PATH a stand-in that records its arguments (the
/// run step then finds the test build's plist-migrate where a release build would put it).
@Suite struct ActionStepsTests {
    struct Outcome {
        var status: Int32
        var output: String
        var swiftArguments: String
    }

    /// The action's `runs.steps`, in order.
    static func steps() throws -> [[String: Any]] {
        let text = try String(contentsOf: Paths.repository.appendingPathComponent("action.yml"), encoding: .utf8)
        let action = try #require(try Yams.load(yaml: text) as? [String: Any])
        let runs = try #require(action["runs"] as? [String: Any])
        return try #require(runs["steps"] as? [[String: Any]])
    }

    static func defaults() throws -> [String: String] {
        let text = try String(contentsOf: Paths.repository.appendingPathComponent("action.yml"), encoding: .utf8)
        let action = try #require(try Yams.load(yaml: text) as? [String: Any])
        let inputs = try #require(action["inputs"] as? [String: [String: Any]])
        return inputs.mapValues { "\($0["default"] ?? "")" }
    }

    /// Runs every step with `inputs` (the rest at their defaults) in `workspace`; stops at the
    /// first step that fails, as a job does.
    static func runAction(_ inputs: [String: String], in workspace: URL) throws -> Outcome {
        let actionPath = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: actionPath) }
        for name in ["action.yml", "Package.swift", "Sources", "Migrations"] {
            try FileManager.default.createSymbolicLink(at: actionPath.appendingPathComponent(name),
                                                       withDestinationURL: Paths.repository.appendingPathComponent(name))
        }
        let release = actionPath.appendingPathComponent(".build/release")
        try FileManager.default.createDirectory(at: release, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: release.appendingPathComponent("plist-migrate"), withDestinationURL: Paths.executable)
        let shims = actionPath.appendingPathComponent("shims")
        try FileManager.default.createDirectory(at: shims, withIntermediateDirectories: true)
        let swiftLog = actionPath.appendingPathComponent("swift-arguments")
        let shim = shims.appendingPathComponent("swift")
        try Data("#!/bin/sh\necho \"$*\" >> '\(swiftLog.path)'\n".utf8).write(to: shim)
        chmod(shim.path, 0o755)
        let githubOutput = actionPath.appendingPathComponent("github-output")
        _ = FileManager.default.createFile(atPath: githubOutput.path, contents: nil)

        let values = try defaults().merging(inputs) { $1 }
        var stepOutputs: [String: String] = [:]
        var output = ""
        for step in try steps() {
            if step["uses"] != nil { continue }  // a JavaScript action (the cache): not ours to run
            let script = try #require(step["run"] as? String)
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = shims.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["GITHUB_ACTION_PATH"] = actionPath.path
            environment["GITHUB_OUTPUT"] = githubOutput.path
            environment["RUNNER_OS"] = "Linux"
            for (name, value) in step["env"] as? [String: Any] ?? [:] {
                environment[name] = try expand("\(value)", inputs: values, steps: stepOutputs, actionPath: actionPath.path)
            }
            let ran = try run(URL(fileURLWithPath: "/bin/bash"),
                              ["--noprofile", "--norc", "-eo", "pipefail", "-c",
                               try expand(script, inputs: values, steps: stepOutputs, actionPath: actionPath.path)],
                              in: workspace, environment: environment, mergingErrors: true)
            output += ran.text
            if let id = step["id"] as? String {
                let lines = (try? String(contentsOf: githubOutput, encoding: .utf8)) ?? ""
                for line in lines.split(separator: "\n") {
                    let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                    if parts.count == 2 { stepOutputs["\(id).\(parts[0])"] = parts[1] }
                }
            }
            if ran.status != 0 {
                return Outcome(status: ran.status, output: output, swiftArguments: (try? String(contentsOf: swiftLog, encoding: .utf8)) ?? "")
            }
        }
        return Outcome(status: 0, output: output, swiftArguments: (try? String(contentsOf: swiftLog, encoding: .utf8)) ?? "")
    }

    /// `${{ inputs.X }}`, `${{ github.action_path }}`, `${{ runner.os }}` and
    /// `${{ steps.ID.outputs.K }}`; any other expression fails the test, so a new one is seen.
    static func expand(_ text: String, inputs: [String: String], steps: [String: String], actionPath: String) throws -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "${{") {
            out += rest[..<open.lowerBound]
            let close = try #require(rest[open.upperBound...].range(of: "}}"), "an unclosed expression")
            let expression = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            let parts = expression.split(separator: ".").map(String.init)
            switch parts.first {
            case "inputs": out += try #require(inputs[parts[1]], "no input \(parts[1])")
            case "github" where expression == "github.action_path": out += actionPath
            case "runner" where expression == "runner.os": out += "Linux"
            case "steps" where parts.count == 4 && parts[2] == "outputs": out += steps["\(parts[1]).\(parts[3])"] ?? ""
            default: Issue.record("an expression this test does not know: \(expression)")
            }
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    func workspace() throws -> URL {
        let directory = try temporaryDirectory()
        _ = try copyFixture("ATS001/tabs.before.plist", to: directory, as: "Needs Migration/Info.plist")
        _ = try copyFixture("ATS001/tabs.after.plist", to: directory, as: "Clean/Info.plist")
        _ = try copyFixture("lint/everything.plist", to: directory, as: "Errors/Info.plist")
        _ = try copyFixture("ATS001/already-migrated.before.plist", to: directory, as: "Warnings/Info.plist")
        return directory
    }

    @Test func everyJavaScriptActionIsPinnedByCommit() throws {
        for step in try Self.steps() {
            guard let uses = step["uses"] as? String else { continue }
            #expect(uses.range(of: "@[0-9a-f]{40}$", options: .regularExpression) != nil, "\(uses) is not pinned by a commit SHA")
        }
    }

    @Test func theBuildStepBuildsTheReleaseProductOfTheActionsOwnPackage() throws {
        let directory = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try Self.runAction(["path": "Clean"], in: directory)
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.swiftArguments.contains("build -c release --product plist-migrate --package-path /"), "\(outcome.swiftArguments)")
    }

    /// `check` fails while anything needs migrating, on every path given one per line (a path
    /// may hold spaces), and `args`, `min-os` and `config` reach the tool.
    @Test func checkFailsWhileAnythingNeedsMigrating() throws {
        let directory = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Self.runAction(["path": "Clean"], in: directory).status == 0)
        let pending = try Self.runAction(["path": "Clean\nNeeds Migration"], in: directory)
        #expect(pending.status == 1, "\(pending.output)")
        #expect(pending.output.contains("Needs Migration/Info.plist"), "\(pending.output)")
        // `args`: only a pass that has nothing to do here, so nothing is pending.
        let only = try Self.runAction(["path": "Needs Migration", "args": "--only\nATS009"], in: directory)
        #expect(only.status == 0, "\(only.output)")
        #expect(try Self.runAction(["path": "Clean", "min-os": "ios99x"], in: directory).status == 64, "min-os reaches the tool")
        #expect(try Self.runAction(["path": "Clean", "config": "missing.json"], in: directory).status == 2, "config reaches the tool")
    }

    /// `lint` writes SARIF to `sarif-file` and is a gate: error-level findings fail the job,
    /// warnings too with `strict` (before, exit 1 was swallowed and the job passed with errors).
    @Test func lintWritesSARIFAndFailsOnFindingsThatFailTheGate() throws {
        let directory = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let errors = try Self.runAction(["command": "lint", "path": "Errors"], in: directory)
        #expect(errors.status == 1, "\(errors.output)")
        let sarif = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("plist-migrate.sarif"))) as? [String: Any]
        #expect(sarif?["version"] as? String == "2.1.0")

        let warnings = try Self.runAction(["command": "lint", "path": "Warnings", "sarif-file": "w.sarif"], in: directory)
        #expect(warnings.status == 0, "warnings alone pass: \(warnings.output)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("w.sarif").path))
        let strict = try Self.runAction(["command": "lint", "path": "Warnings", "strict": "true"], in: directory)
        #expect(strict.status == 1, "strict: warnings fail: \(strict.output)")

        // A baseline of today's findings lets the gate pass; new ones would still fail it.
        #expect(try tool(["lint", "--write-baseline", "baseline.json", "Errors"], in: directory).status == 0)
        let baselined = try Self.runAction(["command": "lint", "path": "Errors", "baseline": "baseline.json"], in: directory)
        #expect(baselined.status == 0, "\(baselined.output)")
    }

    @Test func inputsOutsideTheirValuesAreUsageErrors() throws {
        let directory = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let command = try Self.runAction(["command": "migrate"], in: directory)
        #expect(command.status == 64 && command.output.contains("::error::command must be check or lint"), "\(command.output)")
        let strict = try Self.runAction(["strict": "yes"], in: directory)
        #expect(strict.status == 64 && strict.output.contains("::error::strict must be true or false"), "\(strict.output)")
    }
}
