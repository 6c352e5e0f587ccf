import Foundation
import Testing

/// What a run asks the file system, read from `strace`: each folder around the files is listed
/// once and never asked for names one at a time, and a file named on the command line is
/// looked at once (the `stat` that tells a file from a folder) and then only opened and read.
/// Checked for every way a file is named; a walk lists what it walks, which its own tests cover.
@Suite struct SystemCallTests {
    static let strace = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Three apps with two targets each, in a repository: every app folder holds two plists'
    /// folders, and one holds a project spec and a config, so facts are found as well as missed.
    static func repository() throws -> (root: URL, files: [String]) {
        let root = try temporaryDirectory()
        let manager = FileManager.default
        try manager.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let plist = try Data(contentsOf: Paths.fixtures.appendingPathComponent("demo/ShopApp/Info.plist"))
        var files: [String] = []
        for app in 0..<3 {
            for target in ["App", "Widget"] {
                let folder = "app\(app)/\(target)"
                try manager.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
                try plist.write(to: root.appendingPathComponent(folder + "/Info.plist"))
                files.append(folder + "/Info.plist")
            }
        }
        try Data("{}".utf8).write(to: root.appendingPathComponent("app1/.plist-migrate.json"))
        try Data("name: App\n".utf8).write(to: root.appendingPathComponent("app1/project.yml"))
        return (root, files)
    }

    /// Every way a run is given files by name: `migrate`'s arguments and `--files-from`, and
    /// `lint`'s arguments.
    enum Naming: String, CaseIterable { case arguments, filesFrom, lintArguments }

    @Test(.enabled(if: strace != nil, "strace is not installed (.ci/run installs it)"), arguments: Naming.allCases)
    func eachFolderIsListedOnceAndEachFileLookedAtOnce(naming: Naming) throws {
        let (root, files) = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        let log = root.appendingPathComponent("strace.log").path
        var arguments = ["-f", "-e", "trace=openat,open,stat,lstat,newfstatat,statx,fstat,close", "-o", log, Paths.executable.path]
        switch naming {
        case .arguments: arguments += ["--jobs", "1"] + files
        case .filesFrom:
            try Data(files.joined(separator: "\n").utf8).write(to: root.appendingPathComponent("list"))
            arguments += ["--jobs", "1", "--files-from", "list"]
        case .lintArguments: arguments += ["lint", "--jobs", "1"] + files
        }
        let result = try run(URL(fileURLWithPath: Self.strace!), arguments, in: root)
        // lint exits 1 for its findings; anything above is a failure.
        #expect(result.status == 0 || (naming == .lintArguments && result.status == 1), "\(result.stderr)")
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { line in
            // `PID call(…) = result`: the PID taken off.
            line.drop { $0 != " " }.drop { $0 == " " }
        }
        let folders = Set(files.flatMap { file -> [String] in
            let target = (file as NSString).deletingLastPathComponent
            return [target, (target as NSString).deletingLastPathComponent]
        })

        // Each folder around the files: opened to be listed once, never asked for a name.
        for folder in folders.sorted() {
            let opened = calls.filter { $0.hasPrefix("openat(") && $0.contains("\"\(folder)\"") && $0.contains("O_DIRECTORY") }
            #expect(opened.count == 1, "\(folder) listed \(opened.count) times")
            for name in [".git", ".plist-migrate.json", "project.yml", "Project.swift"] {
                let asked = calls.filter { $0.contains("\"\(folder)/\(name)\"") || $0.hasSuffix("/\(folder)/\(name)\"") }
                #expect(asked.isEmpty, "\(folder)/\(name) looked up by name: \(asked)")
            }
        }
        // Each file: one `stat`, one `openat`, and no `fstat` of what was opened.
        for file in files {
            let stats = calls.filter { ($0.hasPrefix("newfstatat(") || $0.hasPrefix("stat(") || $0.hasPrefix("statx(")) && $0.contains("\"\(file)\"") }
            #expect(stats.count == 1, "\(file) looked at \(stats.count) times")
            let opens = calls.indices.filter { calls[$0].hasPrefix("openat(") && calls[$0].contains("\"\(file)\"") }
            #expect(opens.count == 1, "\(file) opened \(opens.count) times")
            guard let open = opens.first, let descriptor = calls[open].split(separator: "=").last?.trimmingCharacters(in: .whitespaces) else { continue }
            let rest = calls[(open + 1)...].prefix { !$0.hasPrefix("close(\(descriptor))") }
            let asked = rest.filter { $0.hasPrefix("fstat(\(descriptor),") || $0.hasPrefix("newfstatat(\(descriptor), \"\"") || $0.hasPrefix("statx(\(descriptor), \"\"") }
            #expect(asked.isEmpty, "\(file) asked again once open: \(asked)")
        }
        // The facts were found: the config and the spec in `app1` are read.
        #expect(calls.contains { $0.hasPrefix("openat(") && $0.contains("app1/.plist-migrate.json") })
    }
}
