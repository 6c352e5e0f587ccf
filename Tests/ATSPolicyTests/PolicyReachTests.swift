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

extension PolicyReachTests {
    /// The filter of the changed keys answers what the set answers, for every name; with a key
    /// that is not ASCII there is no filter.
    @Test func theChangedKeyFilterAnswersAsTheSet() throws {
        var generator = SystemRandomNumberGenerator()
        let labels = ["api", "cdn", "example", "com", "net", "io", "a", "", "x-1", "sub"]
        func name() -> String {
            (0..<Int.random(in: 1...4, using: &generator)).map { _ in labels.randomElement(using: &generator)! }.joined(separator: ".")
        }
        for _ in 0..<200 {
            let changed = Set((0..<Int.random(in: 0...40, using: &generator)).map { _ in Substring(name()) })
            let filter = try #require(ChangedKeyFilter(changed))
            for _ in 0..<50 {
                let candidate = name()
                #expect(filter.containsNameOrParent(of: candidate) == changed.containsNameOrParent(of: candidate), "\(candidate) in \(changed)")
            }
        }
        let many = Set((0..<800).map { Substring("host\($0 * 25).example.com") })
        let filter = try #require(ChangedKeyFilter(many))
        let reached = (0..<20_000).filter { filter.containsNameOrParent(of: "host\($0).example.com") }
        #expect(reached == Array(stride(from: 0, to: 20_000, by: 25)))
        #expect(ChangedKeyFilter(["\u{212A}.example"]) == nil, "the Kelvin sign equals K as a string, not as bytes")
    }
}
