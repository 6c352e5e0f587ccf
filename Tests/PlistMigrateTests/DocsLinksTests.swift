import Foundation
import Testing
import PlistMigrate

/// The README is a newcomer's page and the docs hold the rest: the README stays short, and every
/// relative link in it and in `docs/` reaches a file that exists and, with `#…`, a heading there.
@Suite struct DocsLinksTests {
    static let pages: [URL] = {
        let docs = Paths.repository.appendingPathComponent("docs")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []).filter { $0.hasSuffix(".md") }.sorted()
        return [Paths.repository.appendingPathComponent("README.md"), Paths.repository.appendingPathComponent("ARCHITECTURE.md")]
            + names.map { docs.appendingPathComponent($0) }
    }()

    /// The lines of `text` outside fenced code blocks.
    static func prose(_ text: String) -> [Substring] {
        var inside = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") { inside.toggle(); return false }
            return !inside
        }
    }

    /// GitHub's anchor for a heading: lowercased, punctuation other than `-` dropped, spaces to `-`.
    static func anchor(_ heading: Substring) -> String {
        String(heading.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == " " || $0 == "_" }
            .map(Character.init)).replacingOccurrences(of: " ", with: "-")
    }

    static func anchors(of url: URL) throws -> Set<String> {
        Set(prose(try String(contentsOf: url, encoding: .utf8)).compactMap { line in
            guard line.hasPrefix("#"), let space = line.firstIndex(of: " ") else { return nil }
            return anchor(line[line.index(after: space)...])
        })
    }

    @Test func theReadmeIsANewcomersPage() throws {
        let lines = try String(contentsOf: Paths.repository.appendingPathComponent("README.md"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 400, "README.md has \(lines) lines")
        #expect(Self.pages.count > 10, "the docs pages are found")
    }

    /// Words about how the project was made, not what it does: a period of work, an issue number,
    /// "this run" of the person writing. Users' pages and the changelog hold none of them.
    static func notesAboutTheWork(in text: String) -> [String] {
        // And the voice of a lab: its own machine ("this VM", "tried here", "30 MB here"), its
        // rounds and bars, where a reader needs the machine described.
        let patterns = [#/(?i)\bsessions?\b/#, #/(?i)\bthis run\b/#, #/(?i)\bissues? #?\d+/#, #/(?:^|[\s(\[,])#\d+\b/#,
                        #/(?i)\b(?:this|the project's) (?:\d-core )?VM\b/#, #/(?i)\btried here\b/#, #/(?i)\bin these rounds\b/#,
                        #/(?i)\bspeed bars?\b/#, #/(?i)\bon the same machine\b/#, #/(?i)\b(?:MB|GB|KB|s|minutes|seconds) here\b/#]
        return text.split(separator: "\n").filter { line in patterns.contains { line.contains($0) } }.map(String.init)
    }

    @Test func theDocsSpeakToUsers() throws {
        var found: [String] = []
        for page in Self.pages where page.lastPathComponent != "ARCHITECTURE.md" {
            found += Self.notesAboutTheWork(in: try String(contentsOf: page, encoding: .utf8)).map { "\(page.lastPathComponent): \($0)" }
        }
        #expect(found.isEmpty, "\(found)")
        #expect(Self.notesAboutTheWork(in: "see issue #15\nas measured in this run\nfixed in #54").count == 3, "the check finds what it looks for")
        #expect(Self.notesAboutTheWork(in: "on this 2-core VM\nnot tried here (Linux)\nall under 30 MB here\nnot met in these rounds").count == 4)
    }

    /// Code speaks to its readers, who have no tracker: what it does and why, never an issue
    /// number (every source, script and test file; this file's own examples of what the check
    /// finds are built from parts).
    @Test func theCodeNamesNoIssueNumbers() throws {
        let listed = try git(["ls-files", "Sources", "Plugins", "Migrations", "Benchmarks", "Fuzz", "Tests", ".ci/run", "Package.swift", "Makefile", "action.yml"],
                             in: Paths.repository).text.split(separator: "\n").map(String.init)
        // Fixtures' and measurements' notes are read as docs are.
        let notes = try git(["ls-files", "Fixtures", "Benchmarks", "Recipes"], in: Paths.repository).text.split(separator: "\n").map(String.init)
            .filter { $0.hasSuffix(".md") }
        let code = listed.filter { file in [".swift", ".sh", ".py", ".yml", ".yaml"].contains { file.hasSuffix($0) } || [".ci/run", "Makefile", "Package.swift"].contains(file) }
            + notes
        #expect(code.count > 100)
        let patterns = [#/(?i)\bissues? #?\d+/#, #/(?:^|[\s(\[,])#\d+\b/#]
        var found: [String] = []
        for file in code where file != "Tests/PlistMigrateTests/DocsLinksTests.swift" {
            let text = (try? String(contentsOf: Paths.repository.appendingPathComponent(file), encoding: .utf8)) ?? ""
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where patterns.contains(where: { line.contains($0) }) {
                found.append("\(file):\(number + 1)")
            }
        }
        #expect(found.isEmpty, "\(found.prefix(10))")
        // The check finds what it looks for.
        let examples = ["// see " + "issue " + "#" + "12", "// fixed in (" + "#" + "12)"]
        #expect(zip(patterns, examples).allSatisfy { pattern, example in example.contains(pattern) })
    }

    /// Keep a Changelog: what changed for a user, one line per change, grouped by version; the
    /// measurements behind it live under `Benchmarks/`.
    /// Each figure the performance page gives is the one a measurement recorded: it appears in
    /// Benchmarks/results.md (or, for replayed history, docs/replay.md), so the page cannot
    /// drift from the log it quotes.
    @Test func performanceFiguresComeFromTheResults() throws {
        let page = try String(contentsOf: Paths.repository.appendingPathComponent("docs/performance.md"), encoding: .utf8)
        let sources = try ["Benchmarks/results.md", "docs/replay.md"].map {
            try String(contentsOf: Paths.repository.appendingPathComponent($0), encoding: .utf8)
        }.joined(separator: "\n")
        let measured = ["## Current numbers", "## Where the time goes"].compactMap { heading -> Substring? in
            guard let start = page.range(of: heading) else { return nil }
            let rest = page[start.upperBound...]
            return rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        }
        #expect(measured.count == 2, "the page's measured sections are found")
        // Figures with a unit or a decimal point: 0.40 s, 25.7 MB, 1,973.8 M, 1.298×, 2.45×.
        let figure = /\d[\d,]*\.\d+ ?(?:s|MB|M|G|×)?|\d{1,3}(?:,\d{3})+(?: M)?/
        var unsourced: [String] = []
        // Goals are the owner's, not measurements: lines that state one are left out.
        for section in measured {
            let lines = section.split(separator: "\n").filter { !$0.contains("goal") && !$0.contains("at most") }
            for match in lines.joined(separator: "\n").matches(of: figure) where !sources.contains(String(match.output)) {
                unsourced.append(String(match.output))
            }
        }
        #expect(unsourced.isEmpty, "figures on the performance page that no measurement records: \(unsourced)")
        #expect(measured.joined().matches(of: figure).count > 30, "the figures are found")
    }

    @Test func theChangelogIsForUsers() throws {
        let text = try String(contentsOf: Paths.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count < 400, "CHANGELOG.md has \(lines.count) lines")
        #expect(Self.notesAboutTheWork(in: text).isEmpty, "\(Self.notesAboutTheWork(in: text))")
        var continued: [String] = []
        var changes = 0
        for (index, line) in lines.enumerated() where line.hasPrefix("- ") {
            changes += 1
            if index + 1 < lines.count, let next = lines[index + 1].first, next == " " || next.isLetter || next == "`" {
                continued.append(String(line.prefix(60)))
            }
        }
        #expect(continued.isEmpty, "a change takes more than one line: \(continued)")
        // One short line a change: a reader scans a list, a paragraph is a page's job.
        let long = lines.filter { $0.hasPrefix("- ") && $0.count > 200 }.map { String($0.prefix(60)) }
        #expect(long.isEmpty, "changes over 200 characters: \(long)")
        #expect(changes > 100, "the changes are found")
        // What only the tool's developers see (its fuzzers, benchmarks and tests) is in the history, not here.
        let developerOnly = lines.filter { line in
            ["- `Fuzz/", "- Fuzz ", "- `Benchmarks/", "- `swift test`", "- `.ci/", "- Tests "].contains { line.hasPrefix($0) }
        }
        #expect(developerOnly.isEmpty, "changes only developers see: \(developerOnly.map { $0.prefix(60) })")
        let sections = lines.filter { $0.hasPrefix("## [") }
        #expect(sections.first == "## [Unreleased]", "\(sections)")
    }

    @Test func everyRelativeLinkResolves() throws {
        var broken: [String] = []
        let link = /\]\(([^)\s]+)\)/
        for page in Self.pages {
            for line in Self.prose(try String(contentsOf: page, encoding: .utf8)) {
                for match in line.matches(of: link) {
                    let target = String(match.1)
                    guard !target.hasPrefix("http://"), !target.hasPrefix("https://"), !target.hasPrefix("mailto:") else { continue }
                    let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                    let file = parts[0].isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(String(parts[0])).standardizedFileURL
                    guard FileManager.default.fileExists(atPath: file.path) else {
                        broken.append("\(page.lastPathComponent): \(target)")
                        continue
                    }
                    if parts.count == 2, file.pathExtension == "md", !(try Self.anchors(of: file)).contains(String(parts[1])) {
                        broken.append("\(page.lastPathComponent): \(target)")
                    }
                }
            }
        }
        #expect(broken.isEmpty, "\(broken)")
    }

    /// Every command of the README's `sh` blocks runs: `plist-migrate …` lines in a
    /// workspace holding the paths they name (`App/`, `path/to/App`, `~/src/repoA` with HOME
    /// there, a second repository's report and a downloaded decision), each ending 0 or 1, never a usage
    /// error or a failure; `swift run plist-migrate …` as the built binary; `swift test` is what
    /// `.ci/run` runs; `make install …` as `make -n` shows it.
    @Test func everyCommandOfTheReadmeRuns() throws {
        let readme = try String(contentsOf: Paths.repository.appendingPathComponent("README.md"), encoding: .utf8)
        var commands: [String] = []
        var inside = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inside = line == "```sh" ? true : false; continue }
            guard inside else { continue }
            let command = (line.range(of: "  #").map { line[..<$0.lowerBound] } ?? line).trimmingCharacters(in: .whitespaces)
            if !command.isEmpty { commands.append(command) }
        }
        #expect(commands.count >= 10, "\(commands)")
        let home = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        for place in ["path/to/App/Info.plist", "src/repoA/App/Info.plist", "src/repoB/App/Info.plist"] {
            _ = try copyFixture("demo/ShopApp/Info.plist", to: home, as: place)
        }
        _ = try copyFixture("ENC001/comments.before.plist", to: home, as: "App/Info.plist")
        // `edit`'s example works on the bundled demo, as a fresh clone has it.
        _ = try copyFixture("demo/ShopApp/Info.plist", to: home, as: "Fixtures/demo/ShopApp/Info.plist")
        #expect(try tool(["--format", "json", "--output", "repoB.json", "src/repoB"], in: home).status == 0)
        // The decision as the page downloads it, where browsers save it: the plan of src/repoA's review.
        let decision = try ReviewPlanTests.review(["src/repoA"], in: home, options: []) { _ in "accept" }
        try ReviewPlanTests.write(decision, to: try home.appendingPathComponent("Downloads").creatingDirectory().appendingPathComponent("plist-migrate-decision.json"))
        let ci = try String(contentsOf: Paths.repository.appendingPathComponent(".ci/run"), encoding: .utf8)
        for command in commands {
            if command == "swift test" {
                #expect(ci.split(separator: "\n").last == "swift test", ".ci/run ends with the README's test command")
            } else if command.hasPrefix("make ") {
                let make = try run(URL(fileURLWithPath: "/bin/bash"), ["-c", command.replacingOccurrences(of: "make ", with: "make -n ")], in: Paths.repository)
                #expect(make.status == 0, "\(command): \(make.stderr)")
            } else {
                let line = command.hasPrefix("swift run plist-migrate ") ? String(command.dropFirst("swift run ".count)) : command
                #expect(line.hasPrefix("plist-migrate "), "a command this test does not know: \(command)")
                let directory = command.hasPrefix("swift run ") ? Paths.repository : home
                let shell = "export HOME='\(home.path)' PATH='\(Paths.executable.deletingLastPathComponent().path)':\"$PATH\"; " + line
                let result = try run(URL(fileURLWithPath: "/bin/bash"), ["-c", shell], in: directory)
                #expect(result.status <= 1, "\(command): exit \(result.status): \(result.stderr)")
                if line.hasPrefix("plist-migrate edit ") {
                    #expect(result.status == 0 && result.text.contains("+\t<string>Shop Beta</string>"), "\(command): \(result.text)")
                }
            }
        }
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("review.html").path), "the fleet example made its page")
    }
}
