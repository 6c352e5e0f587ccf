import Foundation
import Testing

/// What the man page is made of (swift-argument-parser's generate-manual reads the commands'
/// help): it drops every character that is not ASCII (value names too) and names an option's value after the
/// option when no value name is given ("--to to"), so every help text is ASCII, every option
/// taking a value names it, and every subcommand says its exit statuses.
@Suite struct ManualTests {
    @Test func helpIsASCIIWithValueNamesAndExitStatuses() throws {
        let dump = try tool(["--experimental-dump-help"], in: Paths.repository)
        let root = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        var problems: [String] = []
        func visit(_ command: [String: Any], _ path: String) {
            for key in ["abstract", "discussion"] {
                if let text = command[key] as? String, !text.allSatisfy(\.isASCII) { problems.append("\(path) \(key): not ASCII") }
            }
            for argument in (command["arguments"] as? [[String: Any]]) ?? [] {
                let names = ((argument["names"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
                for key in ["abstract", "discussion"] {
                    if let text = argument[key] as? String, !text.allSatisfy(\.isASCII) { problems.append("\(path) \(names): help not ASCII") }
                }
                if argument["kind"] as? String == "option", let value = argument["valueName"] as? String, names.contains(value) {
                    problems.append("\(path) \(names): the value is named after the option")
                }
                // "OS[,OS…]" came out of the man page as "OS[,OS]".
                if let value = argument["valueName"] as? String, !value.allSatisfy(\.isASCII) {
                    problems.append("\(path) \(names): the value name \(value) is not ASCII")
                }
            }
            let name = command["commandName"] as? String ?? ""
            if path != "plist-migrate", !["help"].contains(name) {
                let discussion = command["discussion"] as? String ?? ""
                if !discussion.contains("Exit status:") || !discussion.contains("64 a usage error") {
                    problems.append("\(path): no exit statuses in its discussion")
                }
            }
            for sub in (command["subcommands"] as? [[String: Any]]) ?? [] {
                visit(sub, path + " " + (sub["commandName"] as? String ?? "?"))
            }
        }
        visit(try #require(root["command"] as? [String: Any]), "plist-migrate")
        #expect(problems.isEmpty, "\(problems)")
    }

    /// The man page's EXIT STATUS: generate-manual writes a generic `.Ex -std`; `make man` rewrites
    /// it from the tool's own help, each subcommand with its codes. Checked on a
    /// page with generate-manual's section (building the real page takes minutes), with the
    /// Makefile's `man` target shown to run the same script.
    @Test func theManPageListsEachSubcommandsExitStatuses() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = try tool(["--experimental-dump-help"], in: Paths.repository)
        try dump.stdout.write(to: directory.appendingPathComponent("dump.json"))
        let page = directory.appendingPathComponent("plist-migrate.1")
        try Data(".Dd November 26, 2026\n.Dt PLIST-MIGRATE 1\n.Os\n.Sh NAME\n.Nm plist-migrate\n.Sh \"EXIT STATUS\"\n.Ex -std\n.Sh \"SEE ALSO\"\n.Xr xmllint 1\n".utf8).write(to: page)
        let script = Paths.repository.appendingPathComponent("docs/tools/man-exit-status.py").path
        let result = try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, page.path, directory.appendingPathComponent("dump.json").path], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: page, encoding: .utf8)
        #expect(!text.contains(".Ex -std") && text.contains(".Sh \"SEE ALSO\""), "the section replaced, the next one kept")
        let section = text.components(separatedBy: ".Sh EXIT STATUS").last?.components(separatedBy: ".Sh ").first ?? ""
        for (command, codes) in [("migrate", ["0", "1", "2", "64"]), ("lint", ["0", "1", "2", "64"]), ("edit", ["0", "1", "2", "64"]),
                                 ("explain", ["0", "2", "64"]), ("report", ["0", "2", "64"]), ("targets", ["0", "64"])] {
            let block = section.components(separatedBy: ".It Cm \(command)\n").dropFirst().first?.components(separatedBy: ".El").first ?? ""
            let listed = block.split(separator: "\n").filter { $0.hasPrefix(".It ") }.map { String($0.dropFirst(4)) }
            #expect(listed == codes, "\(command): \(listed)")
        }
        let make = try run(URL(fileURLWithPath: "/usr/bin/env"), ["make", "-n", "man"], in: Paths.repository)
        #expect(make.text.contains("docs/tools/man-exit-status.py"), "make man rewrites the section: \(make.text)\(make.stderr)")
    }
}
