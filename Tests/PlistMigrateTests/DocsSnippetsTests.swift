import Foundation
import Testing
import Yams

/// Every shell, YAML and JSON block of README.md and docs/ is read as its reader would: shell by
/// `bash -n`, JSON by a JSON parser, YAML by a YAML parser, and a GitHub workflow (or a list of
/// steps to add to one) for what GitHub refuses or what cannot run: a job without `runs-on`, a
/// step that neither runs nor uses anything, a job that runs `plist-migrate` before any step
/// installs it. (README's commands are also run: `DocsLinksTests`.)
@Suite struct DocsSnippetsTests {
    struct Block: CustomStringConvertible {
        var file: String
        var line: Int
        var language: String
        var text: String
        var description: String { "\(file):\(line)" }
    }

    static func blocks() throws -> [Block] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Paths.repository.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var found: [Block] = []
        for file in ["README.md"] + docs {
            let lines = try String(contentsOf: Paths.repository.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var open: (line: Int, language: String)?
            var body: [String] = []
            for (index, line) in lines.enumerated() {
                guard line.hasPrefix("```") else {
                    if open != nil { body.append(line) }
                    continue
                }
                if let started = open {
                    found.append(Block(file: file, line: started.line, language: started.language, text: body.joined(separator: "\n") + "\n"))
                    open = nil
                } else {
                    open = (index + 1, String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces))
                    body = []
                }
            }
        }
        return found
    }

    @Test func everyShellBlockParses() throws {
        let shell = try Self.blocks().filter { ["sh", "bash"].contains($0.language) }
        #expect(shell.count >= 8)
        for block in shell {
            let result = try run(URL(fileURLWithPath: "/bin/bash"), ["-n"], in: Paths.repository, input: Data(block.text.utf8))
            #expect(result.status == 0, "\(block): \(result.stderr)")
        }
    }

    @Test func everyJSONBlockParses() throws {
        for block in try Self.blocks() where block.language == "json" {
            #expect((try? JSONSerialization.jsonObject(with: Data(block.text.utf8))) != nil, "\(block)")
        }
    }

    @Test func everyYAMLBlockParsesAndEveryWorkflowCouldRun() throws {
        let yaml = try Self.blocks().filter { $0.language == "yaml" || $0.language == "yml" }
        #expect(yaml.count >= 4)
        for block in yaml {
            let loaded: Any?
            do { loaded = try Yams.load(yaml: block.text) } catch {
                Issue.record("\(block): not YAML: \(error)")
                continue
            }
            if let workflow = loaded as? [String: Any], let jobs = workflow["jobs"] as? [String: [String: Any]] {
                // YAML 1.1 reads a bare `on` as true: the text says it.
                #expect(block.text.hasPrefix("on:") || block.text.contains("\non:"), "\(block): a workflow says when it runs (on:)")
                _ = workflow
                for (name, job) in jobs {
                    #expect(job["runs-on"] != nil || job["uses"] != nil, "\(block): job \(name) has no runs-on")
                    Self.check(steps: job["steps"] as? [[String: Any]] ?? [], in: "\(block) job \(name)", needsInstall: true)
                }
            } else if let steps = loaded as? [[String: Any]] {
                Self.check(steps: steps, in: "\(block)", needsInstall: false)
            } else {
                #expect(loaded is [String: Any], "\(block): neither a workflow, steps, nor a configuration")
                // Half a job (its steps without `jobs:` and `runs-on`) cannot be pasted anywhere.
                #expect((loaded as? [String: Any])?["steps"] == nil, "\(block): a job without its workflow; show the whole workflow")
            }
        }
    }

    /// Each step runs or uses something; where `needsInstall`, no step runs the tool before one
    /// builds it or uses its Action.
    static func check(steps: [[String: Any]], in place: String, needsInstall: Bool) {
        #expect(!steps.isEmpty || !needsInstall, "\(place): no steps")
        var installed = false
        for step in steps {
            let run = step["run"] as? String, uses = step["uses"] as? String
            #expect(run != nil || uses != nil, "\(place): a step that neither runs nor uses anything: \(step)")
            if let uses, uses.contains("plist-migrate@") { installed = true }
            if let run {
                if run.contains("swift build") || run.contains("make install") { installed = true }
                if needsInstall, !installed, run.contains("plist-migrate ") || run.contains("/tmp/pm ") {
                    Issue.record("\(place): runs the tool before any step installs it: \(run)")
                }
                #expect(!run.contains("|| test $? -eq"), "\(place): a status swallowed without a word: \(run)")
            }
        }
    }
}
