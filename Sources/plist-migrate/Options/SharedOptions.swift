import ArgumentParser
import Foundation
import ATSPolicy
import Migrations
import PlistDOM
import PlistMigrate

/// How the files of a run are found and how many are worked on at once (migrate and lint).
struct WalkOptions: ParsableArguments {
    @Option(name: [.customShort("j", allowingJoined: true), .long], help: ArgumentHelp("Files worked on at once (default: the number of cores).", valueName: "N"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Skip walked files matching GLOB (repeatable).", valueName: "GLOB"))
    var exclude: [String] = []

    @Option(help: ArgumentHelp("Process only walked files matching GLOB (repeatable).", valueName: "GLOB"))
    var include: [String] = []

    @Flag(help: ArgumentHelp("Apply --exclude and the config's exclude to files named on the command line too (for pre-commit, which names every file).", visibility: .hidden))
    var forceExclude = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }
}

/// `--config FILE` (repeatable) and `--no-config`: which `.plist-migrate.json` settings apply.
struct ConfigOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: ArgumentHelp(
        "Use this config instead of the .plist-migrate.json files found (repeatable; later files win).",
        valueName: "FILE"))
    var files: [String] = []

    @Flag(help: "Ignore .plist-migrate.json files.")
    var noConfig = false

    func validate() throws {
        if noConfig && !files.isEmpty { throw ValidationError("--config and --no-config cannot be used together") }
    }

    /// The `--config` files merged (`nil` without any); an unreadable or invalid one is reported
    /// on one line and exits 2.
    func explicit() throws -> Config? {
        do {
            return try Config.loading(files)
        } catch {
            FileHandle.standardError.write(Data((error.line + "\n").utf8))
            throw ExitCode(2)
        }
    }

    /// The resolver `explain` and `rules` ask; `nil` with `--no-config`.
    func resolver() throws -> ConfigResolver? {
        noConfig ? nil : ConfigResolver(explicit: try explicit())
    }
}

/// `--min-os`: the app's deployment target, which decides the OS eras that count.
struct DeploymentTargetOption: ParsableArguments {
    @Option(name: .customLong("min-os"), help: ArgumentHelp(
        "The app's deployment target, e.g. ios15,macos12 (default: from its project or plist).",
        valueName: "OS[,OS...]"))
    var minOS: String?

    func validate() throws {
        if let minOS, DeploymentTarget(minOS, source: "--min-os") == nil {
            throw ValidationError("--min-os expects OS versions such as ios15, macos12, tvos15, visionos1, watchos8 (several joined by commas)")
        }
    }
}
