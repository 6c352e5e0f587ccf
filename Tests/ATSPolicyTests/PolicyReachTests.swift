import Testing
@testable import ATSPolicy

/// The reach of a pass's edits: each edited key's reach, and their union however it is built.
@Suite struct PolicyReachTests {
    static let ats = ["NSAppTransportSecurity"]
    static let domainKeys = ["a.example", "b.example"]

    @Test func eachKeyReachesWhatItsSettingDecides() {
        var media = PolicyReach()
        media.kinds = [.media]
        #expect(PolicyReach.of(key: "NSAllowsArbitraryLoadsInMedia", inDict: Self.ats, domainKeys: []) == media)
        #expect(PolicyReach.of(key: "NSAllowsArbitraryLoads", inDict: Self.ats, domainKeys: []).everything)
        #expect(PolicyReach.of(key: "NSAllowsLocalNetworking", inDict: Self.ats, domainKeys: []).localHosts)
        #expect(PolicyReach.of(key: "NSExceptionDomains", inDict: Self.ats, domainKeys: Self.domainKeys).domains == Set(Self.domainKeys))
        #expect(PolicyReach.of(key: "api.example.com", inDict: Self.ats + ["NSExceptionDomains"], domainKeys: []).domains == ["api.example.com"])
        #expect(PolicyReach.of(key: "NSIncludesSubdomains", inDict: Self.ats + ["NSPinnedDomains", "pin.example"], domainKeys: []).domains
            == ["pin.example"])
        #expect(PolicyReach.of(key: "NSUnknownKey", inDict: Self.ats, domainKeys: []) == .nothing)
    }

    /// `add` widens a reach that already holds others, as uniting the keys' own reaches does.
    @Test func addingKeysEqualsUnitingTheirReaches() {
        let keys = [
            "NSAllowsArbitraryLoads", "NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInMedia",
            "NSAllowsArbitraryLoadsInWebContent", "NSAllowsLocalNetworking", "NSExceptionDomains", "NSPinnedDomains",
            "NSIncludesSubdomains", "example.com", "Other",
        ]
        let dicts = [Self.ats, Self.ats + ["NSExceptionDomains"], Self.ats + ["NSExceptionDomains", "api.example.com"],
                     Self.ats + ["NSPinnedDomains", "pin.example"], ["Other"]]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var added = PolicyReach(), united = PolicyReach()
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let key = keys.randomElement(using: &generator)!, dict = dicts.randomElement(using: &generator)!
                added.add(key: key, inDict: dict, domainKeys: Self.domainKeys)
                united.formUnion(.of(key: key, inDict: dict, domainKeys: Self.domainKeys))
            }
            #expect(added == united)
        }
    }
}
