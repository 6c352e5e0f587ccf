import Foundation
import Testing

/// One gate for every file the tool writes: each option that takes a file to write, found in the
/// argument parser's own definitions (`--experimental-dump-help`: an option whose value is a
/// FILE and whose help starts with "Write"), driven at every file the run reads and at every
/// destination that is no file to replace. A new writing option is covered without a new test.
@Suite struct WriterGateTests {
    struct Writer: Hashable, CustomStringConvertible {
        var subcommand: String
        var option: String
        var description: String { "\(subcommand) \(option)" }
    }

    /// Every (subcommand, option) that writes a file, from the parser's definitions.
    static func writers() throws -> [Writer] {
        let dump = try tool(["--experimental-dump-help"], in: Paths.repository)
        let root = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        var found: [Writer] = []
        func walk(_ command: [String: Any]) {
            let name = command["commandName"] as? String ?? ""
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String == "option" {
                guard argument["valueName"] as? String == "FILE", (argument["abstract"] as? String ?? "").hasPrefix("Write") else { continue }
                let long = (argument["names"] as? [[String: Any]] ?? []).first { $0["kind"] as? String == "long" }?["name"] as? String
                if let long { found.append(Writer(subcommand: name, option: "--" + long)) }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub) }
        }
        walk(try #require(root["command"] as? [String: Any]))
        return found.sorted { $0.description < $1.description }
    }

    @Test func theWritersAreFoundAndDocsSafetyListsEachOne() throws {
        let writers = try Self.writers()
        let expected: Set<String> = ["migrate --output", "apply --output", "lint --output", "lint --write-baseline", "lint --build-stamp", "report --output"]
        #expect(expected.isSubset(of: Set(writers.map(\.description))), "\(writers)")
        let safety = try String(contentsOf: Paths.repository.appendingPathComponent("docs/safety.md"), encoding: .utf8)
        let line = try #require(safety.split(separator: "\n").first { $0.contains("<!-- writers: ") })
        let listed = line.components(separatedBy: "<!-- writers: ")[1].components(separatedBy: " -->")[0].components(separatedBy: "; ")
        #expect(listed == writers.map(\.description), "docs/safety.md lists \(listed), the parser defines \(writers)")
        for writer in writers { #expect(safety.contains("`\(writer)`"), "\(writer) is named in docs/safety.md") }
    }

    /// A tree to run in: `in/` (walked) with a plist and a config, a JSON report (what `report`
    /// reads) and a review decision for `in/` (what `apply` reads).
    static func workspace() throws -> URL {
        let root = try temporaryDirectory()
        _ = try copyFixture("demo/ShopApp/Info.plist", to: root, as: "in/a.plist")
        try Data("{}\n".utf8).write(to: root.appendingPathComponent("in/.plist-migrate.json"))
        #expect(try tool(["--format", "json", "--output", "r.json", "in"], in: root).status == 0)
        try ReviewPlanTests.write(try ReviewPlanTests.review(["in"], in: root, options: []) { _ in "accept" }, to: root.appendingPathComponent("decision.json"))
        return root
    }

    /// The command line of `writer` writing to `destination`, and the file it reads that
    /// stands for "an input" (the walked plist; `report`'s JSON report).
    static func command(_ writer: Writer, _ destination: String) -> (arguments: [String], input: String) {
        switch writer.subcommand {
        case "report": (["report", writer.option, destination, "r.json"], "r.json")
        case "apply": (["apply", writer.option, destination, "--dry-run", "decision.json", "in"], "in/a.plist")
        case "plist-migrate", "migrate": (["migrate", writer.option, destination, "in"], "in/a.plist")
        default: ([writer.subcommand, writer.option, destination, "in"], "in/a.plist")
        }
    }

    /// Every writer at every file the run reads (the input itself, a symbolic link and a hard
    /// link to it, the walked config, a new plist inside the walked tree) and at a FIFO and a
    /// device: one line, exit 2, nothing written; at `-`: standard output.
    @Test func everyWriterRefusesEveryFileTheRunReadsAndEveryNonFile() throws {
        let writers = try Self.writers()
        try #require(!writers.isEmpty)
        for writer in writers {
            let root = try Self.workspace()
            defer { try? FileManager.default.removeItem(at: root) }
            let input = Self.command(writer, "").input
            try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link.out").path, withDestinationPath: input)
            try FileManager.default.linkItem(atPath: root.appendingPathComponent(input).path, toPath: root.appendingPathComponent("hard.out").path)
            #expect(mkfifo(root.appendingPathComponent("fifo").path, 0o644) == 0)
            var targets = [input, "link.out", "hard.out", "fifo", "/dev/full"]
            // A tree walk reads configs and plists in it; `report` reads only its reports.
            if writer.subcommand != "report" { targets += ["in/.plist-migrate.json", "in/new.plist"] }
            let before = try [input, "in/.plist-migrate.json"].map { try Data(contentsOf: root.appendingPathComponent($0)) }
            for target in targets {
                let result = try runWithWatchdog(Paths.executable, Self.command(writer, target).arguments, in: root, seconds: 60)
                #expect(result.status == 2, "\(writer) \(target): exit \(result.status): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("error: "), "\(writer) \(target): \(result.stderr)")
            }
            let after = try [input, "in/.plist-migrate.json"].map { try Data(contentsOf: root.appendingPathComponent($0)) }
            #expect(after == before, "\(writer): an input was written")
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("in/new.plist").path), "\(writer): a plist was created in the tree")
            let dash = try tool(Self.command(writer, "-").arguments, in: root)
            #expect(dash.status <= 1, "\(writer) -: exit \(dash.status): \(dash.stderr)")
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("-").path), "\(writer) -: a file named - was created")
            // And a plain new file is written.
            let fresh = try tool(Self.command(writer, "out.txt").arguments, in: root)
            #expect(fresh.status <= 1 && FileManager.default.fileExists(atPath: root.appendingPathComponent("out.txt").path), "\(writer): \(fresh.stderr)")
        }
    }
}
