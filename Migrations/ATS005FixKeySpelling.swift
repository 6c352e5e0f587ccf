import PlistDOM

/// Corrects misspelled or miscased ATS keys (`NSExceptionAllowInsecureHTTPLoads`,
/// `NSIncludesSubdomain`, `NSAllowsAritraryLoads`, …) when exactly one documented key is close
/// and that key is not already in the dict. The system reads keys by exact name, so a
/// misspelled key is silently ignored.
public struct FixKeySpelling: Migration {
    public let id = "ATS005"
    public let version = 5
    public let name = "fix-key-spelling"
    public let title = "Correct misspelled or miscased ATS keys"
    public let rationale = """
        Apple's NSAppTransportSecurity reference lists each key by its exact name; a key spelled \
        or cased differently is not read, so the exception it was meant to express never applies.
        """
    public let impact = Impact.activatesIntent

    public init() {}

    public func apply(to session: MigrationSession) {
        for level in ATSKeyCatalog.Level.allCases {
            for dict in session.dicts(at: level) {
                for entry in dict.entries {
                    let candidates = ATSKeyCatalog.candidates(for: entry.name, at: level)
                    guard candidates.count == 1, let correct = candidates.first else { continue }
                    // Any spelling of the same setting counts as present, so that the later
                    // renames of deprecated aliases cannot change this decision on a second run.
                    if let present = ATSKeyCatalog.family(of: correct).lazy.compactMap({ dict.entry($0) }).first {
                        session.conflict(at: entry.key,
                            "conflict: \(entry.name) looks like a misspelling of \(correct), but \(present.name) is already present "
                            + "(line \(present.key.location?.line ?? 0)); both left as they are")
                    } else {
                        session.rename(entry, to: correct)
                    }
                }
            }
        }
    }
}
