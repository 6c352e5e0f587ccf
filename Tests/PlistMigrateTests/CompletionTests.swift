import Foundation
import Testing

/// Bash completion offers the default subcommand's options as the first word
/// (`plist-migrate --o<TAB>` offered nothing), and still the subcommands and their options.
/// The script the tool prints is sourced in bash and its completion function called as bash
/// calls it.
@Suite struct CompletionTests {
    func complete(_ words: [String], script: URL) throws -> Set<String> {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let shell = """
            source '\(script.path)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
            _plist-migrate plist-migrate "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try run(URL(fileURLWithPath: "/bin/bash"), ["-c", shell], in: script.deletingLastPathComponent())
        #expect(result.status == 0, "\(result.stderr)")
        return Set(result.text.split(separator: "\n").map(String.init))
    }

    @Test func theFirstWordCompletesTheDefaultSubcommandsOptionsAndTheSubcommands() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("plist-migrate.bash")
        let generated = try tool(["--generate-completion-script", "bash"], in: directory)
        #expect(generated.status == 0)
        try generated.stdout.write(to: script)
        #expect(try complete(["plist-migrate", "--o"], script: script) == ["--only", "--output"])
        #expect(try complete(["plist-migrate", "li"], script: script) == ["lint", "list"])
        #expect(try complete(["plist-migrate", "--only", "ATS001", "--wr"], script: script) == ["--write"])
        // After --only and --skip: the passes, by id and by name, not options.
        #expect(try complete(["plist-migrate", "--only", "ATS00"], script: script) == Set((1...9).map { "ATS00\($0)" }))
        #expect(try complete(["plist-migrate", "migrate", "--skip", "third"], script: script) == ["third-party-exception-keys"] as Set)
        // Options only `--help-hidden` lists (`--force-exclude`) are not offered either.
        #expect(try complete(["plist-migrate", "lint", "--fo"], script: script) == ["--format"])
        // The other shells are argument-parser's own, unchanged.
        #expect(try tool(["--generate-completion-script", "zsh"], in: directory).text.contains("#compdef plist-migrate"))
    }
}
