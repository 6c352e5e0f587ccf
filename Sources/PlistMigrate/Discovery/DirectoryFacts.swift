#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlistDOM
import Foundation
import FileAccess

/// What the look-ups that climb from a file towards its repository root need to know about a
/// directory: whether it holds `.git`, `.plist-migrate.json`, and which `*.xcodeproj`. Read
/// with one `readdir` per directory and cached; directories the walk already listed cost no
/// system call at all. Shared by the config, project and repository-root look-ups.
final class DirectoryFacts: @unchecked Sendable {
    struct Facts: Sendable {
        var hasGit = false
        var hasConfig = false
        var projects: [String] = []
        /// `project.yml` (XcodeGen) and `Project.swift` (Tuist), when present.
        var specs: [String] = []
    }

    // Only read and written under `lock`: the runtime's exclusivity check would add nothing.
    @exclusivity(unchecked) private var cache: [String: Facts] = [:]
    private let lock = NSLock()
    /// Without it (a run that reads no config), `hasConfig` is always `false`: the look-up for
    /// `.plist-migrate.json` is left out.
    private let looksForConfig: Bool

    init(looksForConfig: Bool = true) {
        self.looksForConfig = looksForConfig
    }

    /// Sizes the cache for `count` directories, unless it is larger (a walk has filled it).
    func expect(_ count: Int) {
        lock.withLock { cache.reserveCapacity(count) }
    }

    /// Facts of an absolute directory path (`""` is `/`).
    func facts(of directory: String) -> Facts {
        if let known = lock.withLock({ cache[directory] }) { return known }
        let facts = Self.read(directory.isEmpty ? "/" : directory, looksForConfig: looksForConfig)
        lock.withLock { cache[directory] = facts }
        return facts
    }

    /// Records what a walk saw in each directory (absolute), under one lock, so no look-up
    /// reads those directories again.
    func record(_ listed: [(directory: String, names: [String])]) {
        let facts = listed.map { Self.facts(from: $0.names, looksForConfig: looksForConfig) }
        lock.withLock {
            // Sized once: a monorepo's walk lists tens of thousands of directories.
            cache.reserveCapacity(cache.count + listed.count)
            for (index, entry) in listed.enumerated() { cache[entry.directory] = facts[index] }
        }
    }

    /// Whether an entry's name is one the facts record.
    static func isNotable(_ name: String) -> Bool {
        name == ".git" || name == Config.fileName || name.hasSuffix(".xcodeproj") || specNames.contains(name)
    }

    /// The parent of an absolute directory path; `nil` above `/`.
    static func parent(of directory: String) -> String? {
        guard !directory.isEmpty else { return nil }
        // Searched as bytes in place: `/` is ASCII, so the bytes before it are whole characters.
        var path = directory
        return path.withUTF8 { bytes in
            let slash = bytes.lastIndex(of: UInt8(ascii: "/")) ?? 0
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<slash]), as: UTF8.self)
        }
    }

    private static func read(_ directory: String, looksForConfig: Bool) -> Facts {
        // A directory whose link count is 2 has no subdirectory, so no `*.xcodeproj` and no
        // `.git` directory: a look-up or two answer the rest without listing it. (Some file
        // systems always report 1; those are listed.)
        // Named from the working directory when it lies inside it: the kernel then walks only
        // the steps below it, for this look-up and the three that may follow.
        var path = PathBytes.c(directory)
        path.removeLast()
        FileIO.trimWorkingDirectory(&path)
        path.append(0)
        var info = stat()
        if stat(path, &info) == 0, info.st_nlink == 2 {
            // The children's C paths: the directory's bytes (none for `/`), then `/name`.
            let base = path.count == 2 && path[0] == CChar(UInt8(ascii: "/")) ? 0 : path.count - 1
            path.reserveCapacity(base + configChild.count)
            func exists(_ child: [CChar]) -> Bool {
                path.replaceSubrange(base..., with: child)
                var entry = stat()
                return lstat(path, &entry) == 0
            }
            var facts = Facts(hasGit: exists(gitChild), hasConfig: looksForConfig && exists(configChild))
            for (name, child) in zip(specNames, specChildren) where exists(child) { facts.specs.append(name) }
            return facts
        }
        guard let handle = opendir(path) else { return Facts() }
        defer { closedir(handle) }
        var names: [String] = []
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(handle) {
            // Most names are not notable: only those are made into Strings.
            let start = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
            let bytes = UnsafeRawBufferPointer(start: start, count: strlen(start))
            guard bytes.elementsEqual(gitName) || bytes.elementsEqual(configName) || bytes.hasSuffix(bytes: projectSuffix)
                || specNameBytes.contains(where: { bytes.elementsEqual($0) })
            else { continue }
            names.append(PathBytes.name(of: entry))
        }
        return facts(from: names, looksForConfig: looksForConfig)
    }

    private static let gitName = Array(".git".utf8), configName = Array(Config.fileName.utf8)
    private static let gitChild = PathBytes.c("/.git"), configChild = PathBytes.c("/" + Config.fileName)
    private static let projectSuffix = Array(".xcodeproj".utf8)
    static let specNames = ["project.yml", "Project.swift"]
    private static let specNameBytes = specNames.map { Array($0.utf8) }
    private static let specChildren = specNames.map { PathBytes.c("/" + $0) }

    private static func facts(from names: [String], looksForConfig: Bool) -> Facts {
        var facts = Facts()
        // Most directories hold nothing notable.
        if names.isEmpty { return facts }
        for name in names {
            if name == ".git" { facts.hasGit = true }
            else if name == Config.fileName { facts.hasConfig = looksForConfig }
            else if name.hasSuffix(".xcodeproj") { facts.projects.append(name) }
            else if specNames.contains(name) { facts.specs.append(name) }
        }
        facts.projects.sort()
        return facts
    }
}
