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

    enum CodingKeys: String, CodingKey { case schemaVersion, toolVersion, accepted, rejected }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        toolVersion = try container.decode(String.self, forKey: .toolVersion)
        accepted = try container.decode([String].self, forKey: .accepted)
        rejected = try container.decodeIfPresent([String].self, forKey: .rejected) ?? []
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
        guard decision.schemaVersion == 1 else { throw FileError("review decision schemaVersion \(decision.schemaVersion) is not 1") }
        guard decision.toolVersion == ToolVersion.current else {
            throw FileError("made with plist-migrate \(decision.toolVersion), this is \(ToolVersion.current): review the changes again with this version")
        }
        if let both = Set(decision.accepted).intersection(decision.rejected).sorted().first {
            throw FileError("\(both) is both accepted and rejected")
        }
        return decision
    }
}
