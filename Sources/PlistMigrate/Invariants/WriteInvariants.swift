#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileAccess

extension Invariants {
    /// The write path, end to end, on a real file in `directory`: the input is stored, read back,
    /// migrated and replaced through `FileIO.replace` (temp file, check, rename). Afterwards the
    /// file must hold exactly the migrated bytes (or, when nothing changed, the input), nothing
    /// else may be left in `directory`, and a second run must have nothing to write.
    public static func writeViolation(in data: [UInt8], directory: String) -> String? {
        let path = directory + "/Info.plist"
        guard store(data, at: path) else { return nil }
        defer { unlink(path) }
        guard case .success(let runs) = migrators, let migrator = runs.first else {
            return "the invariants' own passes could not be made"
        }
        guard let (bytes, fingerprint) = try? FileIO.load(path) else { return "cannot read back the stored input" }
        guard bytes == data else { return "the stored input reads back differently" }
        let first = migrator.migrate(bytes, path: path, skipIfNotApplicable: false)
        if first.status == .changed {
            do {
                try FileIO.replace(path, with: first.output, expected: fingerprint, original: bytes)
            } catch {
                return "replace refused a file nobody else touched: \(error.message)"
            }
        }
        guard let (written, _) = try? FileIO.load(path) else { return "cannot read the written file" }
        if written != (first.status == .changed ? first.output : data) { return "the file on disk is not the migrated output" }
        if let leftovers = entries(of: directory), leftovers != ["Info.plist"] {
            return "the write left files behind: \(leftovers)"
        }
        let second = migrator.migrate(written, path: path, skipIfNotApplicable: false)
        if second.status == .changed { return "a second run after --write would change the file again" }
        return nil
    }

    static func store(_ data: [UInt8], at path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == data.count
    }

    static func entries(of directory: String) -> [String]? {
        var names: [String] = []
        guard DirectoryEntries.forEach(at: PathBytes.c(directory), { bytes, _ in
            let name = PathBytes.string(bytes)
            if name != "." && name != ".." { names.append(name) }
        }) else { return nil }
        return names.sorted()
    }
}
