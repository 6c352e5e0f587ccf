import Foundation
import Testing
@testable import PlistMigrate

#if canImport(Glibc)
import Glibc
#endif

/// `--write` keeps what makes a file that file (owner, group, mode, extended attributes and
/// ACLs, hard links) and refuses what it cannot keep. Most of these need root:
/// CI runs as root; elsewhere they are skipped, and say why.
@Suite(.serialized) struct FileIdentityTests {
    static let isRoot = geteuid() == 0
    static let nobody: uid_t = 65534

    /// A directory holding `Info.plist`, a file that needs ATS001.
    func workspace() throws -> (directory: URL, file: URL) {
        let directory = try temporaryDirectory(onDisk: true)
        let file = try copyFixture("ATS001/tabs.before.plist", to: directory, as: "Info.plist")
        return (directory, file)
    }

    static func status(_ path: String) -> stat {
        var info = stat()
        lstat(path, &info)
        return info
    }

    static let migrated = Paths.fixtures.appendingPathComponent("ATS001/tabs.after.plist")

    @Test(.enabled(if: isRoot, "chown to another user needs root"))
    func ownerGroupAndSetuidModeAreKept() throws {
        let (directory, file) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(chown(file.path, Self.nobody, Self.nobody) == 0)
        #expect(chmod(file.path, 0o4750) == 0)
        let result = try tool(["--write", "Info.plist"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let info = Self.status(file.path)
        #expect(info.st_uid == Self.nobody && info.st_gid == Self.nobody, "owner and group kept")
        #expect(info.st_mode & 0o7777 == 0o4750, "mode, set-user-ID bit included, kept")
        #expect(try Data(contentsOf: file) == Data(contentsOf: Self.migrated))
    }

    @Test(.enabled(if: isRoot, "setting system.posix_acl_access needs the file's owner or root"))
    func extendedAttributesAndACLsAreKept() throws {
        let (directory, file) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        // An access ACL granting user `nobody` read access: version 2, then (tag, perm, id)
        // entries for the owner, one named user, the owning group, the mask and others.
        var acl: [UInt8] = [2, 0, 0, 0]
        func entry(_ tag: UInt16, _ perm: UInt16, _ id: UInt32) {
            acl += withUnsafeBytes(of: tag.littleEndian, Array.init) + withUnsafeBytes(of: perm.littleEndian, Array.init)
                + withUnsafeBytes(of: id.littleEndian, Array.init)
        }
        entry(0x01, 6, UInt32.max)
        entry(0x02, 4, Self.nobody)
        entry(0x04, 4, UInt32.max)
        entry(0x10, 4, UInt32.max)
        entry(0x20, 0, UInt32.max)
        let fd = open(file.path, O_RDONLY)
        #expect(ExtendedAttributes.set("user.plist-migrate.test", Array("kept".utf8), on: fd) == 0)
        let aclSet = ExtendedAttributes.set("system.posix_acl_access", acl, on: fd) == 0
        close(fd)
        let before = try Self.attributes(file.path)
        #expect(before["user.plist-migrate.test"] == Array("kept".utf8))

        let result = try tool(["--write", "Info.plist"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: file) == Data(contentsOf: Self.migrated))
        let after = try Self.attributes(file.path)
        #expect(after == before, "every extended attribute kept")
        #expect(aclSet, "this file system takes ACLs")
        #expect(after["system.posix_acl_access"] == acl, "the ACL is kept")
    }

    static func attributes(_ path: String) throws -> [String: [UInt8]] {
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var values: [String: [UInt8]] = [:]
        for name in try ExtendedAttributes.names(fd) { values[name] = ExtendedAttributes.value(name, of: fd) }
        return values
    }

    @Test func aHardLinkedFileIsRefusedAndBothNamesKeepTheirContent() throws {
        let (directory, file) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let other = directory.appendingPathComponent("Other.plist")
        #expect(link(file.path, other.path) == 0)
        let original = try Data(contentsOf: file)
        let result = try tool(["--write", "Info.plist"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Info.plist: error: has 2 hard links; replacing it would leave the other names with the old content; not overwritten"))
        #expect(result.stderr.contains("1 not written"))
        #expect(result.stdout.isEmpty, "no diff for a file that was not written")
        #expect(try Data(contentsOf: file) == original)
        #expect(Self.status(file.path).st_ino == Self.status(other.path).st_ino, "still one file under two names")
    }

    @Test(.enabled(if: isRoot, "needs root to run the tool as another user"))
    func aFileThisUserMayNotWriteIsRefusedWhateverTheDirectoryAllows() throws {
        let (directory, file) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Root owns the 0644 file; the directory is world-writable, so a rename would work.
        #expect(chmod(directory.path, 0o777) == 0)
        #expect(chmod(file.path, 0o644) == 0)
        let original = try Data(contentsOf: file)
        let executable = try Self.copyExecutableForNobody(into: directory)
        let result = try run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                             ["--reuid=65534", "--regid=65534", "--clear-groups", executable.path, "--write", "Info.plist"],
                             in: directory)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("Info.plist: error: not writable by this user (permission denied); not overwritten"))
        #expect(try Data(contentsOf: file) == original)
        #expect(Self.status(file.path).st_uid == 0, "still root's file")
    }

    /// The test build sits under a directory other users may not enter: a copy they can run.
    static func copyExecutableForNobody(into directory: URL) throws -> URL {
        let copy = directory.appendingPathComponent("tool-bin/plist-migrate")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Paths.executable, to: copy)
        chmod(copy.deletingLastPathComponent().path, 0o755)
        chmod(copy.path, 0o755)
        return copy
    }

    @Test func aSymlinkLoopIsNamed() throws {
        let directory = try temporaryDirectory(onDisk: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(symlink("b.plist", directory.appendingPathComponent("a.plist").path) == 0)
        #expect(symlink("a.plist", directory.appendingPathComponent("b.plist").path) == 0)
        #expect(symlink("missing.plist", directory.appendingPathComponent("c.plist").path) == 0)
        let result = try tool(["a.plist", "c.plist"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("a.plist: error: symbolic link loop\n"))
        #expect(result.stderr.contains("c.plist: error: dangling symbolic link (its target does not exist)\n"))
    }

    @Test func aFileOpenForWritingElsewhereIsNotReplaced() throws {
        let (directory, file) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try FileHandle(forWritingTo: file)
        defer { try? writer.close() }
        let original = try Data(contentsOf: file)
        let result = try tool(["--write", "Info.plist"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Info.plist: error: open for writing by another process; not overwritten"))
        #expect(try Data(contentsOf: file) == original)
    }

    @Test(.enabled(if: isRoot, "mounting a small tmpfs needs root"))
    func aFullDiskWritesNothingAndTheSummarySaysSo() throws {
        let directory = try temporaryDirectory(onDisk: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let mountPoint = directory.appendingPathComponent("disk")
        try mountSmallDisk(at: mountPoint)
        defer { unmountSmallDisk(mountPoint) }
        let file = try copyFixture("ATS001/tabs.before.plist", to: mountPoint, as: "Info.plist")
        let original = try Data(contentsOf: file)
        try fillDisk(mountPoint)

        let result = try tool(["--write", "disk/Info.plist"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("disk/Info.plist: error: cannot write: no space left on device; not overwritten")
            || result.stderr.contains("disk/Info.plist: error: cannot create a temporary file beside it"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "no diff for a file that was not written")
        #expect(result.stderr.contains("0 changed, 0 unchanged, 1 error, 1 not written"), "\(result.stderr)")
        #expect(try Data(contentsOf: file) == original)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: mountPoint.path).sorted()
        #expect(leftovers == ["Info.plist", "filler"])
    }
}
