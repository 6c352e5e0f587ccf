import Foundation

/// What a reviewer decided on the review page, exported as JSON and read by `--accept FILE`:
/// `{ "schemaVersion": 1, "toolVersion": "0.2.0", "accepted": ["ATS001-1f2e3d4c5b6a"], "rejected": [] }`.
/// Group ids are `EditGroup.id`s; a group in neither list is not applied.
public struct ReviewDecision: Codable, Equatable, Sendable {
    public var schemaVersion = 1
    /// The tool that made the page: another version may group or edit differently, so its
    /// decision is refused rather than half-applied.
    public var toolVersion: String
    public var accepted: [String]
    public var rejected: [String]
    /// Marked by the review page: accepted kinds whose prerequisites (kinds they follow in some
    /// files) were left undecided, each with those. `--accept` warns of them.
    public var undecidedPrerequisites: [String: [String]]?
    /// Every kind the review page showed, decided or not. With it a run tells a kind of another
    /// repository (reviewed, not met here: fine) from an edit nobody reviewed (a file changed
    /// since the review: an error of that file).
    public var reviewed: [String]?

    enum CodingKeys: String, CodingKey, CaseIterable { case schemaVersion, toolVersion, accepted, rejected, undecidedPrerequisites, reviewed }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        toolVersion = try container.decode(String.self, forKey: .toolVersion)
        accepted = try container.decode([String].self, forKey: .accepted)
        rejected = try container.decodeIfPresent([String].self, forKey: .rejected) ?? []
        undecidedPrerequisites = try container.decodeIfPresent([String: [String]].self, forKey: .undecidedPrerequisites)
        reviewed = try container.decodeIfPresent([String].self, forKey: .reviewed)
    }

    public init(toolVersion: String = ToolVersion.current, accepted: [String], rejected: [String] = []) {
        self.toolVersion = toolVersion
        self.accepted = accepted
        self.rejected = rejected
    }

    /// The decision at `path`; every problem is one plain line.
    public static func load(_ path: String) throws(FileError) -> ReviewDecision {
        let bytes = try FileIO.load(path).bytes
        let decision: ReviewDecision
        do {
            decision = try JSONDecoder().decode(ReviewDecision.self, from: Data(bytes))
        } catch {
            throw FileError("not a review decision (expected {\"schemaVersion\": 1, \"toolVersion\": …, \"accepted\": [group ids], \"rejected\": […]})")
        }
        // The schema's additionalProperties: false, so a misspelt "rejectd" is not silently ignored.
        if let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] {
            let known = Set(CodingKeys.allCases.map(\.rawValue))
            if let extra = object.keys.filter({ !known.contains($0) }).sorted().first {
                let names = CodingKeys.allCases.map(\.rawValue)
                throw FileError("review decision has a field \"\(OneLine.escaped(extra))\" that is not "
                    + names.dropLast().joined(separator: ", ") + " or " + names.last!)
            }
        }
        if let bad = (decision.accepted + decision.rejected + (decision.reviewed ?? [])).first(where: { !isGroupID($0) }) {
            throw FileError("\"\(OneLine.escaped(bad))\" is not a kind of change id (a pass id, \"-\" and 12 hex digits, as the review page writes them)")
        }
        guard decision.schemaVersion == 1 else { throw FileError("review decision schemaVersion \(decision.schemaVersion) is not 1") }
        guard decision.toolVersion == ToolVersion.current else {
            throw FileError("made with plist-migrate \(decision.toolVersion), this is \(ToolVersion.current): review the changes again with this version")
        }
        if let both = Set(decision.accepted).intersection(decision.rejected).sorted().first {
            throw FileError("\(both) is both accepted and rejected")
        }
        if let reviewed = decision.reviewed.map(Set.init),
            let unseen = (decision.accepted + decision.rejected).first(where: { !reviewed.contains($0) })
        {
            throw FileError("\(unseen) is decided, but it is no kind the review showed (not in \"reviewed\"): nobody reviewed it")
        }
        return decision
    }

    /// `ATS001-878d34d2c8c1`: the schema's `^[^\s]+-[0-9a-f]{12}$`.
    static func isGroupID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard bytes.count > 13, bytes[bytes.count - 13] == UInt8(ascii: "-") else { return false }
        let hex = bytes.suffix(12).allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        let head = id.unicodeScalars.dropLast(13)
        return hex && !head.isEmpty && !head.contains { $0.properties.isWhitespace }
    }
}
