import Foundation
import Testing
@testable import PlistMigrate
@testable import Project

/// A hostile repository cannot stop a fleet. Each project shape below is a small
/// file any repository can hold; each used to hang, crash or eat gigabytes. Now the run ends,
/// exits 0, stays under 100 MB, says one line about that project on the file beside it, and
/// the rest of the run is untouched. (A watchdog turns a hang into a failure; the time each
/// takes is measured by `Benchmarks/hostile-projects.sh`, not here.)
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"),
                "needs GNU time (/usr/bin/time, Debian's time; .ci/run installs it) to measure peak memory"))
struct HostileProjectTests {
    struct Shape: CustomTestStringConvertible, Sendable {
        var name: String
        /// Relative path → contents.
        var files: [String: String]
        /// Words the note on Hostile/App/Info.plist must hold.
        var note: String
        var testDescription: String { name }
    }

    static func pbxproj(_ settings: String, xcconfig: String? = nil) -> String {
        let reference = xcconfig == nil ? "" : "baseConfigurationReference = F1;"
        return """
            // !$*UTF8*$!
            { archiveVersion = 1; objectVersion = 56; objects = {
              F1 = {isa = PBXFileReference; path = \(xcconfig ?? "none.xcconfig"); sourceTree = "<group>"; };
              G1 = {isa = PBXGroup; children = (F1); sourceTree = "<group>"; };
              T1 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = App; productName = App; productType = "com.apple.product-type.application"; };
              P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; projectDirPath = ""; targets = (T1); };
              L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
              L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
              C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { IPHONEOS_DEPLOYMENT_TARGET = 12.0; }; };
              C2 = {isa = XCBuildConfiguration; name = Release; \(reference) buildSettings = { INFOPLIST_FILE = App/Info.plist; \(settings) }; };
            }; rootObject = P1; }
            """
    }

    static let shapes: [Shape] = {
        var chain = "", includes: [String: String] = [:]
        for index in 1...20 { chain += "V\(index) = \"$(V\(index + 1))$(V\(index + 1))\"; " }
        for index in 0..<10_000 { includes["Hostile/c\(index).xcconfig"] = "#include \"c\(index + 1).xcconfig\"\nS\(index) = \(index)\n" }
        includes["Hostile/c10000.xcconfig"] = "IPHONEOS_DEPLOYMENT_TARGET = 13.0\n"
        includes["Hostile/App.xcodeproj/project.pbxproj"] = pbxproj("", xcconfig: "c0.xcconfig")
        let laughs = (["a: &a [x, x, x, x, x, x, x, x, x]"] + zip("bcdefghi", "abcdefgh").map { "\($0): &\($0) [" + Array(repeating: "*\($1)", count: 9).joined(separator: ", ") + "]" })
            .joined(separator: "\n")
        let spec = "name: App\ntargets:\n  App: {type: application, platform: iOS, info: {path: App/Info.plist}, deploymentTarget: \"13.0\"}\n"
        return [
            Shape(name: "a setting that doubles itself (pbxproj)", files: ["Hostile/App.xcodeproj/project.pbxproj": pbxproj("A = \"$(A)$(A)\"; IPHONEOS_DEPLOYMENT_TARGET = \"$(A)\";")],
                  note: "$(A) (a reference cycle)"),
            Shape(name: "twenty settings each doubling the next", files: ["Hostile/App.xcodeproj/project.pbxproj": pbxproj(chain + "V21 = x; IPHONEOS_DEPLOYMENT_TARGET = \"$(V1)\";")],
                  note: "a value longer than 4096 characters"),
            Shape(name: "a setting that doubles itself (xcconfig)",
                  files: ["Hostile/App.xcodeproj/project.pbxproj": pbxproj("", xcconfig: "a.xcconfig"), "Hostile/a.xcconfig": "A = $(A)$(A)\nIPHONEOS_DEPLOYMENT_TARGET = $(A)\n"],
                  note: "$(A) (a reference cycle)"),
            Shape(name: "an xcconfig that includes itself by another spelling",
                  files: ["Hostile/App.xcodeproj/project.pbxproj": pbxproj("", xcconfig: "a.xcconfig"), "Hostile/a.xcconfig": "#include \"./a.xcconfig\"\nIPHONEOS_DEPLOYMENT_TARGET = 13.0\n"],
                  note: "a.xcconfig includes itself"),
            Shape(name: "an include chain 10,000 deep", files: includes, note: "includes nested more than 64 deep are not read"),
            Shape(name: "a project.yml of nested aliases", files: ["Hostile/project.yml": laughs + "\n" + spec], note: "its aliases expand to more than 1000000 nodes"),
            Shape(name: "an alias as a mapping key", files: ["Hostile/project.yml": laughs + "\n*i: 1\n" + spec], note: "an alias used as a mapping key"),
            Shape(name: "a mapping as a mapping key (found by the fuzzer: Yams stopped the process)",
                  files: ["Hostile/project.yml": "? {a: 1}\n: x\n" + spec], note: "a mapping key that is not a plain value (line 1)"),
            Shape(name: "a 20 MB project.yml", files: ["Hostile/project.yml": spec + "settings:\n" + String(repeating: "  KEY_NAME_OF_SOME_LENGTH: \"a value of some length too\"\n", count: 400_000)],
                  note: "larger than 1 MiB"),
        ]
    }()

    /// The run's JSON report and standard error, with the largest resident size it reached (KB).
    static func run(in directory: URL) throws -> (files: [String: [String: Any]], stderr: String, status: Int32, maxKB: Int) {
        let result = try runWithWatchdog(
            URL(fileURLWithPath: "/usr/bin/time"), ["-f", "maxrss=%M", Paths.executable.path, "--no-config", "--format", "json", "."],
            in: directory, seconds: 60)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stderr)")
        let files = (json["files"] as? [[String: Any]] ?? []).reduce(into: [String: [String: Any]]()) { $0[$1["path"] as? String ?? ""] = $1 }
        let kb = result.stderr.split(separator: "\n").last { $0.hasPrefix("maxrss=") }.flatMap { Int($0.dropFirst(7)) } ?? .max
        return (files, result.stderr, result.status, kb)
    }

    @Test(arguments: shapes)
    func theRunEndsAndSaysSo(_ shape: Shape) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("project/App/Info.plist", to: directory, as: "Hostile/App/Info.plist")
        _ = try copyFixture("project/App/Info.plist", to: directory, as: "Clean/Info.plist")
        for (path, text) in shape.files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let run = try Self.run(in: directory)
        #expect(run.status == 0, "\(run.stderr.suffix(2000))")
        #expect(run.maxKB < 100 * 1024, "max resident \(run.maxKB) KB")
        let notes = run.stderr.split(separator: "\n").filter { $0.hasPrefix("Hostile/App/Info.plist: note:") }
        #expect(notes.contains { $0.contains(shape.note) }, "\(run.stderr.suffix(2000))")
        #expect(notes.allSatisfy { $0.count < 20_000 }, "a one-line note, not a megabyte")
        // The rest of the run is untouched: the clean file gets what it gets alone.
        let alone = try Self.run(in: directory.appendingPathComponent("Clean"))
        #expect(run.files["Clean/Info.plist"]?["status"] as? String == alone.files["Info.plist"]?["status"] as? String)
        #expect((run.files["Clean/Info.plist"]?["passes"] as? [[String: Any]])?.count == (alone.files["Info.plist"]?["passes"] as? [[String: Any]])?.count)
    }

    /// A loop of symbolic links on an include path is named as one.
    @Test func aSymbolicLinkLoopIsNamed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("project/App/Info.plist", to: directory, as: "Hostile/App/Info.plist")
        let project = directory.appendingPathComponent("Hostile/App.xcodeproj")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Data(Self.pbxproj("", xcconfig: "a.xcconfig").utf8).write(to: project.appendingPathComponent("project.pbxproj"))
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Hostile/d"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("Hostile/d/loop").path, withDestinationPath: "../d")
        let deep = Array(repeating: "loop", count: 60).joined(separator: "/")
        try Data("#include \"d/\(deep)/x.xcconfig\"\n".utf8).write(to: directory.appendingPathComponent("Hostile/a.xcconfig"))
        let run = try Self.run(in: directory)
        #expect(run.status == 0)
        #expect(run.stderr.contains("is in a loop of symbolic links"), "\(run.stderr)")
    }

    @Test(arguments: [("*a: 1", 1), ("x: {*a : 1}", 1), ("- *a: 1", 1), ("x: *a", nil), ("x: \"*a: 1\"", nil), ("x: 2*a: 3", nil),
                      ("# *a: 1", nil), ("x: [*a, *b]", nil)])
    func aliasKeysAreFound(_ text: String, _ line: Int?) {
        #expect(BoundedYAML.aliasKeyLine(text) == line, "\(text)")
    }
}
