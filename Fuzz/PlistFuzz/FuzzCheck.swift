#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlistMigrate

/// What one fuzz input is checked for. `PLIST_FUZZ_TARGET=write` picks the write path (temp
/// file, check, rename on a real file), `recipe` the recipe reader and engine, `edit` the
/// `edit` command parser and editor, `project` the project readers (pbxproj, xcconfig,
/// project.yml); anything else, parse → migrate → a second run.
enum FuzzCheck {
    static let target = getenv("PLIST_FUZZ_TARGET").map { String(cString: $0) } ?? "migrate"

    /// One private directory per process for the write target.
    static let directory: String = {
        var template = Array("/tmp/plist-fuzz-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }()

    static func run(_ data: [UInt8]) {
        let violation = switch target {
        case "write": Invariants.writeViolation(in: data, directory: directory)
        case "recipe": Invariants.recipeViolation(in: data)
        case "edit": Invariants.editViolation(in: data)
        case "project": Invariants.projectViolation(in: data, directory: directory)
        case "report": Invariants.reportViolation(in: data, directory: directory)
        default: Invariants.violation(in: data)
        }
        if let violation { preconditionFailure(violation) }
    }
}
