import ArgumentParser

/// Shell completion where argument-parser's own falls short: its bash script offers only the
/// subcommands' names as the first word, so `plist-migrate --o<TAB>` offered nothing, though
/// `migrate` is the default subcommand and takes `--only` and `--output` there.
enum Completions {
    /// The bash script for `--generate-completion-script bash`; `nil` for anything else, which
    /// argument-parser answers as before.
    static func script(for arguments: [String]) -> String? {
        guard arguments == ["--generate-completion-script", "bash"] || arguments == ["--generate-completion-script=bash"] else { return nil }
        return offeringDefaultSubcommand(PlistMigrateCommand.completionScript(for: .bash))
    }

    /// `script` with the root's fallback branch (no subcommand named) completing the default
    /// subcommand's options and paths, and the subcommands' names while the word is not an
    /// option. Unchanged when the branch is not found (a test checks it is).
    static func offeringDefaultSubcommand(_ script: String) -> String {
        let fallback = "    *)\n        # Offer subcommand completions\n        COMPREPLY+=($(compgen -W '"
        guard let range = script.range(of: fallback) else { return script }
        let replacement = """
                *)
                    # No subcommand named: the words belong to the default one, `migrate`.
                    unparsed_words=("${subcommand}" "${unparsed_words[@]}")
                    "_plist-migrate_migrate"
                    # Offer subcommand completions too, while the word is not an option
                    [[ "${cur}" == -* ]] || COMPREPLY+=($(compgen -W '
            """
        return script.replacingCharacters(in: range, with: replacement)
    }
}
