import ArgumentParser
import Foundation
import ATSPolicy
import Migrations
import PlistDOM
import PlistMigrate
import FileAccess

/// `plist-migrate explain FILE`: the effective ATS policy per OS era, host and load kind.
struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show the effective App Transport Security policy of a plist, and why.",
        discussion: """
            Without --host: a table for every listed domain, any other host and the local network, \
            per OS era. With --host (repeatable): the decision for each host and the keys that made it. Exit status: \
            0 fine, 2 the file could not be read or parsed, 64 a usage error.
            """)

    @Argument(help: "The plist file; - reads standard input.")
    var file: String

    @Option(help: ArgumentHelp("The name standard input (-) has in the output.", valueName: "PATH"))
    var stdinPath: String?

    @Option(help: ArgumentHelp("Only this OS, e.g. ios9, ios16, ipados17, tvos15, visionos1, watchos8, macos10.11, macos14.", valueName: "OS"))
    var os: String?

    @Option(help: ArgumentHelp("Explain the decision for this host name, IP address or URL (its host; a port is dropped); "
        + "repeat it for several hosts.", valueName: "HOST"))
    var host: [String] = []

    @Option(help: ArgumentHelp("Only this kind of load: urlSession, media or webView.", valueName: "KIND"))
    var kind: LoadKind?

    @Option(help: ArgumentHelp("text or json", valueName: "FORMAT"))
    var format: List.Format = .text

    @OptionGroup var target: DeploymentTargetOption

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        if let os, OSEra(os: os) == nil { throw ValidationError("unknown OS \"\(os)\" (examples: ios9, ios17, macos10.12, macos14)") }
        // A security tool never answers a malformed question with "allowed".
        for host in host where !host.allSatisfy(\.isASCII) {
            throw ValidationError("--host \"\(host)\" is an internationalised name: give its punycode form (xn--…), the one ATS compares")
        }
        for host in host {
            if let refusal = HostInput.refusal(host) { throw ValidationError("--host \"\(host)\" \(refusal)") }
        }
        for host in host where HostInput(host) == nil {
            throw ValidationError("--host \"\(host)\" is neither a host name nor an IP address (a URL or host:port is also taken)")
        }
    }

    func run() throws {
        let inputs = host.compactMap(HostInput.init)
        var explainer = Explainer(era: os.flatMap(OSEra.init(os:)), hosts: inputs.map(\.host), kind: kind, minimumOS: target.minOS)
        explainer.hostNotes = inputs.flatMap(\.notes)
        for input in inputs where input.isReadDifferently { explainer.hostsAsWritten[input.host] = input.asWritten }
        let path = file == "-" ? (stdinPath ?? "<stdin>") : PathBytes.display(ReportPaths.current.name(FileDiscovery.displayPath(file)))
        // The file the input stands for: its config's minimumOS and its project's targets count.
        let standsFor = file == "-" ? stdinPath : file
        if target.minOS == nil, let standsFor, case .success(let config?) = try config.resolver()?.config(forFile: standsFor),
            let minimumOS = config.selection.minimumOS
        {
            explainer.minimumOS = minimumOS
            explainer.minimumOSSource = config.minimumOSSource ?? config.path
        }
        var report: Explainer.Report
        do {
            let bytes = file == "-" ? try Migrate.standardInput() : try FileIO.load(file).bytes
            report = try explainer.explain(bytes, path: standsFor ?? "-")
        } catch let error as FileError {
            FileHandle.standardError.write(Data((error.line(path: path) + "\n").utf8))
            throw ExitCode(2)
        } catch let error as ParseError {
            FileHandle.standardError.write(Data("\(path):\(error.location): error: \(error.message)\n".utf8))
            throw ExitCode(2)
        }
        report.path = path
        switch format {
        case .text: print(explainer.text(report), terminator: "")
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        }
    }
}

extension LoadKind: ExpressibleByArgument {}
