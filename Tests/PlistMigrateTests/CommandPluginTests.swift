import Foundation
import Testing

/// Issue #33: `swift package plist-migrate …` in a package that depends on this one parses its
/// arguments as the tool does (`lint --format json` and `list` work; the package directory is
/// added only where a path is missing), asks for no permission for read-only commands, and
/// reports a failure once. Builds a consumer package, so it takes a minute or two.
@Suite(.serialized) struct CommandPluginTests {
    static func swiftPackage(_ arguments: [String], in directory: URL) throws -> ProcessResult {
        try run(URL(fileURLWithPath: "/usr/bin/env"), ["swift", "package"] + arguments, in: directory)
    }

    static func consumer() throws -> URL? {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Sources/Demo"), withIntermediateDirectories: true)
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(name: "Consumer", dependencies: [.package(path: "\(Paths.repository.path)")],
                                  targets: [.target(name: "Demo", path: "Sources/Demo")])

            """
        try Data(manifest.utf8).write(to: directory.appendingPathComponent("Package.swift"))
        try Data("public let x = 1\n".utf8).write(to: directory.appendingPathComponent("Sources/Demo/Demo.swift"))
        _ = try copyFixture("ATS001/tabs.before.plist", to: directory, as: "Sources/Demo/Info.plist")
        // Resolving needs this package's dependencies from SwiftPM's cache (no network here).
        return try swiftPackage(["resolve"], in: directory).status == 0 ? directory : nil
    }

    @Test func argumentsAreParsedAsTheToolParsesThem() throws {
        guard let directory = try Self.consumer() else {
            Issue.record("the consumer package's dependencies could not be resolved (SwiftPM's cache holds no swift-argument-parser/Yams)")
            return
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let lint = try Self.swiftPackage(["plist-migrate", "lint", "--format", "json"], in: directory)
        #expect(lint.status == 0, "\(lint.stderr)")
        // SwiftPM relays the plugin's build progress and the tool's standard error on the same
        // stream: the report is the lines from "{" to the "}" that closes it.
        let lines = lint.text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = lines.firstIndex(of: "{") ?? lines.endIndex
        let end = lines[start...].firstIndex(of: "}") ?? lines.endIndex
        let report = start < end && end < lines.endIndex ? lines[start...end].joined(separator: "\n") : ""
        #expect((try? JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])?["findings"] != nil, "\(lint.text)")
        #expect(!lint.stderr.contains("wants permission"))
        let list = try Self.swiftPackage(["plist-migrate", "list"], in: directory)
        #expect(list.status == 0 && list.text.contains("\nATS001  1") || list.text.hasPrefix("ATS001"), "\(list.stderr)")
        let check = try Self.swiftPackage(["plist-migrate", "--check"], in: directory)
        #expect(check.status != 0)
        #expect(check.stderr.components(separatedBy: "exited with status 1").count - 1 == 1, "reported once: \(check.stderr)")
    }
}
