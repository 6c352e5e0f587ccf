#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Project

extension Invariants {
    /// The project readers on input anyone can write. The first byte chooses the
    /// reader — `project.pbxproj` (0), an `.xcconfig` that a project uses (1), XcodeGen's
    /// `project.yml` (2) — and the rest is the file, stored in `directory`. Each read must end
    /// (libFuzzer's timeout and memory limit catch the rest), and what it says it could not
    /// read must stay bounded: a note of more than 64 KiB is a violation.
    public static func projectViolation(in data: [UInt8], directory: String) -> String? {
        guard let kind = data.first else { return nil }
        let body = Array(data.dropFirst())
        let display = { (path: String) in path.hasPrefix(directory + "/") ? String(path.dropFirst(directory.count + 1)) : path }
        var targets: [ProjectTarget] = []
        var problems: [String] = []
        switch kind % 3 {
        case 0:
            let project = directory + "/App.xcodeproj"
            mkdir(project, 0o755)
            guard store(body, at: project + "/project.pbxproj") else { return nil }
            do { targets = try XcodeProjectReader.targets(pbxproj: project + "/project.pbxproj", display: display) } catch { problems.append(error.message) }
        case 1:
            guard store(body, at: directory + "/a.xcconfig") else { return nil }
            let level = XCConfig.read(directory + "/a.xcconfig", display: display, problems: &problems)
            for name in level.values.keys.prefix(64) {
                let settings = BuildSettings(levels: [level], builtIns: ["SRCROOT": directory])
                problems += settings.value(name)?.unresolved ?? []
            }
        default:
            guard store(body, at: directory + "/project.yml") else { return nil }
            do { targets = try XcodeGenReader.targets(projectYML: directory + "/project.yml", display: display) } catch { problems.append(error.message) }
        }
        let said = targets.flatMap(\.unresolved) + problems
        let size = said.reduce(0) { $0 + $1.utf8.count }
        if size > 64 * 1024 { return "the readers said \(size) bytes about one file: unbounded notes" }
        return nil
    }
}

extension Invariants {
    /// `plist-migrate report` and `--accept` on bytes anyone can write: the input
    /// is read as a JSON report (merged with itself and rendered in every format) and as a review
    /// decision. Each must end with a result or an error, never a crash.
    public static func reportViolation(in data: [UInt8], directory: String) -> String? {
        let path = directory + "/report.json"
        guard store(data, at: path) else { return nil }
        defer { unlink(path) }
        if let document = try? ReportMerge.read(path) {
            for inputs in [[("a", document)], [("a", document), ("b", document)]] {
                if let merged = try? ReportMerge.merge(inputs) {
                    for format in ReportMerge.Format.allCases { _ = ReportMerge.render(merged, format: format) }
                }
            }
        }
        _ = try? ReviewDecision.load(path)
        return nil
    }
}
