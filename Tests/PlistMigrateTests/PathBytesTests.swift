import Foundation
import Testing
@testable import PlistMigrate

#if canImport(Glibc)
import Glibc
#endif
@testable import FileAccess

/// Paths are bytes: names that are not UTF-8 are walked, opened, reported
/// (escaped) and written as the bytes they are.
@Suite struct PathBytesTests {
    @Test func everyByteStringSurvivesTheRoundTrip() {
        var generator = SystemRandomNumberGenerator()
        let interesting: [UInt8] = [0x2F, 0x41, 0x80, 0xBF, 0xC0, 0xC3, 0xA9, 0xED, 0xA0, 0xF4, 0x8F, 0xBE, 0xFF, 0xE2, 0x82, 0xAC]
        for _ in 0..<5000 {
            let length = Int.random(in: 1...12, using: &generator)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &generator) ? interesting.randomElement(using: &generator)! : UInt8.random(in: 1...255, using: &generator)
            }
            let path = PathBytes.string(bytes)
            #expect(PathBytes.c(path).dropLast().map { UInt8(bitPattern: $0) } == bytes, "\(bytes)")
        }
        #expect(PathBytes.string(Array("Café/Info.plist".utf8)) == "Café/Info.plist", "UTF-8 decodes as usual")
        #expect(PathBytes.display(PathBytes.string([0x64, 0xFF, 0x2F, 0x61])) == "\"d\\377/a\"")
        let privateUse = Array("\u{10FF90}".utf8)
        #expect(PathBytes.c(PathBytes.string(privateUse)).dropLast().map { UInt8(bitPattern: $0) } == privateUse)
    }

    /// A directory's parent is found by bytes; it must equal the cut at the last `/` character.
    @Test func parentCutsAtTheLastSlash() {
        let paths = ["/a/b", "/a", "/", "/Café/Ünïcode/x", PathBytes.string([0x2F, 0x64, 0xFF, 0x2F, 0x61, 0xFE]), "/a/b/"]
        for path in paths {
            let reference = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            #expect(DirectoryFacts.parent(of: path) == reference, "\(path)")
        }
        #expect(DirectoryFacts.parent(of: "/a") == "")
        #expect(DirectoryFacts.parent(of: "") == nil)
    }

    /// `dir\xFF/Info.plist` (needs ATS001) and `f\xFE.plist` (needs ATS001), made with the bytes.
    static func tree() throws -> URL {
        let directory = try temporaryDirectory()
        let source = Array(try Data(contentsOf: Paths.fixtures.appendingPathComponent("ATS001/tabs.before.plist")))
        let dir = Array(directory.path.utf8) + [0x2F, 0x64, 0x69, 0x72, 0xFF]
        #expect(mkdir(dir.map { CChar(bitPattern: $0) } + [0], 0o755) == 0)
        for name in [dir + Array("/Info.plist".utf8), Array(directory.path.utf8) + [0x2F, 0x66, 0xFE] + Array(".plist".utf8)] {
            let fd = open(name.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            #expect(fd >= 0)
            _ = source.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        return directory
    }

    @Test func aTreeWithNamesThatAreNotUTF8IsCheckedAndWrittenWhole() throws {
        let directory = try Self.tree()
        defer { try? FileManager.default.removeItem(at: directory) }
        let check = try tool(["--check", "."], in: directory)
        #expect(check.status == 1, "a pending migration below a non-UTF-8 directory fails --check")
        #expect(check.stderr.contains("2 files scanned, 2 would change"), "\(check.stderr)")
        #expect(check.text.contains("--- \"a/dir\\377/Info.plist\""))
        #expect(check.text.contains("--- \"a/f\\376.plist\""))
        #expect(try tool(["--write", "."], in: directory).status == 0)
        let after = try tool(["--check", "."], in: directory)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stderr.contains("2 files scanned, 0 would change, 2 unchanged"))
    }

    @Test func aNonUTF8NameGivenAsAnArgumentIsThatFile() throws {
        let directory = try Self.tree()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try run(URL(fileURLWithPath: "/bin/sh"),
                             ["-c", "exec \"$0\" \"$(printf 'f\\376.plist')\" \"$(printf 'gone\\375.plist')\"", Paths.executable.path],
                             in: directory)
        #expect(result.status == 64, "a path that does not exist stops the run before anything runs")
        #expect(result.stderr.contains("\"gone\\375.plist\": no such file or directory"), "\(result.stderr)")
        let present = try run(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$0\" \"$(printf 'f\\376.plist')\"", Paths.executable.path], in: directory)
        #expect(present.text.contains("--- \"a/f\\376.plist\""), "\(present.stderr)")
    }
}

/// `FileIO.absolute` skips its step-by-step resolution for plain paths; both ways agree.
@Suite struct AbsolutePathTests {
    @Test func plainPathsAreJoinedAndOthersResolved() {
        let cwd = FileIO.workingDirectory
        for plain in ["a/b.plist", "/a/b", "/", ".git/x", "...", "a/.../b", "a/..b/.c", "x"] {
            #expect(FileIO.isPlain(plain), "\(plain)")
        }
        for odd in ["", "a/", "a//b", "./a", "a/./b", "a/../b", "..", ".", "/a/.", "/a/..", "//a", "/.", "a/b/"] {
            #expect(!FileIO.isPlain(odd), "\(odd)")
        }
        #expect(FileIO.absolute("a/b.plist") == cwd + "/a/b.plist")
        #expect(FileIO.absolute("a/./x/../b.plist") == cwd + "/a/b.plist")
        #expect(FileIO.absolute("/x/y") == "/x/y")
        #expect(FileIO.absolute("/x//y/./z/..") == "/x/y")
        #expect(FileIO.absolute("a\u{10FF80}b") == cwd + "/a\u{10FF80}b")
    }

    /// The byte-copying join that paths are made with is the string join it replaces: over an
    /// empty head, a `/` cut from the tail, and names of several scripts and escaped bytes.
    @Test func pathsJoinedByCopyingBytesAreTheStringsJoined() {
        let pieces = ["", "a", "/x", "App", "é", "日本", "\u{10FF80}", "b.plist", "Ω/"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let head = (0..<Int.random(in: 0...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let name = (0..<Int.random(in: 0...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(PathBytes.joined(head, name) == head + "/" + name, "\(head) \(name)")
            #expect(PathBytes.joined(head, name + "/", dropping: 1) == head + "/" + name, "\(head) \(name)")
        }
    }

    /// Directory look-ups name a directory inside the working directory from there; any other
    /// path (a sibling whose name starts the same included) stays absolute, and each names the
    /// same directory as before.
    @Test func pathsInsideTheWorkingDirectoryAreNamedFromIt() throws {
        let cwd = FileIO.workingDirectory
        func trimmed(_ path: String) -> String {
            var bytes = Array(PathBytes.c(path).dropLast())
            FileIO.trimWorkingDirectory(&bytes)
            return String(decoding: bytes.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        #expect(trimmed(cwd) == ".")
        #expect(trimmed(cwd + "/a/b") == "a/b")
        #expect(trimmed(cwd + "x/a") == cwd + "x/a")
        #expect(trimmed("/") == (cwd == "/" ? "." : "/"))
        let parent = try #require(DirectoryFacts.parent(of: cwd))
        #expect(trimmed(parent.isEmpty ? "/" : parent) == (parent.isEmpty ? "/" : parent))
        for path in [cwd, cwd + "/Sources", parent.isEmpty ? "/" : parent] {
            var a = stat(), b = stat()
            #expect(stat(path, &a) == 0 && stat(trimmed(path), &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev, "\(path)")
        }
    }
}

/// Discovery sorts ASCII paths as bytes: the order must be `String`'s, also next to paths
/// that are not ASCII (composed and decomposed accents, escaped bytes).
@Suite struct PathOrderTests {
    @Test func sortedByPathIsStringOrder() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "b", "A", "Z", "-", ".", "/", "_", "0", "9", "~", "é", "e\u{301}", "ü", "\u{10FF41}", "日"]
        for _ in 0..<200 {
            let files = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                DiscoveredFile(path: (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                    pieces.randomElement(using: &generator)!
                }.joined(), explicit: false)
            }
            #expect(FileDiscovery.sortedByPath(files).map(\.path) == files.sorted { $0.path < $1.path }.map(\.path))
        }
    }

    @Test func asciiNamesAreKeptAsTheyAre() {
        for name in ["Info.plist", "a b", "x~1", ""] {
            #expect(PathBytes.string(Array(name.utf8)) == name)
        }
    }
}
