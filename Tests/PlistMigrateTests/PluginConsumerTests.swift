import Foundation
import Testing
@testable import PlistMigrate

/// The SwiftPM plugins as a package that depends on this one uses them.
/// One consumer package, made and resolved once and kept between runs, so the tool is
/// compiled for it incrementally. One test walks it through the build-tool plugin, then the command plugins: as
/// three `.serialized` tests, each one after the first waited for a free thread behind the rest
/// of the run, and the suite was the last to finish. Each part puts the files it needs in place
/// first. The plugins' reading of command lines is checked case by case in
/// `PluginArgumentsTests`; here a few command lines go through SwiftPM.
@Suite struct PluginConsumerTests {
    /// No index store and no debug information: the consumer's build compiles the whole tool,
    /// and these save a sixth of its time; every command passes the same, so one build serves all.
    static let buildOptions = ["--disable-index-store", "-debug-info-format", "none"]

    static func swiftPackage(_ arguments: [String], in directory: URL) throws -> ProcessResult {
        try run(URL(fileURLWithPath: "/usr/bin/env"), ["swift", "package"] + buildOptions + arguments, in: directory)
    }

    static func build(in directory: URL) throws -> ProcessResult {
        try run(URL(fileURLWithPath: "/usr/bin/env"), ["swift", "build"] + buildOptions, in: directory)
    }

    /// The consumer: target `Demo` with the build-tool plugin applied (its Info.plist excluded
    /// from the target's resources), and both command plugins reachable; `nil` when its
    /// dependencies cannot be resolved (SwiftPM's cache holds no swift-argument-parser/Yams).
    /// It is kept in the system's temporary folder under a name made from this checkout's path
    /// (outside the checkout: inside its git work tree the tool would walk no file of it), so its
    /// build of the tool is incremental from one test run to the next, as a user's is (a fresh
    /// package compiled the whole tool on every run: 90 s of a warm `swift test`). A lock keeps
    /// two test runs of one checkout from sharing it at once.
    static let consumer: URL? = {
        // Stable from run to run, unlike `hashValue`.
        let name = FNV1a.hash(Paths.repository.path.utf8)
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("plist-migrate-plugin-consumer-\(String(name, radix: 16))")
        // SwiftPM names a path dependency after its folder.
        let identity = Paths.repository.lastPathComponent.lowercased()
        // SwiftPM plans a dependency's build again only when the consumer's manifest changes,
        // so the manifest names the tool's source files: a file added or removed re-plans it.
        var sourceFiles: [String] = []
        for folder in ["Sources", "Migrations", "Plugins"] {
            let root = Paths.repository.appendingPathComponent(folder)
            let walked = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
            sourceFiles += walked.filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 }
        }
        let sources = String(FNV1a.hash(sourceFiles.sorted().joined(separator: "\n").utf8), radix: 16)
        let manifest = """
            // swift-tools-version:6.0
            // The tool's source files: \(sources)
            import PackageDescription
            let package = Package(name: "Consumer", dependencies: [.package(path: "\(Paths.repository.path)")],
                                  targets: [.target(name: "Demo", path: "Sources/Demo", exclude: ["Info.plist"],
                                                    plugins: [.plugin(name: "PlistLintPlugin", package: "\(identity)")])])

            """
        do {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("Sources/Demo"), withIntermediateDirectories: true)
            let lock = open(directory.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            // Held until the process ends: the lock goes with its descriptor.
            if lock >= 0 { flock(lock, LOCK_EX) }
            let manifestURL = directory.appendingPathComponent("Package.swift")
            // Rewritten only when it differs: a new manifest makes SwiftPM plan the build again.
            if (try? Data(contentsOf: manifestURL)) != Data(manifest.utf8) { try Data(manifest.utf8).write(to: manifestURL) }
            return try swiftPackage(["resolve"], in: directory).status == 0 ? directory : nil
        } catch {
            return nil
        }
    }()

    /// The consumer with `Demo.swift` and `Info.plist` (from `fixture`) as each test starts.
    func consumer(plist fixture: String = "ATS001/already-migrated.before.plist") throws -> URL? {
        guard let directory = Self.consumer else {
            Issue.record("the consumer package's dependencies could not be resolved (SwiftPM's cache holds no swift-argument-parser/Yams)")
            return nil
        }
        try Data("public let x = 1\n".utf8).write(to: directory.appendingPathComponent("Sources/Demo/Demo.swift"))
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("Sources/Demo/Info.plist"))
        _ = try copyFixture(fixture, to: directory, as: "Sources/Demo/Info.plist")
        return directory
    }

    @Test func theBuildToolAndCommandPluginsWorkInAConsumerPackage() throws {
        try warningsShowOnEveryBuildAndAnErrorFailsIt()
        try argumentsAreParsedAsTheToolParsesThem()
        try writingNeedsThePermissionSwiftPMAsksFor()
    }

    // MARK: - The build-tool plugin

    /// Findings in `swift build`'s output as `path:line:column: severity:` lines with absolute
    /// paths (what Xcode's issue navigator reads); warnings leave the build green, an error
    /// fails it, the target gains no resource bundle, and the findings show on every build:
    /// again with no change, and after a change to a Swift file only.
    func warningsShowOnEveryBuildAndAnErrorFailsIt() throws {
        guard let directory = try consumer() else { return }
        let plist = directory.appendingPathComponent("Sources/Demo/Info.plist")
        let real = plist.resolvingSymlinksInPath().path
        let green = try Self.build(in: directory)
        let output = green.text + green.stderr
        #expect(green.status == 0, "\(output)")
        #expect(output.contains("\(real):13:5: warning: [P002]"), "\(output)")
        #expect(output.contains("plist-migrate lint Demo (1 plist)"))
        let bundles = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(".build/debug").path)
        #expect(!bundles.contains { $0.hasSuffix(".resources") || $0.hasSuffix(".bundle") }, "no resource bundle: \(bundles)")
        // Nothing changed ("build, build again without change, the warning both
        // times"): the findings are shown again, not lost to an up-to-date check.
        let again = try Self.build(in: directory)
        #expect(again.status == 0 && (again.text + again.stderr).contains("warning: [P002]"), "rebuild: \(again.text)\(again.stderr)")
        // A change to a Swift file only: the findings are shown again too.
        try Data("public let x = 2\n".utf8).write(to: directory.appendingPathComponent("Sources/Demo/Demo.swift"))
        let swiftOnly = try Self.build(in: directory)
        #expect(swiftOnly.status == 0 && (swiftOnly.text + swiftOnly.stderr).contains("warning: [P002]"), "\(swiftOnly.text)\(swiftOnly.stderr)")

        try FileManager.default.removeItem(at: plist)
        _ = try copyFixture("lint/everything.plist", to: directory, as: "Sources/Demo/Info.plist")
        let red = try Self.build(in: directory)
        #expect(red.status != 0, "an error-severity finding fails the build")
        #expect((red.text + red.stderr).contains("\(real):4:2: error: [L001]"), "\(red.text)\(red.stderr)")
    }

    // MARK: - The command plugins

    /// `swift package plist-migrate …` runs the tool on the package (`lint --format json`: the
    /// package directory added, as no path is named), asks for no permission for read-only
    /// commands, and reports a failure once.
    func argumentsAreParsedAsTheToolParsesThem() throws {
        guard let directory = try consumer() else { return }
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
        // A file a pass would change, for `--check` to fail on.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("Sources/Demo/Info.plist"))
        _ = try copyFixture("ATS001/tabs.before.plist", to: directory, as: "Sources/Demo/Info.plist")
        let check = try Self.swiftPackage(["plist-migrate", "--check"], in: directory)
        #expect(check.status != 0)
        #expect(check.stderr.components(separatedBy: "exited with status 1").count - 1 == 1, "reported once: \(check.stderr)")
    }

    /// On Linux plugins run without a sandbox, so `swift package plist-migrate
    /// --write` wrote files with no permission asked. The read-only verb now refuses every
    /// command line that writes (`PluginArgumentsTests` has the rest), and `plist-migrate-write`
    /// declares the permission, so SwiftPM stops without `--allow-writing-to-package-directory`
    /// (no terminal to ask on) and runs with it.
    func writingNeedsThePermissionSwiftPMAsksFor() throws {
        guard let directory = try consumer(plist: "ATS001/tabs.before.plist") else { return }
        let plist = directory.appendingPathComponent("Sources/Demo/Info.plist")
        let original = try Data(contentsOf: plist)
        let refused = try Self.swiftPackage(["plist-migrate", "--write", "Sources/Demo/Info.plist"], in: directory)
        #expect(refused.status != 0)
        #expect((refused.text + refused.stderr).contains("plist-migrate-write"), "\(refused.text)\(refused.stderr)")
        #expect(try Data(contentsOf: plist) == original, "the read-only verb wrote nothing")

        let unasked = try Self.swiftPackage(["plist-migrate-write", "--write", "Sources/Demo/Info.plist"], in: directory)
        #expect(unasked.status != 0, "\(unasked.text)\(unasked.stderr)")
        #expect((unasked.text + unasked.stderr).contains("allow-writing-to-package-directory"), "\(unasked.text)\(unasked.stderr)")
        #expect(try Data(contentsOf: plist) == original, "no permission, nothing written")

        let allowed = try Self.swiftPackage(["--allow-writing-to-package-directory", "plist-migrate-write", "--write", "Sources/Demo/Info.plist"], in: directory)
        #expect(allowed.status == 0, "\(allowed.text)\(allowed.stderr)")
        #expect(try Data(contentsOf: plist) != original, "with the permission, the file is migrated")
    }
}
