import Foundation
import Migrations
@testable import PlistMigrate
import Testing

/// A pass titled as a rename or correction that deletes a key (its renamed name is already
/// present with the same value) says so under its header: the reader of a diff of `-` lines
/// only would otherwise take the deletion for a mistake.
@Suite struct RedundantTwinNotesTests {
    /// For each pass that renames keys: an ATS dict in which the rename meets an equal twin, the
    /// entry removed and the twin it duplicates.
    static let twins: [(pass: String, ats: String, removed: String, twin: String)] = [
        ("ATS001", domain("<key>NSExceptionAllowsInsecureHTTPLoads</key><true/><key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key><true/>"),
         "NSThirdPartyExceptionAllowsInsecureHTTPLoads", "NSExceptionAllowsInsecureHTTPLoads"),
        ("ATS002", "<key>NSAllowsArbitraryLoadsForMedia</key><true/><key>NSAllowsArbitraryLoadsInMedia</key><true/>",
         "NSAllowsArbitraryLoadsInMedia", "NSAllowsArbitraryLoadsForMedia"),
        ("ATS004", "<key>NSExceptionDomains</key><dict><key>example.com</key><dict/><key>Example.com</key><dict/></dict>",
         "Example.com", "example.com"),
        ("ATS005", "<key>NSAllowsArbitraryLoadsForMedia</key><true/><key>NSAllowsArbitraryLoadsFoMedia</key><true/>",
         "NSAllowsArbitraryLoadsFoMedia", "NSAllowsArbitraryLoadsForMedia"),
        ("ATS006", "<key>NSExceptionDomains</key><dict><key>example.com</key><dict/><key>https://example.com/</key><dict/></dict>",
         "https://example.com/", "example.com"),
        ("ATS009", domain("<key>NSExceptionAllowsInsecureHTTPLoads</key><true/><key>NSTemporaryExceptionAllowsInsecureHTTPLoads</key><true/>"),
         "NSTemporaryExceptionAllowsInsecureHTTPLoads", "NSExceptionAllowsInsecureHTTPLoads"),
    ]

    /// Passes that never rename a key: they cannot meet a twin.
    static let nonRenaming: Set = ["ATS003", "ATS007", "ATS008", "ATS010"]

    static func domain(_ settings: String) -> String {
        "<key>NSExceptionDomains</key><dict><key>api.example.com</key><dict>\(settings)</dict></dict>"
    }

    static func plist(_ ats: String) -> [UInt8] {
        Array("<plist>\n<dict>\n<key>NSAppTransportSecurity</key>\n<dict>\(ats)</dict>\n</dict>\n</plist>\n".utf8)
    }

    /// Every built-in pass is either in the table or known not to rename, so a new renaming pass
    /// cannot skip this test.
    @Test func everyPassIsWeighed() {
        let ids = Set(MigrationRegistry.all.map(\.id))
        #expect(ids == Set(Self.twins.map(\.pass)).union(Self.nonRenaming))
    }

    @Test(arguments: twins.map(\.pass))
    func aRemovedTwinIsSaidUnderTheHeader(pass: String) throws {
        let twin = try #require(Self.twins.first { $0.pass == pass })
        let plan = try MigrationPlan(only: [pass], allowPolicyChange: true)
        let result = FileMigrator(plan: plan).migrate(Self.plist(twin.ats), path: "Info.plist", skipIfNotApplicable: false)
        let applied = try #require(result.passes.first { $0.id == pass }, "\(result.diagnostics)")
        #expect(applied.diff.contains("-") && !String(decoding: result.output, as: UTF8.self).contains("<key>\(twin.removed)</key>"))
        #expect(applied.notes == ["removes \(twin.removed) (line 4): a redundant twin of \(twin.twin) (line 4), which has the same value"])
        let text = String(decoding: TextRunReporter(color: false).bytes(for: result), as: UTF8.self)
        #expect(text.contains("# \(applied.label)\n# note: removes \(twin.removed) "), "\(text)")
    }

    /// A recipe's `rename` meets twins by the same rule, and says so the same way.
    @Test func aRecipeRenameSaysItsRemovedTwin() throws {
        let pass = try RecipeTests.pass("  - rename: OldKey\n    to: NewKey\n")
        let result = try RecipeTests.migrate(pass, "<key>NewKey</key><string>v</string>\n<key>OldKey</key><string>v</string>\n")
        #expect(result.passes.first?.notes == ["removes OldKey (line 5): a redundant twin of NewKey (line 4), which has the same value"])
    }

    /// A rename with no twin, and a twin with another value (a conflict), say nothing.
    @Test func noTwinNoNote() throws {
        let plan = try MigrationPlan(only: ["ATS002"], allowPolicyChange: true)
        for ats in ["<key>NSAllowsArbitraryLoadsInMedia</key><true/>",
                    "<key>NSAllowsArbitraryLoadsForMedia</key><false/><key>NSAllowsArbitraryLoadsInMedia</key><true/>"] {
            let result = FileMigrator(plan: plan).migrate(Self.plist(ats), path: "Info.plist", skipIfNotApplicable: false)
            #expect(result.passes.allSatisfy { $0.notes.isEmpty }, "\(ats)")
        }
    }
}
