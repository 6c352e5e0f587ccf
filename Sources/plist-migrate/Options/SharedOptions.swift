import ArgumentParser
import Foundation
import ATSPolicy
import Migrations
import PlistDOM
import PlistMigrate

/// How the files of a run are found and how many are worked on at once (migrate and lint).
struct WalkOptions: ParsableArguments {
    @Option(name: [.customShort("j", allowingJoined: true), .long], help: "Files processed in parallel (default: the number of cores).")
    var jobs: Int?

    @Option(help: ArgumentHelp("Skip walked files matching GLOB (repeatable).", valueName: "GLOB"))
    var exclude: [String] = []

    @Option(help: ArgumentHelp("Process only walked files matching GLOB (repeatable).", valueName: "GLOB"))
    var include: [String] = []

    @Flag(help: "Ignore .plist-migrate.json files.")
    var noConfig = false

    @Flag(help: "Apply --exclude and the config's exclude to files named on the command line too (for pre-commit, which names every file).")
    var forceExclude = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }
}

/// `--min-os`: the app's deployment target, which decides the OS eras that count.
struct DeploymentTargetOption: ParsableArguments {
    @Option(name: .customLong("min-os"), help: ArgumentHelp(
        "The app's deployment target: only these OS versions and later count (default: from the nearest project.pbxproj, else the plist's MinimumOSVersion/LSMinimumSystemVersion, else every OS).",
        valueName: "OS[,OS…]"))
    var minOS: String?

    func validate() throws {
        if let minOS, DeploymentTarget(minOS, source: "--min-os") == nil {
            throw ValidationError("--min-os expects OS versions such as ios15, macos12, tvos15, visionos1 (several joined by commas)")
        }
    }
}
