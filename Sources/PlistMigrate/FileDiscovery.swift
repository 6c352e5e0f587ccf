#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file to process, and whether the user named it (errors) or a walk found it (skips).
public struct DiscoveredFile: Sendable, Hashable {
    public var path: String
    public var explicit: Bool
}

/// Turns command-line paths into a sorted list of plist files.
///
/// Directories are walked for `*.plist` without following symlinks, skipping build and
/// dependency folders that never hold a project's own Info.plist.
public enum FileDiscovery {
    public static let skippedDirectories: Set<String> = [".git", ".build", "DerivedData", "Pods", "Carthage", "node_modules"]

    public static func discover(_ paths: [String]) -> (files: [DiscoveredFile], errors: [(String, FileError)]) {
        var files: [DiscoveredFile] = []
        var errors: [(String, FileError)] = []
        for raw in paths {
            let path = displayPath(raw)
            if raw == "-" {
                files.append(DiscoveredFile(path: "-", explicit: true))
                continue
            }
            var info = stat()
            guard stat(raw, &info) == 0 else {
                errors.append((path, FileError("no such file or directory")))
                continue
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                walk(raw, display: path, into: &files)
            } else {
                files.append(DiscoveredFile(path: path, explicit: true))
            }
        }
        var seen = Set<String>()
        files = files.filter { seen.insert($0.path).inserted }
        return (files.sorted { $0.path < $1.path }, errors)
    }

    /// `./a/b` → `a/b`, `dir/` → `dir`: the form used in reports and diff headers.
    public static func displayPath(_ raw: String) -> String {
        var path = raw
        while path.hasPrefix("./") { path.removeFirst(2) }
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path.isEmpty ? "." : path
    }

    private static func walk(_ directory: String, display: String, into files: inout [DiscoveredFile]) {
        guard let handle = opendir(directory) else { return }
        defer { closedir(handle) }
        var children: [(name: String, isDirectory: Bool, isFile: Bool)] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            guard lstat(directory + "/" + name, &info) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            children.append((name, type == S_IFDIR, type != S_IFLNK && type != S_IFDIR))
        }
        for child in children.sorted(by: { $0.name < $1.name }) {
            let childDisplay = display == "." ? child.name : display + "/" + child.name
            if child.isDirectory {
                if !skippedDirectories.contains(child.name) {
                    walk(directory + "/" + child.name, display: childDisplay, into: &files)
                }
            } else if child.isFile, child.name.hasSuffix(".plist"), !child.name.contains(FileIO.tempMarker) {
                files.append(DiscoveredFile(path: childDisplay, explicit: false))
            }
        }
    }
}
