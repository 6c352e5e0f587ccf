import PlistDOM

/// Corrects misspelled or miscased ATS keys (`NSExceptionAllowInsecureHTTPLoads`,
/// `NSIncludesSubdomain`, `NSAllowsAritraryLoads`, …) to the documented key, when the close
/// candidates all spell one setting (a deprecated alias counts as its documented key). When the
/// setting is already present, an equal value makes the misspelled entry redundant: it is
/// removed, and a note under the pass's header says so. A different value is a conflict. The system reads keys by exact name, so a misspelled key is
/// silently ignored.
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
    public let intent = PolicyIntent.editedSettingsTakeEffect

    public init() {}

    /// Every key is a documented key of its level, spelled exactly.
    public func isInert(on outline: ATSOutline) -> Bool {
        outline.domainsAreDocumented
    }

    public func apply(to session: MigrationSession) {
        for level in ATSKeyCatalog.Level.allCases {
            for dict in session.dicts(at: level) {
                for entry in dict.entries {
                    guard !ATSKeyCatalog.isKnown(entry.key, at: level),
                        let correct = ATSKeyCatalog.correction(for: entry.name, at: level)
                    else { continue }
                    // Any spelling of the same setting counts as present: an equal one makes the
                    // misspelled entry redundant, a different one is a conflict.
                    guard let present = ATSKeyCatalog.family(of: correct).lazy.compactMap({ dict.entry($0) }).first else {
                        session.rename(entry, to: correct)
                        continue
                    }
                    if PlistValue(present.value) == PlistValue(entry.value) {
                        session.removeRedundant(entry, twinOf: present, from: dict)
                    } else {
                        session.conflict(at: entry.key,
                            "conflict: \(entry.name) looks like a misspelling of \(correct), but \(present.name) is already present "
                            + "with another value (line \(present.key.location?.line ?? 0)); both left as they are")
                    }
                }
            }
        }
    }
}
