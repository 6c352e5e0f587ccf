import Foundation
import Testing

/// The integration files people expect are well formed: the pre-commit manifest
/// (checked by `pre-commit validate-manifest` where pre-commit is installed, by its required
/// fields otherwise) and the composite GitHub Action.
@Suite struct IntegrationFilesTests {
    func python(_ script: String, _ arguments: [String] = []) throws -> ProcessResult {
        try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments, in: Paths.repository)
    }

    @Test(.enabled(if: pythonHas("yaml"), "needs Python's PyYAML (pip install pyyaml; .ci/run installs it)"))
    func thePreCommitManifestIsValid() throws {
        let which = try run(URL(fileURLWithPath: "/usr/bin/env"), ["sh", "-c", "command -v pre-commit"], in: Paths.repository)
        if which.status == 0 {
            let validated = try run(URL(fileURLWithPath: "/usr/bin/env"), ["pre-commit", "validate-manifest", ".pre-commit-hooks.yaml"], in: Paths.repository)
            #expect(validated.status == 0, "\(validated.text)\(validated.stderr)")
        }
        let fields = try python("""
            import yaml
            hooks = yaml.safe_load(open('.pre-commit-hooks.yaml'))
            assert [h['id'] for h in hooks] == ['plist-migrate-check', 'plist-migrate-lint'], hooks
            for h in hooks:
                assert h['language'] == 'swift' and h['entry'].startswith('plist-migrate'), h
                assert set(h['types']) == {'plist', 'text'}, h
            """)
        #expect(fields.status == 0, "\(fields.stderr)")
    }

    @Test(.enabled(if: pythonHas("yaml"), "needs Python's PyYAML (pip install pyyaml; .ci/run installs it)"))
    func theActionIsACompositeThatBuildsAndRunsTheTool() throws {
        let checked = try python("""
            import yaml
            action = yaml.safe_load(open('action.yml'))
            assert action['runs']['using'] == 'composite'
            assert {'command', 'path', 'sarif-file', 'min-os', 'config', 'strict', 'baseline', 'args'} <= set(action['inputs'])
            steps = action['runs']['steps']
            assert all('shell' in s for s in steps if 'run' in s), steps
            assert any('swift build -c release' in s.get('run', '') for s in steps)
            assert any('lint --format sarif' in s.get('run', '') and '--check' in s.get('run', '') for s in steps)
            """)
        #expect(checked.status == 0, "\(checked.stderr)")
    }

    /// The action's run step, run by bash as the runner would, on a path with spaces; and its
    /// cache key, which must change with the action's sources (hashFiles cannot see them).
    @Test(.enabled(if: pythonHas("yaml"), "needs Python's PyYAML (pip install pyyaml; .ci/run installs it)"))
    func theActionTakesPathsWithSpacesAndKeysItsCacheByItsSources() throws {
        let extracted = try python("""
            import yaml
            steps = yaml.safe_load(open('action.yml'))['runs']['steps']
            cache = next(s for s in steps if s.get('uses', '').startswith('actions/cache'))
            assert 'hashFiles' not in cache['with']['key'] and 'steps.sources.outputs.hash' in cache['with']['key'], cache
            print(next(s for s in steps if s.get('name') == 'Run plist-migrate')['run'])
            """)
        #expect(extracted.status == 0, "\(extracted.stderr)")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let actionPath = directory.appendingPathComponent("action")
        try FileManager.default.createDirectory(at: actionPath.appendingPathComponent(".build/release"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: actionPath.appendingPathComponent(".build/release/plist-migrate"), withDestinationURL: Paths.executable)
        _ = try copyFixture("ATS001/tabs.before.plist", to: directory, as: "My App/Info.plist")
        func step(_ environment: [String: String]) throws -> (status: Int32, stderr: String) {
            let ran = try run(URL(fileURLWithPath: "/bin/bash"), ["-c", extracted.text], in: directory, environment: [
                "GITHUB_ACTION_PATH": actionPath.path, "PM_COMMAND": "check", "PM_PATH": "My App/Info.plist\n",
                "PM_SARIF": "out.sarif", "PM_MIN_OS": "", "PATH": "/usr/bin:/bin",
            ].merging(environment) { $1 })
            return (ran.status, ran.stderr)
        }
        let plain = try step([:])
        #expect(plain.status == 1, "pending changes in the one file: \(plain.stderr)")
        #expect(plain.stderr.contains("1 file scanned, 1 would change"), "\(plain.stderr)")
        // The inputs for a config, --strict, a baseline and extra arguments.
        let only = try step(["PM_ARGS": "--only\nATS005\n", "PM_STRICT": "true"])
        #expect(only.status == 0 && only.stderr.contains("0 would change"), "--only ATS005 leaves the ATS001 file alone: \(only.stderr)")
        try Data(#"{"skip": ["ATS001"]}"#.utf8).write(to: directory.appendingPathComponent("ci.json"))
        let config = try step(["PM_CONFIG": "ci.json"])
        #expect(config.status == 0, "the config skips ATS001: \(config.stderr)")
        #expect(try step(["PM_STRICT": "maybe"]).status == 64)
        let lint = try step(["PM_COMMAND": "lint", "PM_BASELINE": "missing.json"])
        #expect(lint.status != 0 && lint.stderr.contains("missing.json"), "the baseline is passed to lint: \(lint.stderr)")
    }
}
