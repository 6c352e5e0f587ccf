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
/// with one listing (`DirectoryEntries`) per directory and cached; directories the walk
/// already listed cost no system call at all. Shared by the config, project and
/// repository-root look-ups.
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

    /// Whether an entry's name is one the facts record (`.git`, the config, a `.xcodeproj`, a
    /// spec), told by its bytes as a listing gives them, before any String is made of it.
    static func isNotable(bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.elementsEqual(gitName) || bytes.elementsEqual(configName) || bytes.hasSuffix(bytes: projectSuffix)
            || specNameBytes.contains(where: { bytes.elementsEqual($0) })
    }

    /// The absolute directory a file's path lies in (`""` for `/`).
    static func directory(ofFile path: String) -> String {
        parent(of: FileIO.absolute(path)) ?? ""
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

    /// Lists the directory (on Linux `openat`, `getdents64` until it returns 0, `close`: four
    /// system calls, where a `stat` for the link count and a look-up of each notable name took
    /// five in a folder without subfolders and six in any other).
    private static func read(_ directory: String, looksForConfig: Bool) -> Facts {
        // Named from the working directory when it lies inside it: the kernel then walks only
        // the steps below it.
        var path = PathBytes.c(directory)
        path.removeLast()
        FileIO.trimWorkingDirectory(&path)
        path.append(0)
        var names: [String] = []
        DirectoryEntries.forEach(at: path) { bytes, _ in
            // Most names are not notable: only those are made into Strings.
            guard isNotable(bytes: bytes) else { return }
            names.append(PathBytes.string(bytes))
        }
        return facts(from: names, looksForConfig: looksForConfig)
    }

    private static let gitName = Array(".git".utf8), configName = Array(Config.fileName.utf8)
    private static let projectSuffix = Array(".xcodeproj".utf8)
    static let specNames = ["project.yml", "Project.swift"]
    private static let specNameBytes = specNames.map { Array($0.utf8) }

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
