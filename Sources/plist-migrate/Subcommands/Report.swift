import ArgumentParser
import Foundation
import PlistMigrate

/// `plist-migrate report FILE.json…`: JSON reports of several runs (shards, or one per
/// repository) merged into one review page, JSON report or text summary.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Merge JSON reports (from --format json) into one review page, JSON report, text summary or Markdown body.",
        discussion: """
            Reports of different tool versions, pass sets or modes are refused. Exit status: 0 fine, \
            2 a report cannot be read or the reports cannot be merged, 64 a usage error.
            """)

    @Argument(help: "JSON reports written by plist-migrate --format json.")
    var reports: [String]

    @Option(help: ArgumentHelp("html (a review page), json (one merged report), text or markdown (a pull request's body).", valueName: "FORMAT"))
    var format: ReportMerge.Format = .html

    @OptionGroup var output: ReportOutputOption

    func validate() throws {
        if reports.isEmpty { throw ValidationError("give at least one JSON report") }
    }

    func run() throws {
        var merge = ReportMerge(paths: reports)
        merge.format = format
        try output.refuseIfRead(reports)
        let streams = try StandardStreams(output: output.file)
        let status = merge.run(sink: streams)
        let final = streams.finish(status: status)
        if final != 0 { throw ExitCode(final) }
    }
}

extension ReportMerge.Format: ExpressibleByArgument {}
