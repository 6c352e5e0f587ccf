// Room: Write. Reading files whole (`FileAccess`'s `FileIO.load`) and replacing them atomically
// (temp file, identity kept, last-moment check, RENAME_EXCHANGE), and EditCheck, the independent
// check every output passes before it may be written. Shared by migrate and edit. May call
// Support and FileAccess; nothing here knows about passes.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileAccess

extension FileIO {
    /// Temp files this tool creates carry this marker; `--write` removes stale ones.
    public static let tempMarker = ".plist-migrate-tmp"
}

extension FileIO {
    /// Removes a temp file left by a `--write` that was killed: one with this tool's name
    /// shape whose process no longer runs. Returns whether it was removed.
    @discardableResult
    public static func removeStaleTemporaryFile(_ path: String) -> Bool {
        isStaleTemporaryFile(path) && unlink(PathBytes.c(path)) == 0
    }

    /// Whether `path` is a temp file a killed run left: this tool's name shape, and its process
    /// (the PID in the name) no longer runs.
    public static func isStaleTemporaryFile(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.hasPrefix("."), name.hasSuffix(tempMarker) else { return false }
        let fields = name.dropLast(tempMarker.count).split(separator: ".")
        guard fields.count >= 3, let pid = Int32(fields[fields.count - 2]) else { return false }
        return pid != getpid() && kill(pid, 0) != 0
    }

    /// What a run says of a killed run's temporary file: removed (`--write`), or where it is
    /// and how to remove it.
    static func leftoverNote(_ path: String, removed: Bool) -> String {
        let shown = PathBytes.display(ReportPaths.current.name(path))
        return removed ? "\(shown): note: removed the temporary file a killed plist-migrate run left"
            : "\(shown): note: a temporary file a killed plist-migrate run left; plist-migrate --write removes it (or rm it)"
    }
}

