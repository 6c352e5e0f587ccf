// Room: Discovery. Which files a run looks at: walking directories (or `git ls-files`), globs,
// shards, repository roots for diff paths, directory facts (configs, projects) gathered on the
// way. May call Support, Config (to find configs), Write (FileIO's reads). Never parses a plist.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import PlistDOM
import Project
import FileAccess

/// A file to process, and whether the user named it (errors) or a walk found it (skips; so are
/// named files under `--force-exclude`).
public struct DiscoveredFile: Sendable, Hashable {
    public var path: String
    public var explicit: Bool
    /// A symbolic link the walk found under a plist's name: not followed, only counted as skipped.
    public var isLink = false

    /// A spec file a walked XcodeGen spec includes: that spec (whose targets it adds to).
    public var includedBy: String?

    /// What the `stat` that found a path named on the command line said: the read that follows
    /// takes it as the file's fingerprint rather than asking again. Boxed: a walk's files have
    /// none, and each copy of one moves a pointer, not a fingerprint.
    public var stated: FileFingerprint? {
        get { statedBox?.fingerprint }
        set { statedBox = newValue.map(StatedBox.init) }
    }
    private var statedBox: StatedBox?

    private final class StatedBox: Sendable, Hashable {
        let fingerprint: FileFingerprint
        init(_ fingerprint: FileFingerprint) { self.fingerprint = fingerprint }
        static func == (a: StatedBox, b: StatedBox) -> Bool { a.fingerprint == b.fingerprint }
        func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }
    }

    public init(path: String, explicit: Bool, isLink: Bool = false) {
        self.path = path
        self.explicit = explicit
        self.isLink = isLink
    }
}

/// Turns command-line paths into a sorted list of plist files.
///
/// Inside a git work tree a directory is listed with `git ls-files -co --exclude-standard`, so
/// `.gitignore` is honoured; elsewhere (or when git is unavailable) it is walked. Either way
/// symlinks are not followed and build/dependency folders are skipped.
public struct FileDiscovery: Sendable {
    public static let skippedDirectories: Set<String> = [".git", ".build", "DerivedData", "Pods", "Carthage", "node_modules"]

    public var excludes: [Glob] = []
    public var includes: [Glob] = []
    public var useGit = true
    /// `--force-exclude` (the hooks' mode: pre-commit names every file it hands over): files
    /// named explicitly are held to `excludes` too, and are treated as the walk treats its files
    /// (one that is preprocessed, not XML or without the keys is skipped with the reason, not an
    /// error; a config's `exclude` applies).
    public var forceExclude = false
    /// Walks also find the generators' settings files (`project.yml`, `app.json`): a run
    /// migrates the ATS settings they keep (`GeneratedSettings`).
    public var readsSettingsFiles = false
    /// Told what each walked directory holds, for the look-ups that run later.
    var directories: DirectoryFacts?
    /// Threads that may list directories at once (a big tree's walk is mostly system calls).
    var jobs = 1
    /// What `stat` already said of some of the paths (the command line's check): not asked again.
    var stated: [String: FileFingerprint] = [:]

    public init(excludes: [Glob] = [], includes: [Glob] = [], useGit: Bool = true) {
        self.excludes = excludes
        self.includes = includes
        self.useGit = useGit
    }

    public func discover(_ paths: [String]) -> (files: [DiscoveredFile], errors: [(String, FileError)]) {
        let found = discoverAll(paths)
        return (found.files, found.errors)
    }

    /// Also returns the leftover temp files of an interrupted `--write` found on the way, and
    /// how many plists `--exclude`/`--include` left out (so runs can say so).
    public func discoverAll(_ paths: [String]) -> (files: [DiscoveredFile], errors: [(String, FileError)], temporaryFiles: [String], excluded: Int) {
        var files: [DiscoveredFile] = []
        var errors: [(String, FileError)] = []
        var temporaryFiles: [String] = []
        var excluded = 0
        for raw in paths {
            let path = Self.displayPath(raw)
            if raw == "-" {
                files.append(DiscoveredFile(path: "-", explicit: true))
                continue
            }
            guard let found = stated[raw] ?? FileIO.stated(raw) else {
                errors.append((path, FileError(FileIO.openFailureText(raw))))
                continue
            }
            if found.mode & S_IFMT == S_IFDIR, path.hasSuffix(".plist") {
                errors.append((path, FileError("is a directory, not a plist file")))
            } else if found.mode & S_IFMT == S_IFDIR {
                let join = { (relative: String) in path == "." ? relative : path + "/" + relative }
                // A listing names every file the repository has: only those a name could keep
                // are looked at on disk.
                let named = { (relative: String) in relative.hasSuffix(FileIO.tempMarker) || isWalkedName(relative) }
                let found = (useGit && Self.isInsideGitWorkTree(raw) ? Self.gitListing(raw, keeping: named) : nil)
                    ?? Self.walk(raw, recordingInto: directories, jobs: jobs)
                for relative in found where relative.hasSuffix(FileIO.tempMarker) { temporaryFiles.append(join(relative)) }
                for relative in found where isWalkedName(relative) {
                    if isSelected(relative) { files.append(DiscoveredFile(path: join(relative), explicit: false)) } else { excluded += 1 }
                }
                // Links come marked (`linkMark` after the name): skipped, but said.
                for marked in found where marked.utf8.last == Self.linkMark {
                    let relative = String(decoding: marked.utf8.dropLast(), as: UTF8.self)
                    guard isPlistName(relative) else { continue }
                    if isSelected(relative) { files.append(DiscoveredFile(path: join(relative), explicit: false, isLink: true)) } else { excluded += 1 }
                }
            } else if !(forceExclude && excludes.contains(where: { $0.matches(path) })) {
                var file = DiscoveredFile(path: path, explicit: !forceExclude)
                file.stated = found
                files.append(file)
            } else {
                excluded += 1
            }
        }
        let included = readsSettingsFiles && files.contains(where: { !$0.path.hasSuffix(".plist") }) ? Self.includedSpecs(of: files) : []
        files += included
        if paths.count > 1 || !included.isEmpty {
            var seen = Set<String>()
            files = files.filter { seen.insert($0.path).inserted }
        }
        return (Self.sortedByPath(files), errors, temporaryFiles, excluded)
    }

    /// The spec files each walked XcodeGen spec includes (`include:`), found as XcodeGen finds
    /// them: the settings they add to a target's Info.plist are the target's.
    static func includedSpecs(of files: [DiscoveredFile]) -> [DiscoveredFile] {
        var found: [DiscoveredFile] = []
        for spec in files where spec.path.hasSuffix(".yml") || spec.path.hasSuffix(".yaml") {
            var loader = SpecLoader(rootDirectory: PathText.directory(of: FileIO.absolute(spec.path)), display: ReportPaths.current.name)
            guard (try? loader.load(FileIO.absolute(spec.path))) != nil else { continue }
            let base = FileIO.absolute(".") + "/"
            for path in loader.files.dropFirst() where path.hasSuffix(".yml") || path.hasSuffix(".yaml") {
                let absolute = FileIO.absolute(path)
                var file = DiscoveredFile(path: absolute.hasPrefix(base) ? String(absolute.dropFirst(base.count)) : absolute, explicit: false)
                file.includedBy = spec.path
                found.append(file)
            }
        }
        return found
    }

    /// The end of a summary line (`migrate` and `lint` alike) for the plists a run left out:
    /// `; 3 excluded (2 by --exclude/--include, 1 by config)`, or nothing when none were.
    static func excludedClause(byOption: Int, byConfig: Int) -> String {
        let ways = [(byOption, "--exclude/--include"), (byConfig, "config")].filter { $0.0 > 0 }
        guard !ways.isEmpty else { return "" }
        if ways.count == 1 { return "; \(ways[0].0) excluded by \(ways[0].1)" }
        return "; \(byOption + byConfig) excluded (" + ways.map { "\($0.0) by \($0.1)" }.joined(separator: ", ") + ")"
    }

    /// Files in `String` order of their paths; two ASCII paths (nearly all) are compared as
    /// bytes, which is the same order without the Unicode machinery.
    static func sortedByPath(_ files: [DiscoveredFile]) -> [DiscoveredFile] {
        guard files.allSatisfy({ $0.path.utf8.isASCII }) else { return files.sorted { $0.path < $1.path } }
        // All ASCII (nearly always): the paths go into one buffer and their positions are
        // sorted, each comparison a `memcmp` with no reference counting.
        var bytes: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        spans.reserveCapacity(files.count)
        for file in files {
            spans.append((bytes.count, file.path.utf8.count))
            bytes.append(contentsOf: file.path.utf8)
        }
        let order = bytes.withUnsafeBufferPointer { buffer in
            spans.withUnsafeBufferPointer { spans in
                Array(spans.indices).sorted { a, b in
                    let left = spans[a], right = spans[b]
                    let common = min(left.count, right.count)
                    let order = common == 0 ? 0 : memcmp(buffer.baseAddress! + left.start, buffer.baseAddress! + right.start, common)
                    return order != 0 ? order < 0 : left.count < right.count
                }
            }
        }
        return order.map { files[$0] }
    }

    /// Whether a walked file (path relative to the walked directory) should be processed.
    func isWanted(_ relative: String) -> Bool {
        isPlistName(relative) && isSelected(relative)
    }

    /// Whether `--exclude` and `--include` keep a walked plist.
    func isSelected(_ relative: String) -> Bool {
        if excludes.contains(where: { $0.matches(relative) }) { return false }
        return includes.isEmpty || includes.contains { $0.matches(relative) }
    }

    /// A plist, or (when read) a generator's settings file, by its name, outside the skipped directories.
    func isWalkedName(_ relative: String) -> Bool {
        if isPlistName(relative) { return true }
        // Most names end otherwise: a suffix test first, before any splitting.
        guard readsSettingsFiles, relative.hasSuffix(".yml") || relative.hasSuffix(".yaml") || relative.hasSuffix(".json")
            || relative.hasSuffix(".swift") || relative.hasSuffix(".js") || relative.hasSuffix(".ts"),
            GeneratedSettings.isSettingsFile(relative) || CodeSources.isCodeSource(relative)
        else { return false }
        return !relative.split(separator: "/").dropLast().contains { Self.skippedDirectories.contains(String($0)) }
    }

    /// Whether a walked file is a plist by its name, outside the skipped directories.
    func isPlistName(_ relative: String) -> Bool {
        var path = relative
        let named = path.withUTF8 { bytes -> Bool in
            // An ASCII path's suffix is its last bytes; otherwise characters decide (a prepending
            // character can hold the dot).
            let hasSuffix = bytes.isASCII ? bytes.hasSuffix(bytes: Self.plistSuffix) : relative.hasSuffix(".plist")
            guard bytes.count > 6, hasSuffix, bytes.firstOffset(of: Self.tempMarkerBytes) == nil else { return false }
            // Each directory component, compared as bytes (this runs for every file of a monorepo).
            var componentStart = 0
            for index in 0..<bytes.count where bytes[index] == UInt8(ascii: "/") {
                let component = UnsafeBufferPointer(rebasing: bytes[componentStart..<index])
                if Self.skippedDirectoryBytes.contains(where: { $0.elementsEqual(component) }) { return false }
                componentStart = index + 1
            }
            return true
        }
        return named
    }

    private static let skippedDirectoryBytes = skippedDirectories.map { Array($0.utf8) }
    private static let tempMarkerBytes = Array(FileIO.tempMarker.utf8)
    private static let plistSuffix = Array(".plist".utf8)

    /// `./a/b` → `a/b`, `dir/` → `dir`: the form used in reports and diff headers.
    public static func displayPath(_ raw: String) -> String {
        var path = raw
        while path.hasPrefix("./") { path.removeFirst(2) }
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path.isEmpty ? "." : path
    }

    /// Whether `directory` or a parent holds `.git`: only then is git asked for the listing.
    static func isInsideGitWorkTree(_ directory: String) -> Bool {
        var path = FileIO.absolute(directory)
        while true {
            var info = stat()
            if lstat(PathBytes.c(path + "/.git"), &info) == 0 { return true }
            guard let slash = path.lastIndex(of: "/"), path != "/" else { return false }
            path = slash == path.startIndex ? "/" : String(path[..<slash])
        }
    }

    /// What a walk or listing puts after the name of a symbolic link named like a plist (a NUL
    /// byte, which no name holds): such links are not followed, but the run counts them.
    static let linkMark: UInt8 = 0

    /// Regular files below `directory` (relative paths) that `keeping` keeps, via git; `nil`
    /// outside a work tree. Only the kept ones are looked at on disk (links and directories,
    /// such as submodules, are left out).
    static func gitListing(_ directory: String, keeping: (String) -> Bool) -> [String]? {
        guard let output = Subprocess.run(
            "git", ["-C", directory, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "."])
        else { return nil }
        var seen = Set<String>()
        return output.split(separator: 0).compactMap { raw in
            let relative = PathBytes.string(raw)
            var info = stat()
            guard keeping(relative), seen.insert(relative).inserted, lstat(PathBytes.c(directory + "/" + relative), &info) == 0,
                info.st_mode & S_IFMT != S_IFDIR
            else { return nil }
            return info.st_mode & S_IFMT == S_IFLNK ? relative + "\0" : relative
        }
    }

    /// Every non-symlink, non-directory entry below `directory`, relative, skipping the
    /// skipped directories (and each symbolic link named `*.plist`, with `linkMark` after it). Directories are opened relative to their parent's descriptor, so
    /// the kernel never resolves a full path again. With `jobs` above 1 the walk runs on that
    /// many threads, each directory a task any of them takes, and the files come out in no
    /// particular order (callers sort them).
    static func walk(_ directory: String, recordingInto facts: DirectoryFacts? = nil, jobs: Int = 1) -> [String] {
        let fd = open(PathBytes.c(directory), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0, let root = OpenDirectory(descriptor: fd) else { return [] }
        var recording: (DirectoryFacts, String)?
        if let facts {
            let absolute = FileIO.absolute(directory)
            recording = (facts, absolute == "/" ? "" : absolute)
        }
        if jobs > 1 { return SharedWalk(recording: recording).run(from: root, jobs: jobs) }
        var found: [String] = []
        var listed = ListedDirectories(recording)
        walk(root, prefix: "", into: &found, listed: &listed)
        listed.record()
        return found
    }

    private static func walk(_ directory: OpenDirectory, prefix: String, into found: inout [String], listed: inout ListedDirectories) {
        for name in list(directory, prefix: prefix, into: &found, listed: &listed) {
            if let child = OpenDirectory(named: name, in: directory) {
                walk(child, prefix: prefix + name + "/", into: &found, listed: &listed)
            }
        }
    }

    /// Lists one directory: its files go to `found` (after `prefix`, the directory's relative
    /// path and a `/`) and what it holds (`.git`, a config, projects) to `listed`. Returns the
    /// subdirectories to walk.
    fileprivate static func list(
        _ directory: OpenDirectory, prefix: String, into found: inout [String], listed: inout ListedDirectories
    ) -> [String] {
        var directories: [String] = []
        var notable: [String] = []
        directory.forEachEntry { bytes, type in
            // `.` and `..`, in every listing, are left out before a String is made of them; a
            // name is told notable by its bytes.
            if bytes.first == UInt8(ascii: "."), bytes.count == 1 || (bytes.count == 2 && bytes[1] == UInt8(ascii: ".")) { return }
            let name = PathBytes.string(bytes)
            if listed.records, DirectoryFacts.isNotable(bytes: bytes) { notable.append(name) }
            switch type {
            case Int32(DT_DIR): directories.append(name)
            case Int32(DT_LNK):
                if name.hasSuffix(".plist") { found.append(prefix + name + "\0") }
            case Int32(DT_UNKNOWN):
                var info = stat()
                guard fstatat(directory.descriptor, PathBytes.c(name), &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
                guard info.st_mode & S_IFMT != S_IFLNK else {
                    if name.hasSuffix(".plist") { found.append(prefix + name + "\0") }
                    return
                }
                if info.st_mode & S_IFMT == S_IFDIR { directories.append(name) } else { found.append(prefix + name) }
            default: found.append(prefix + name)
            }
        }
        listed.add(prefix: prefix, names: notable)
        return directories.filter { !skippedDirectories.contains($0) }
    }
}

/// What a walk saw in the directories it listed, told to the directory facts in one go once
/// the walk is over (nothing looks them up before), so walking threads do not meet on the
/// facts' lock for every directory; then no look-up reads those directories again.
private struct ListedDirectories {
    private let recording: (facts: DirectoryFacts, base: String)?
    private var seen: [(directory: String, names: [String])] = []

    init(_ recording: (DirectoryFacts, String)?) {
        self.recording = recording
    }

    var records: Bool { recording != nil }

    /// The directory at `prefix` (its relative path and a `/`, or empty for the walk's root) holds `names`.
    mutating func add(prefix: String, names: [String]) {
        guard let base = recording?.base else { return }
        guard !prefix.isEmpty else { return seen.append((base, names)) }
        // `base/prefix` without the `/` that ends `prefix`.
        seen.append((PathBytes.joined(base, prefix, dropping: 1), names))
    }

    mutating func record() {
        recording?.facts.record(seen)
        seen = []
    }
}

/// A directory being walked, kept open while any of its subdirectories waits to be opened
/// relative to it; closed when the last reference goes.
///
/// Read with `DirectoryEntries`: on Linux `openat`, `getdents64` until it returns 0, and
/// `close` (20,038 directories for 10,000 files in a monorepo).
private final class OpenDirectory: @unchecked Sendable {
    let descriptor: Int32

    /// Takes ownership of `descriptor`.
    init?(descriptor: Int32) {
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    /// The subdirectory `name` of `parent`; `nil` if it cannot be opened or is (now) a link.
    convenience init?(named name: String, in parent: OpenDirectory) {
        self.init(descriptor: openat(parent.descriptor, PathBytes.c(name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC))
    }

    deinit { close(descriptor) }

    /// Calls `body` with each entry's name (its bytes) and type (`DT_DIR`, `DT_REG`, `DT_LNK`,
    /// `DT_UNKNOWN`…).
    func forEachEntry(_ body: (UnsafeRawBufferPointer, Int32) -> Void) {
        DirectoryEntries.forEach(in: descriptor, body)
    }
}

/// A walk on several threads: every directory still to list is a task that any thread takes,
/// so all of them stay busy whatever the tree's shape (nearly all of it under one
/// subdirectory included). Tasks are taken last in, first out, so only the directories along
/// the threads' current paths stay open.
private final class SharedWalk: @unchecked Sendable {
    private struct Task {
        var parent: OpenDirectory
        var name: String
        /// The directory's relative path and a `/`.
        var prefix: String
    }

    private let recording: (DirectoryFacts, String)?
    private let monitor = Monitor()
    // Under `monitor`.
    @exclusivity(unchecked) private var tasks: [Task] = []
    /// Threads listing a directory now (they may add tasks).
    @exclusivity(unchecked) private var busy = 0
    @exclusivity(unchecked) private var found: [String] = []

    init(recording: (DirectoryFacts, String)?) {
        self.recording = recording
    }

    func run(from root: OpenDirectory, jobs: Int) -> [String] {
        var rootFiles: [String] = []
        var listed = ListedDirectories(recording)
        // Reversed, so that the first is taken first.
        tasks = FileDiscovery.list(root, prefix: "", into: &rootFiles, listed: &listed).reversed().map {
            Task(parent: root, name: $0, prefix: $0 + "/")
        }
        listed.record()
        let group = DispatchGroup()
        for _ in 1..<jobs {
            DispatchQueue.global().async(group: group) { self.work() }
        }
        work()
        group.wait()
        return rootFiles + found
    }

    private func work() {
        var files: [String] = []
        var listed = ListedDirectories(recording)
        var added: [Task] = []
        var listing = false
        while let task = next(adding: &added, afterListing: listing) {
            listing = true
            guard let directory = OpenDirectory(named: task.name, in: task.parent) else { continue }
            for name in FileDiscovery.list(directory, prefix: task.prefix, into: &files, listed: &listed).reversed() {
                added.append(Task(parent: directory, name: name, prefix: task.prefix + name + "/"))
            }
        }
        listed.record()
        monitor.withLock { found += files }
    }

    /// Adds the tasks the last listing found, then takes the next task; waits while there is
    /// none but another thread may still add some; `nil` once every directory is listed.
    private func next(adding added: inout [Task], afterListing listing: Bool) -> Task? {
        monitor.lock()
        defer { monitor.unlock() }
        if listing { busy -= 1 }
        if !added.isEmpty {
            tasks += added
            added.removeAll(keepingCapacity: true)
            monitor.broadcast()
        }
        while tasks.isEmpty {
            if busy == 0 {
                monitor.broadcast()
                return nil
            }
            monitor.wait()
        }
        busy += 1
        return tasks.removeLast()
    }
}

/// Keeps the files of shard `index` (1-based) of `count`, by a hash of the path that is the
/// same on every machine (FNV-1a, 64-bit), so a CI matrix can split a monorepo.
public struct Shard: Sendable, Equatable {
    public var index: Int
    public var count: Int

    /// Parses `I/N`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
            count >= 1, (1...count).contains(index)
        else { return nil }
        self.index = index
        self.count = count
    }

    public func contains(_ path: String) -> Bool {
        Int(FNV1a.hash(path.utf8) % UInt64(count)) == index - 1
    }
}
