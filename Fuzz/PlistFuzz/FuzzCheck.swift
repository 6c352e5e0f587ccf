#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlistMigrate

/// What one fuzz input is checked for. `PLIST_FUZZ_TARGET=write` picks the write path (temp
/// file, check, rename on a real file), `recipe` the recipe reader and engine, `edit` the
/// `edit` command parser and editor, `project` the project readers (pbxproj, xcconfig,
/// project.yml), `report` the report merger and review decisions, `output` the report's
/// `--output` path and closed streams; anything else, parse → migrate → a second run.
enum FuzzCheck {
    static let target = getenv("PLIST_FUZZ_TARGET").map { String(cString: $0) } ?? "migrate"

    /// One private directory per process for the targets that need files, inside
    /// `PLIST_FUZZ_SCRATCH` (Fuzz/run.sh gives each target's own and removes it at the end) or
    /// the system's temporary folder; removed when the process exits normally.
    static let directory: String = {
        let base = getenv("PLIST_FUZZ_SCRATCH").map { String(cString: $0) } ?? "/tmp"
        var template = Array((base + "/plist-fuzz-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
        guard let made else { preconditionFailure("cannot make a scratch folder in \(base)") }
        atexit { Invariants.removeTree(FuzzCheck.directory) }
        // A closed pipe is an error code for the output target, as in the tool's own main.
        signal(SIGPIPE, SIG_IGN)
        return made
    }()

    static func run(_ data: [UInt8]) {
        if let violation = violation(in: data) { preconditionFailure(violation) }
    }

    static func violation(in data: [UInt8]) -> String? {
        switch target {
        case "write": return Invariants.writeViolation(in: data, directory: directory)
        case "recipe": return Invariants.recipeViolation(in: data)
        case "edit": return Invariants.editViolation(in: data)
        case "project": return Invariants.projectViolation(in: data, directory: directory)
        case "report": return Invariants.reportViolation(in: data, directory: directory)
        case "output":
            _ = directory  // makes the folder and ignores SIGPIPE before any write
            return Invariants.outputViolation(in: data, directory: directory) ?? Invariants.closedStreamViolation(data)
        default: return Invariants.violation(in: data)
        }
    }
}
