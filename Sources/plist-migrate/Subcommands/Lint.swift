import ArgumentParser
import Foundation
import ATSPolicy
import Migrations
import PlistDOM
import PlistMigrate

/// `plist-migrate lint PATH…`: findings about ATS settings, with the pass that fixes each.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Report what is wrong with ATS settings, with the migration that fixes it.",
        discussion: "Exit status: 0 no error-level findings, 1 error-level findings (warnings too with --strict), 2 a file could not be read or parsed, 64 a usage error.")

    @Argument(help: "Plists, project.yml/app.json or directories; - reads standard input.")
    var paths: [String] = ["."]

    @Option(help: ArgumentHelp("text, json, sarif (GitHub code scanning), github (workflow commands), junit, checkstyle, gitlab (Code Quality) or xcode.", valueName: "FORMAT"))
    var format: LintRunner.Format = .text

    @Option(help: ArgumentHelp("Leave out the findings recorded in FILE.", valueName: "FILE"))
    var baseline: String?

    @Option(help: ArgumentHelp("Write every current finding to FILE, a baseline for --baseline, and exit 0 (- is standard output).", valueName: "FILE"))
    var writeBaseline: String?

    @Flag(help: "Warnings fail too (exit 1).")
    var strict = false

    @Flag(help: "No notes and no summary line.")
    var quiet = false

    @Option(help: ArgumentHelp("all, checks (is each setting well-formed) or posture (what the settings allow).",
                               valueName: "GROUP"))
    var rules: RuleGroup = .all

    enum RuleGroup: String, ExpressibleByArgument, CaseIterable {
        case all, checks, posture
    }

    @Option(help: ArgumentHelp("The name standard input (-) has in messages.", valueName: "PATH", visibility: .hidden))
    var stdinPath: String?


    @Option(help: ArgumentHelp("Colour the text output: auto (on a terminal, unless NO_COLOR is set or TERM=dumb; FORCE_COLOR forces it), always, never.", valueName: "WHEN", visibility: .hidden))
    var color: Colour.Mode = .auto

    @Option(help: ArgumentHelp("Write the build-tool plugin's stamp to FILE on every run.", valueName: "FILE", visibility: .hidden))
    var buildStamp: String?

    @OptionGroup var walk: WalkOptions

    @OptionGroup var config: ConfigOptions

    @OptionGroup var report: ReportOutputOption

    @OptionGroup var target: DeploymentTargetOption

    func run() throws {
        let inputs = paths + [baseline].compactMap { $0 } + config.files
        try report.refuseIfRead(inputs + [writeBaseline, buildStamp].compactMap { $0 })
        // Every file lint writes goes through the same gate as --output, before any work.
        let baselineFile = try WrittenFile.open(writeBaseline, option: "--write-baseline", reading: inputs + [report.file, buildStamp].compactMap { $0 },
                                                besides: [("--output", report.file), ("--build-stamp", buildStamp)])
        let stampFile = try WrittenFile.open(buildStamp, option: "--build-stamp", reading: inputs + [report.file, writeBaseline].compactMap { $0 },
                                             besides: [("--output", report.file)])
        var runner = LintRunner(paths: paths)
        runner.minimumOS = target.minOS
        if let jobs = walk.jobs { runner.jobs = jobs }
        runner.baseline = baseline
        runner.writeBaseline = writeBaseline
        runner.buildStamp = buildStamp
        var baselineToStandardOutput: Int32?
        if let baselineFile {
            runner.baselineOutput = { baselineFile.write($0) }
        } else if writeBaseline == "-" {
            runner.baselineOutput = { baselineToStandardOutput = ReportFile.writeAll($0, to: STDOUT_FILENO) }
        }
        runner.strict = strict
        runner.quiet = quiet
        runner.groups = rules == .all ? Set(LintRule.groups) : [rules.rawValue]
        runner.useConfig = !config.noConfig
        runner.explicitConfig = try config.explicit()
        runner.forceExclude = walk.forceExclude
        runner.reportOutput = report.file
        if let stdinPath { runner.stdinPath = stdinPath }
        runner.color = format == .text
            && Colour.enabled(color, isTerminal: report.file == nil && isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
        let input = paths.contains("-") ? try Migrate.standardInput() : []
        runner.readStandardInput = { input }
        runner.format = format
        runner.excludes = walk.exclude.map(Glob.init)
        runner.includes = walk.include.map(Glob.init)
        let streams = try StandardStreams(output: report.file)
        let status = runner.run(sink: streams)
        // The build-tool plugin's stamp, rewritten on every run: an input of its own command,
        // so the build system finds it changed and runs the command on the next build too.
        stampFile?.write(Array("\(Date().timeIntervalSince1970)\n".utf8))
        var final = streams.finish(status: status)
        if let failure = baselineToStandardOutput {
            StandardStreams.writeError("error: cannot write the baseline to standard output (\(ReportFile.errorText(failure)))\n")
            final = 2
        }
        for file in [baselineFile, stampFile].compactMap({ $0 }) {
            let (ended, message) = file.finish(status: final)
            if let message { StandardStreams.writeError(message + "\n") }
            final = max(final, ended)
        }
        if final != 0 { throw ExitCode(final) }
    }
}

extension LintRunner.Format: ExpressibleByArgument {}
extension Colour.Mode: ExpressibleByArgument {}
