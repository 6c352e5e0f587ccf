import ArgumentParser
import Foundation
import PlistMigrate

/// `plist-migrate targets [PATH…]`: the project model, shown before a fleet run relies on it.
struct Targets: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "targets",
        abstract: "Show the projects under PATHs as the tool reads them: targets, Info.plists, deployment targets and where they came from.",
        discussion: """
            Xcode projects, XcodeGen specs and Tuist manifests (named, not read) are found under each \
            directory; a plist names the projects around it. What could not be understood is said. \
            Exit status: 0 fine, even when a project cannot be read (it is said), 64 a usage error.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: "Directories to search, project files, or plists (default: the working directory).")
    var paths: [String] = []

    @Option(help: ArgumentHelp("text or json", valueName: "FORMAT"))
    var format: Format = .text

    func run() throws {
        let report = TargetsReport(paths: paths)
        switch format {
        case .text: try StandardStreams.standardOutputOrExit(Array(report.text().utf8))
        case .json: try StandardStreams.standardOutputOrExit(report.json())
        }
    }
}
