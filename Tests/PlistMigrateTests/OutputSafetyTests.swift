import Foundation
import Testing

/// `--output` never names a file the run reads, and the report replaces the old
/// one only once the run has reported.
@Suite struct OutputSafetyTests {
    func workspace() throws -> (URL, Data) {
        let directory = try temporaryDirectory(onDisk: true)
        let file = try copyFixture("demo/ShopApp/Info.plist", to: directory, as: "App/Info.plist")
        return (directory, try Data(contentsOf: file))
    }

    @Test(arguments: [
        ["--output", "App/Info.plist", "App/Info.plist"],
        ["--output", "App/../App/Info.plist", "App/Info.plist"],
        ["--output", "link.plist", "App/Info.plist"],
        ["--output", "App/Info.plist", "."],
        ["lint", "--output", "App/Info.plist", "App/Info.plist"],
        ["--write", "--output", "App/Info.plist", "App"],
    ])
    func anOutputTheRunReadsIsRefusedBeforeAnythingIsOpened(_ arguments: [String]) throws {
        let (directory, original) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("link.plist").path, withDestinationPath: "App/Info.plist")
        let result = try tool(arguments, in: directory)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("which this run"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("App/Info.plist")) == original, "the input is untouched")
    }

    @Test func aFailedRunKeepsTheOldReportAndLeavesNoTemporaryFile() throws {
        let (directory, _) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.json")
        try Data("old report\n".utf8).write(to: report)
        // A config that cannot be read stops the run before it reports anything.
        try Data("{ not json".utf8).write(to: directory.appendingPathComponent("App/.plist-migrate.json"))
        let failed = try tool(["--format", "json", "--output", "report.json", "App"], in: directory)
        #expect(failed.status == 2, "\(failed.stderr)")
        #expect(try String(contentsOf: report, encoding: .utf8) == "old report\n")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains { $0.contains("plist-migrate-") }, "\(names)")
        // A run that completes replaces it.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("App/.plist-migrate.json"))
        let done = try tool(["--format", "json", "--output", "report.json", "App"], in: directory)
        #expect(done.status == 0, "\(done.stderr)")
        let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: report)) as? [String: Any]
        #expect((json?["files"] as? [Any])?.count == 1)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: directory.path)).contains { $0.contains("plist-migrate-") })
    }

    /// Rows 1–3: `--output` is only ever a regular file (or a new one). A FIFO, a
    /// socket, a directory, a link to a character device: refused before the run, exit 2, one
    /// line, the node still what it was. Device nodes are never touched: the link points at one
    /// only to be refused (nothing is opened through it).
    @Test(arguments: ["fifo", "socket", "dir", "dir/", "link-to-null", "link-to-fifo"])
    func anOutputThatIsNotARegularFileIsRefused(_ name: String) throws {
        let (directory, original) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        #expect(mkfifo(path("fifo"), 0o644) == 0)
        try FileManager.default.createDirectory(atPath: path("dir"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: path("link-to-null"), withDestinationPath: "/dev/null")
        try FileManager.default.createSymbolicLink(atPath: path("link-to-fifo"), withDestinationPath: "fifo")
        let socketPath = path("socket")
        #if canImport(Glibc)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in socketPath.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        defer { close(fd) }
        #expect(bound == 0)
        var before = stat()
        _ = lstat(path(name), &before)
        for command in [["App/Info.plist"], ["lint", "App/Info.plist"]] {
            let result = try tool(Array(command.dropLast()) + ["--output", name, command.last!], in: directory)
            #expect(result.status == 2, "\(name) \(command): \(result.stderr)")
            #expect(result.stderr.contains("error: --output"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
        var after = stat()
        _ = lstat(path(name), &after)
        #expect(after.st_mode == before.st_mode && after.st_ino == before.st_ino, "\(name) is what it was")
        #expect(try Data(contentsOf: directory.appendingPathComponent("App/Info.plist")) == original)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains { $0.contains("plist-migrate-") }, "\(names)")
    }

    /// A link to a regular file is written through: the file it names gets the report and the
    /// link stays a link. A link to nothing is refused: writing through it would create a file
    /// wherever it points (and renaming over it would silently drop the link).
    @Test func anOutputLinkIsFollowedToItsFileAndALinkToNothingIsRefused() throws {
        let (directory, _) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        try FileManager.default.createDirectory(atPath: path("reports"), withIntermediateDirectories: false)
        try Data("old\n".utf8).write(to: directory.appendingPathComponent("reports/latest.json"))
        try FileManager.default.createSymbolicLink(atPath: path("latest.json"), withDestinationPath: "reports/latest.json")
        try FileManager.default.createSymbolicLink(atPath: path("dangling.json"), withDestinationPath: "nowhere/report.json")
        let written = try tool(["--format", "json", "--output", "latest.json", "App/Info.plist"], in: directory)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path("latest.json")) == "reports/latest.json")
        let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: directory.appendingPathComponent("reports/latest.json")))
        #expect((json as? [String: Any])?["files"] != nil, "the linked file holds the report")
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: path("reports"))).contains { $0.contains("plist-migrate-") })

        let refused = try tool(["--format", "json", "--output", "dangling.json", "App/Info.plist"], in: directory)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("symbolic link to nothing"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path("dangling.json")) == "nowhere/report.json")
        #expect(!FileManager.default.fileExists(atPath: path("nowhere")))
    }

    /// One-character names are written, not a crash (`-` is standard output:
    /// `anOutputOfDashIsStandardOutput`; `./-` is a file named `-`).
    @Test(arguments: ["x", "./-", "./y"])
    func aShortOutputNameIsWritten(_ name: String) throws {
        let (directory, _) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try tool(["--format", "json", "--output", name, "App/Info.plist"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: directory.appendingPathComponent(name)))
        #expect((json as? [String: Any])?["files"] != nil)
    }

    /// A write error on standard output or on `--output` (a full disk, a
    /// closed pipe, a closed descriptor) is exit 2 with a message, never a signal or exit 0 with
    /// the output lost, and leaves no temporary file. The full disk is a 16 KB tmpfs in the
    /// test's own folder.
    @Test(.enabled(if: FileIdentityTests.isRoot, "mounting a small tmpfs needs root"))
    func aReportThatCannotBeWrittenIsExitTwo() throws {
        let (directory, _) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = directory.appendingPathComponent("disk")
        try mountSmallDisk(at: disk)
        defer { unmountSmallDisk(disk) }
        try Data("old report\n".utf8).write(to: disk.appendingPathComponent("report.txt"))
        try fillDisk(disk)
        let binary = Paths.executable.path
        let commands: [(String, String)] = [
            ("migrate to a full disk", "'\(binary)' App/Info.plist > disk/out"),
            ("JSON to a full disk", "'\(binary)' --format json App/Info.plist > disk/out"),
            ("lint to a full disk", "'\(binary)' lint App/Info.plist > disk/out"),
            ("edit Print to a full disk", "'\(binary)' edit App/Info.plist -c Print > disk/out"),
            ("list to a full disk", "'\(binary)' list > disk/out"),
            ("--output on a full disk", "'\(binary)' --format json --output disk/report.txt App/Info.plist"),
            ("a closed standard output", "'\(binary)' App/Info.plist >&-"),
            ("a closed pipe", "( sleep 0.3; '\(binary)' --format json App/Info.plist; echo $? > status ) | head -c 0; exit $(cat status)"),
        ]
        for (what, script) in commands {
            try? FileManager.default.removeItem(at: disk.appendingPathComponent("out"))
            let result = try run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], in: directory)
            #expect(result.status == 2, "\(what): exit \(result.status), \(result.stderr)")
            #expect(result.stderr.contains("error: cannot write"), "\(what): \(result.stderr)")
        }
        #expect(try String(contentsOf: disk.appendingPathComponent("report.txt"), encoding: .utf8) == "old report\n")
        // A new report that cannot be written keeps no old file, and does not say it does.
        let new = try run(URL(fileURLWithPath: "/bin/sh"), ["-c", "'\(binary)' --format json --output disk/new.json App/Info.plist"], in: directory)
        #expect(new.status == 2, "\(new.stderr)")
        #expect(new.stderr.contains("no report was written") && !new.stderr.contains("old file"), "\(new.stderr)")
        #expect(!FileManager.default.fileExists(atPath: disk.appendingPathComponent("new.json").path))
        let names = try FileManager.default.contentsOfDirectory(atPath: disk.path)
        #expect(!names.contains { $0.contains("plist-migrate-") }, "no temporary file left: \(names)")
    }

    /// The file behind standard input and the entries of a `--files-from` list
    /// are inputs too; `--output` naming one of them is refused before the run, exit 2.
    @Test func anOutputThatAnInputNamesByAnotherRouteIsRefused() throws {
        let (directory, original) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("App/Info.plist\n".utf8).write(to: directory.appendingPathComponent("list"))
        let binary = Paths.executable.path
        for script in ["'\(binary)' --output App/Info.plist - < App/Info.plist",
                       "'\(binary)' --files-from list --output App/Info.plist",
                       "'\(binary)' --files-from list --output ./App/../App/Info.plist"] {
            let result = try run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], in: directory)
            #expect(result.status == 2, "\(script): \(result.stderr)")
            #expect(result.stderr.contains("which this run reads"), "\(script): \(result.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("App/Info.plist")) == original, "\(script)")
        }
    }

    /// An `--output` whose name does not say plist (`rep`, `rep.json`) but that leads, through a
    /// link, to a plist the walk finds is refused too, in every format and with `--write`, before
    /// anything is read or written: the input and the link are as they were.
    @Test(arguments: [
        ["--output", "rep", "App"],
        ["--format", "json", "--output", "rep", "App"],
        ["--write", "--output", "rep", "App"],
        ["lint", "--format", "sarif", "--output", "rep", "App"],
        ["--output", "rep-inner", "App"],
    ])
    func anOutputThatLeadsToAPlistTheWalkFindsIsRefused(_ arguments: [String]) throws {
        let (directory, original) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("demo/ShopApp/Info.plist", to: directory, as: "App/sub/Other.plist")
        let other = try Data(contentsOf: directory.appendingPathComponent("App/sub/Other.plist"))
        // A link from outside to a walked plist; and one to a link inside the walked folder.
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("rep").path,
                                                   withDestinationPath: directory.appendingPathComponent("App/Info.plist").path)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("App/inner").path, withDestinationPath: "sub/Other.plist")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("rep-inner").path, withDestinationPath: "App/inner")
        let result = try tool(arguments, in: directory)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        // Found through the link before the walk (it lands in the walked folder) or by the walk.
        #expect(result.stderr.contains("which this run reads") || result.stderr.contains("which this run walks and reads"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(result.stdout.isEmpty, "nothing reported: \(result.stdout)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("App/Info.plist")) == original)
        #expect(try Data(contentsOf: directory.appendingPathComponent("App/sub/Other.plist")) == other)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.appendingPathComponent("rep").path).hasSuffix("App/Info.plist"))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains { $0.contains("plist-migrate-") }, "no temporary file left: \(names)")
    }

    /// `--output -` is standard output, as `-` is everywhere else: no file named `-` is made.
    @Test(arguments: [
        (["--format", "json", "--output", "-", "App/Info.plist"], "\"files\""),
        (["lint", "--format", "json", "--output", "-", "App/Info.plist"], "\"findings\""),
        (["--output", "-", "App/Info.plist"], "+++ b/App/Info.plist"),
    ])
    func anOutputOfDashIsStandardOutput(_ arguments: [String], _ expected: String) throws {
        let (directory, original) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try tool(arguments, in: directory)
        #expect(result.status <= 2, "\(result.stderr)")
        #expect(result.text.contains(expected), "\(arguments): \(result.text.prefix(300))")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("-").path), "no file named -")
        #expect(try Data(contentsOf: directory.appendingPathComponent("App/Info.plist")) == original)
    }

    /// Help and the version are output like any other: a full disk or a closed standard output
    /// is exit 2 and one line saying so, never a silent success.
    @Test(arguments: ["--version", "--help", "lint --help", "help edit"])
    func helpAndVersionThatCannotBeWrittenAreExitTwo(_ arguments: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = Paths.executable.path
        for (what, redirect) in [("a full disk", "> /dev/full"), ("a closed standard output", ">&-")] {
            let result = try run(URL(fileURLWithPath: "/bin/sh"), ["-c", "'\(binary)' \(arguments) \(redirect)"], in: directory)
            #expect(result.status == 2, "\(arguments), \(what): exit \(result.status)")
            #expect(result.stderr.hasPrefix("error: cannot write to standard output"), "\(arguments), \(what): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        let written = try run(URL(fileURLWithPath: "/bin/sh"), ["-c", "'\(binary)' \(arguments)"], in: directory)
        #expect(written.status == 0 && !written.stdout.isEmpty, "\(arguments): \(written.stderr)")
    }

    /// A run killed while it writes its report leaves `.NAME.PID.RANDOM.plist-migrate-tmp`: the
    /// next report to that name removes it (its run is gone), and keeps one whose run is alive.
    @Test func aKilledReportsTemporaryFileIsRemovedByTheNextRun() throws {
        let (directory, _) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = Paths.executable.path
        let good = try tool(["--format", "json", "--output", "good.json", "App/Info.plist"], in: directory)
        #expect(good.status == 0, "\(good.stderr)")
        // A run over 3,000 files opens its output first: killed as soon as its temporary file shows.
        let many = directory.appendingPathComponent("many")
        try FileManager.default.createDirectory(at: many, withIntermediateDirectories: true)
        let plist = try Data(contentsOf: directory.appendingPathComponent("App/Info.plist"))
        for index in 0..<3_000 { try plist.write(to: many.appendingPathComponent("\(index).plist")) }
        let script = """
            '\(binary)' --format json --jobs 1 --output rep.json many & pid=$!
            for _ in $(seq 200); do ls -a | grep -q '^\\.rep\\.json\\.' && break; sleep 0.01; done
            kill -9 $pid; wait $pid 2>/dev/null; ls -a
            """
        let killed = try run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], in: directory)
        let left = killed.text.split(separator: "\n").filter { $0.hasPrefix(".rep.json.") }
        #expect(left.count == 1 && left[0].hasSuffix(".plist-migrate-tmp"), "\(killed.text)")
        // One whose run is alive (this test's own process) stays.
        let alive = ".rep.json.\(getpid()).AbC123.plist-migrate-tmp"
        try Data().write(to: directory.appendingPathComponent(alive))
        let next = try tool(["report", "--format", "json", "--output", "rep.json", "good.json"], in: directory)
        #expect(next.status == 0, "\(next.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains { left.contains(Substring($0)) }, "the killed run's file is gone: \(names)")
        #expect(names.contains(alive), "\(names)")
        #expect(names.contains("rep.json"))
    }
}
