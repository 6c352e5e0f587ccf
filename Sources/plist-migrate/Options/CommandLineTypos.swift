import ArgumentParser
import Foundation
import Migrations
import PlistMigrate

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileAccess

/// Typos caught before anything runs: `plist-migrate lnt --write Widget` took
/// `lnt` for a path of the default `migrate`, wrote `Widget`, and only then said "no such file".
enum CommandLineTypos {
    /// SwiftLint's spellings, and ours.
    static let otherTools: [String: String] = [
        "--reporter": "plist-migrate's is --format ("
            + RunOptions.Format.allCases.map(\.rawValue).joined(separator: ", ") + "; lint's: "
            + LintRunner.Format.allCases.map(\.rawValue).joined(separator: ", ") + ")",
        "--use-stdin": "give - as the path to read standard input",
        "--fix": "plist-migrate's is --write (a dry run is the default)",
        "--autocorrect": "plist-migrate's is --write (a dry run is the default)",
        "--path": "give paths as arguments (plist-migrate PATH…)",
    ]

    /// A line for an option of another tool's spelling, before the arguments are parsed.
    static func otherToolOption(in arguments: [String]) -> String? {
        for argument in arguments {
            if argument == "--" { return nil }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if let hint = otherTools[name] { return "unknown option '\(name)': \(hint)" }
        }
        return nil
    }

    /// Every path named on the command line exists (or is `-`); a missing one is a usage error,
    /// with the subcommand it is close to. Returns what `stat` said of each, so that the run
    /// does not ask again.
    @discardableResult
    static func requireExisting(_ paths: [String], subcommands: [String]) throws -> [String: FileFingerprint] {
        var stated: [String: FileFingerprint] = [:]
        for path in paths where path != "-" {
            if let found = FileIO.stated(path) {
                stated[path] = found
                continue
            }
            guard errno == ENOENT || errno == ENOTDIR else { continue }
            // A dangling symbolic link is a name that exists: the run says what is wrong with it.
            var info = stat()
            if lstat(PathBytes.c(path), &info) == 0 { continue }
            var message = "\(PathBytes.display(path)): no such file or directory"
            let typed = path.lowercased()
            // The edit distance that spelling checks use (any value above the limit is "too far").
            if let near = subcommands.map({ ($0, ATSKeyCatalog.editDistance($0, typed, limit: 2)) }).filter({ $0.1 <= 2 })
                .min(by: { $0.1 < $1.1 })?.0 {
                message += "; did you mean the subcommand `\(near)`? (it comes first: plist-migrate \(near) …)"
            }
            throw ValidationError(message + ". Nothing was run.")
        }
        return stated
    }
}
