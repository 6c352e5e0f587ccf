#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// How often a run reads ATS settings and works out a policy delta: the two costs that grow
/// with the passes of a file, counted so a benchmark can see them stay down. Counted only when
/// the environment has `PLIST_MIGRATE_COUNTS` (the instruction gate sets it); otherwise each
/// place pays one test of a constant.
public enum WorkCounts {
    // `getenv`, not Foundation's `ProcessInfo`, whose environment dictionary costs a run more
    // than everything counted here.
    public static let enabled = getenv("PLIST_MIGRATE_COUNTS") != nil

    public enum Kind: Int, CaseIterable, Sendable {
        /// `ATSConfiguration.init(document:)`: the settings of a file read.
        case readings
        /// `PolicyDelta.Changes`: the decisions of two readings compared.
        case deltas
    }

    private static let counts = Counts()

    private final class Counts: @unchecked Sendable {
        let lock = NSLock()
        var values = [Int](repeating: 0, count: Kind.allCases.count)
    }

    static func add(_ kind: Kind) {
        guard enabled else { return }
        counts.lock.lock()
        counts.values[kind.rawValue] += 1
        counts.lock.unlock()
    }

    /// `readings 1,061, deltas 1,824`.
    public static func summary() -> String {
        counts.lock.lock()
        defer { counts.lock.unlock() }
        // Names spelled out: describing an enum case by reflection scans every conformance of the binary.
        return "readings \(counts.values[Kind.readings.rawValue]), deltas \(counts.values[Kind.deltas.rawValue])"
    }
}
