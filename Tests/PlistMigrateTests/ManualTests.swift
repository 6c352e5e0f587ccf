import Foundation
import Testing

/// What the man page is made of (swift-argument-parser's generate-manual reads the commands'
/// help): it drops every character that is not ASCII and names an option's value after the
/// option when no value name is given ("--to to"), so every help text is ASCII, every option
/// taking a value names it, and every subcommand says its exit statuses (issue #42 §5).
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
}
