import Migrations
import PlistDOM

/// Runs a plan's passes over one file's bytes, in order, on one tree, and keeps a snapshot
/// after each pass so each pass gets its own diff.
///
/// Before anything may be written, the output is re-parsed and checked independently of the
/// edit code: every value outside the root `NSAppTransportSecurity` entry must be equal to the
/// input's, and every byte outside that entry must be identical.
public struct FileMigrator: Sendable {
    public let plan: MigrationPlan

    public init(plan: MigrationPlan) {
        self.plan = plan
    }

    /// - Parameter skipIfNotApplicable: for files found by walking: a file that is not an XML
    ///   plist, or has no root ATS dict, is `skipped` rather than an error/unchanged.
    public func migrate(_ bytes: [UInt8], path: String, skipIfNotApplicable: Bool) -> FileResult {
        var result = FileResult(path: path, status: .unchanged)
        result.original = bytes
        result.output = bytes
        let document: PlistDocument
        do {
            document = try PlistDocument(parsing: bytes)
        } catch {
            if skipIfNotApplicable && error.kind == .notAPropertyList {
                result.status = .skipped
                result.skipReason = "not an XML property list"
            } else {
                result.status = .error
                result.error = FileError(error.message, at: error.location)
            }
            return result
        }
        guard hasAppTransportSecurity(document) else {
            if skipIfNotApplicable {
                result.status = .skipped
                result.skipReason = "no NSAppTransportSecurity"
            }
            return result
        }

        var current = bytes
        for migration in plan.selected {
            let session = MigrationSession(document: document, migration: migration)
            migration.apply(to: session)
            result.diagnostics += session.diagnostics
            let next = document.bytes
            guard next != current else { continue }
            if let diff = UnifiedDiff.make(from: current, to: next, path: path) {
                result.passes.append(PassResult(
                    id: migration.id, version: migration.version, name: migration.name,
                    impact: migration.impact, editCount: session.editCount, diff: diff))
            }
            current = next
        }
        result.output = current
        if current != bytes {
            if let failure = Self.verify(original: bytes, output: current) {
                result.status = .error
                result.error = FileError("internal error (a bug in plist-migrate, please report it): \(failure); file left untouched")
                result.output = bytes
                result.passes = []
                return result
            }
            result.status = .changed
        }
        result.heldBack = heldBackThatWouldChange(current)
        return result
    }

    private func hasAppTransportSecurity(_ document: PlistDocument) -> Bool {
        document.rootValue.name == "dict" && document.rootValue[key: ATSKey.appTransportSecurity] != nil
    }

    private func heldBackThatWouldChange(_ bytes: [UInt8]) -> [String] {
        plan.heldBack.compactMap { migration in
            guard let document = try? PlistDocument(parsing: bytes) else { return nil }
            migration.apply(to: MigrationSession(document: document, migration: migration))
            return document.bytes != bytes ? migration.id : nil
        }
    }

    /// Why `output` is not a safe rewrite of `original`, or `nil` when it is.
    static func verify(original: [UInt8], output: [UInt8]) -> String? {
        let before: PlistDocument
        let after: PlistDocument
        do {
            before = try PlistDocument(parsing: original)
            after = try PlistDocument(parsing: output)
        } catch {
            return "the rewritten file does not parse (\(error))"
        }
        guard case .dict(var oldRoot) = before.value, case .dict(var newRoot) = after.value else {
            return "the root value changed kind"
        }
        oldRoot[ATSKey.appTransportSecurity] = nil
        newRoot[ATSKey.appTransportSecurity] = nil
        guard oldRoot == newRoot else { return "a value outside NSAppTransportSecurity changed" }
        guard let oldRange = atsEntryRange(in: before), let newRange = atsEntryRange(in: after),
            original[..<oldRange.lowerBound] == output[..<newRange.lowerBound],
            original[oldRange.upperBound...] == output[newRange.upperBound...]
        else { return "bytes outside NSAppTransportSecurity changed" }
        return nil
    }

    /// Byte range of the root ATS entry's value, located by printing the document up to it.
    private static func atsEntryRange(in document: PlistDocument) -> Range<Int>? {
        guard let value = document.rootValue[key: ATSKey.appTransportSecurity] else { return nil }
        return document.byteRange(of: value)
    }
}
