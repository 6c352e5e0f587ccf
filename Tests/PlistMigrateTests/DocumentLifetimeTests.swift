import Foundation
import Testing
import Migrations
import PlistDOM
@testable import PlistMigrate

/// A migrated file's tree is freed once the run is done with it. A sorted dict's listing kept
/// in the document (for inserting at the sorted place) held entries, which hold the document:
/// every file a pass inserted a key into at its sorted place kept its tree (bytes, nodes, line
/// table) for the rest of the process, memory growing with the files a long run or a library
/// user migrates (found by the fuzz targets as a leak).
@Suite struct DocumentLifetimeTests {
    /// Sorted ATS dicts where a key goes in before the last one (so the listing is made), and
    /// fixtures whose keys are renamed and moved.
    static let sortedInsert = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>NSAppTransportSecurity</key>
        \t<dict>
        \t\t<key>NSAllowsArbitraryLoads</key>
        \t\t<true/>
        \t\t<key>NSExceptionDomains</key>
        \t\t<dict>
        \t\t\t<key>example.com</key>
        \t\t\t<dict>
        \t\t\t\t<key>NSIncludesSubdomains</key>
        \t\t\t\t<true/>
        \t\t\t</dict>
        \t\t</dict>
        \t</dict>
        </dict>
        </plist>

        """

    static let inputs: [(String, [UInt8])] = [("sorted insert", Array(sortedInsert.utf8))]
        + ["ATS001/xcode-sorted.before.plist", "ATS004/xcode-sorted.before.plist", "ATS001/tabs.before.plist", "ATS004/comments.before.plist"]
        .map { ($0, (try? [UInt8](Data(contentsOf: Paths.fixtures.appendingPathComponent($0)))) ?? []) }

    @Test(arguments: inputs.indices)
    func aMigratedDocumentIsFreed(_ input: Int) throws {
        let (name, bytes) = Self.inputs[input]
        weak var freed: PlistDocument?
        var changed = false
        do {
            let document = try PlistDocument(parsing: bytes)
            freed = document
            let migrator = FileMigrator(plan: try MigrationPlan(allowPolicyChange: true))
            let result = migrator.migrate(bytes, path: "Info.plist", skipIfNotApplicable: false, parsed: document)
            changed = result.status == .changed
        }
        #expect(changed, "\(name): a pass changes it")
        #expect(freed == nil, "\(name): the document outlives its run")
    }
}
