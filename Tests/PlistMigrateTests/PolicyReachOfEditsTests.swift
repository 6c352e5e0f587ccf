import ATSPolicy
import Migrations
import PlistDOM
import Testing
@testable import PlistMigrate

/// The reach of a pass's edits, read off each edit's container (`FileMigrator.widen`), is the
/// reach of the keys `PlannedEdit.touchedKeys` names, for every kind of edit in every kind of
/// place: inside and outside the ATS dict, through keys and through arrays.
@Suite struct PolicyReachOfEditsTests {
    static let ats = PathStep.key("NSAppTransportSecurity")
    static let domainKeys = ["a.example", "b.example"]

    static let containers: [[PathStep]] = [
        [], [ats], [ats, .key("NSExceptionDomains")], [ats, .key("NSPinnedDomains")],
        [ats, .key("NSExceptionDomains"), .key("api.example.com")],
        [ats, .key("NSPinnedDomains"), .key("pin.example"), .key("NSPinnedCAIdentities")],
        [ats, .key("NSExceptionDomains"), .index(0)], [ats, .key("NSPinnedDomains"), .key("pin.example"), .key("NSPinnedCAIdentities"), .index(1)],
        [.key("Other")], [.key("Other"), ats], [.key("Other"), ats, .key("NSExceptionDomains")], [.index(0), ats],
    ]
    static let keys = [
        "NSAllowsArbitraryLoads", "NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInMedia",
        "NSAllowsArbitraryLoadsInWebContent", "NSAllowsLocalNetworking", "NSExceptionDomains", "NSPinnedDomains",
        "NSIncludesSubdomains", "example.com", "NSAppTransportSecurity",
    ]

    static func edits(in container: [PathStep]) -> [PlannedEdit] {
        var edits: [PlannedEdit] = []
        for key in keys {
            edits.append(.remove(dict: container, key: key))
            edits.append(.insert(dict: container, key: key, value: .bool(true)))
            edits.append(.replace(dict: container, key: key, value: .bool(false)))
            for other in keys where other != key { edits.append(.rename(dict: container, from: key, to: other)) }
        }
        edits.append(.removeItem(array: container, index: 0))
        edits.append(.insertItem(array: container, index: 0, value: .string("x")))
        edits.append(.replaceItem(array: container, index: 0, value: .string("y")))
        return edits
    }

    @Test func eachEditReachesWhatItsTouchedKeysReach() {
        var compared = 0
        for container in Self.containers {
            for edit in Self.edits(in: container) {
                var general = PolicyReach()
                for (dict, key) in edit.touchedKeys { general.add(key: key, inDict: dict, domainKeys: Self.domainKeys) }
                var read = PolicyReach()
                FileMigrator.widen(&read, by: edit, domainKeys: { Self.domainKeys })
                #expect(read == general, "\(edit)")
                compared += 1
            }
        }
        #expect(compared > 1_000)
    }

    /// The domain keys are listed only when an edit names the dict that holds the domains.
    @Test func domainKeysAreListedOnlyForTheDictOfDomains() {
        var asked = 0
        var reach = PolicyReach()
        let list = { asked += 1; return Self.domainKeys }
        FileMigrator.widen(&reach, by: .rename(dict: [Self.ats, .key("NSExceptionDomains")], from: "A.example", to: "a.example"), domainKeys: list)
        FileMigrator.widen(&reach, by: .remove(dict: [Self.ats, .key("NSExceptionDomains"), .key("a.example")], key: "NSIncludesSubdomains"), domainKeys: list)
        #expect(asked == 0)
        FileMigrator.widen(&reach, by: .rename(dict: [Self.ats], from: "NSExceptionDomain", to: "NSExceptionDomains"), domainKeys: list)
        #expect(asked == 1)
        #expect(reach.domains == ["A.example", "a.example", "b.example"])
    }
}
