import Foundation
import Testing

/// Issue #33: the build-tool plugin lints a target's plists on every build: findings appear in
/// `swift build`'s output as `path:line:column: severity:` lines with absolute paths (what
/// Xcode's issue navigator reads), warnings leave the build green, an error fails it, and the
/// target gains no resource bundle. Builds a consumer package, so it takes a minute.
@Suite(.serialized) struct BuildToolPluginTests {
    static func consumer() throws -> URL? {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Sources/Demo"), withIntermediateDirectories: true)
        // SwiftPM names a path dependency after its folder.
        let identity = Paths.repository.lastPathComponent.lowercased()
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(name: "Consumer", dependencies: [.package(path: "\(Paths.repository.path)")],
                                  targets: [.target(name: "Demo", path: "Sources/Demo", exclude: ["Info.plist"],
                                                    plugins: [.plugin(name: "PlistLintPlugin", package: "\(identity)")])])

            """
        try Data(manifest.utf8).write(to: directory.appendingPathComponent("Package.swift"))
        try Data("public let x = 1\n".utf8).write(to: directory.appendingPathComponent("Sources/Demo/Demo.swift"))
        return try CommandPluginTests.swiftPackage(["resolve"], in: directory).status == 0 ? directory : nil
    }

    static func build(in directory: URL) throws -> ProcessResult {
        try run(URL(fileURLWithPath: "/usr/bin/env"), ["swift", "build"], in: directory)
    }

    @Test func warningsShowInTheBuildAndAnErrorFailsIt() throws {
        guard let directory = try Self.consumer() else {
            Issue.record("the consumer package's dependencies could not be resolved (SwiftPM's cache holds no swift-argument-parser/Yams)")
            return
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = try copyFixture("ATS001/tabs.before.plist", to: directory, as: "Sources/Demo/Info.plist")
        let real = plist.resolvingSymlinksInPath().path
        let green = try Self.build(in: directory)
        let output = green.text + green.stderr
        #expect(green.status == 0, "\(output)")
        #expect(output.contains("\(real):13:5: warning: [ATS001]"), "\(output)")
        #expect(output.contains("plist-migrate lint Demo (1 plist)"))
        let bundles = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(".build/debug").path)
        #expect(!bundles.contains { $0.hasSuffix(".resources") || $0.hasSuffix(".bundle") }, "no resource bundle: \(bundles)")
        // Nothing changed: the findings are shown again, not lost to an up-to-date check.
        let again = try Self.build(in: directory)
        #expect(again.status == 0 && (again.text + again.stderr).contains("warning: [ATS001]"))
        // A change to a Swift file only (issue #42 §2): the findings are shown again too.
        try Data("public let x = 2\n".utf8).write(to: directory.appendingPathComponent("Sources/Demo/Demo.swift"))
        let swiftOnly = try Self.build(in: directory)
        #expect(swiftOnly.status == 0 && (swiftOnly.text + swiftOnly.stderr).contains("warning: [ATS001]"), "\(swiftOnly.text)\(swiftOnly.stderr)")

        _ = try FileManager.default.removeItem(at: plist)
        _ = try copyFixture("lint/everything.plist", to: directory, as: "Sources/Demo/Info.plist")
        let red = try Self.build(in: directory)
        #expect(red.status != 0, "an error-severity finding fails the build")
        #expect((red.text + red.stderr).contains("\(real):4:2: error: [L001]"), "\(red.text)\(red.stderr)")
    }
}
