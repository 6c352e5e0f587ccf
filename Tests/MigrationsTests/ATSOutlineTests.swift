import Foundation
import Testing
import Migrations
import PlistDOM

/// The rounds leave out a pass whose `isInert(on:)` holds for the file's ATS dict: these tests
/// run every built-in pass anyway and check that it then edits and says nothing.
@Suite struct ATSOutlineTests {
    static let corpus = PassFixture.root.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/corpus")

    /// Each pass said inert on `bytes`, run: what it did instead of nothing. Each pass whose
    /// `wouldEdit(on:)` answers, probed: where the probe says otherwise.
    static func inertButActed(_ bytes: [UInt8]) -> [String] {
        guard let document = try? PlistDocument(parsing: bytes) else { return [] }
        let outline = ATSOutline(appTransportSecurity: MigrationSession.appTransportSecurity(of: document))
        let acted: [String] = MigrationRegistry.all.filter { $0.isInert(on: outline) }.compactMap { migration in
            let copy = document.copy()
            let session = MigrationSession(document: copy, migration: migration)
            migration.apply(to: session)
            guard copy.revision != 0 || !session.diagnostics.isEmpty else { return nil }
            return "\(migration.id): \(session.editCount) edits, \(session.diagnostics.count) diagnostics"
        }
        let misjudged: [String] = MigrationRegistry.all.compactMap { migration in
            guard let said = migration.wouldEdit(on: outline) else { return nil }
            let probe = MigrationSession(document: document, migration: migration, probeOnly: true)
            migration.apply(to: probe)
            return probe.wouldEdit == said ? nil : "\(migration.id): wouldEdit \(said), the probe \(probe.wouldEdit)"
        }
        return acted + misjudged
    }

    /// A plist whose ATS dict holds `atsEntries`, on one line (the layout plays no part here).
    static func plist(_ atsEntries: String) -> [UInt8] {
        Array("<plist version=\"1.0\"><dict><key>NSAppTransportSecurity</key><dict>\(atsEntries)</dict></dict></plist>\n".utf8)
    }

    /// Every dict of switches: each switch absent, `<true/>` or `<false/>` (3^5 dicts).
    static let switchDicts: [String] = {
        var dicts = [""]
        for key in ATSOutline.switchKeys {
            dicts = dicts.flatMap { [$0, $0 + "<key>\(key)</key><true/>", $0 + "<key>\(key)</key><false/>"] }
        }
        return dicts
    }()

    @Test func aPassSaidInertOnADictOfSwitchesDoesNothingThere() throws {
        #expect(Self.switchDicts.count == 243)
        var inertSomewhere = Set<String>(), activeSomewhere = Set<String>()
        for entries in Self.switchDicts {
            let bytes = Self.plist(entries)
            let document = try PlistDocument(parsing: bytes)
            let outline = ATSOutline(appTransportSecurity: MigrationSession.appTransportSecurity(of: document))
            #expect(outline.isSwitchesOnly, "\(entries)")
            for migration in MigrationRegistry.all {
                if migration.isInert(on: outline) { inertSomewhere.insert(migration.id) } else { activeSomewhere.insert(migration.id) }
            }
            #expect(Self.inertButActed(bytes) == [], "\(entries)")
        }
        // Every pass is left out somewhere; the three that can act on switches alone are run where they may.
        #expect(inertSomewhere == Set(MigrationRegistry.all.map(\.id)))
        #expect(activeSomewhere == ["ATS002", "ATS003", "ATS010"])
        // ATS003 is told by the switches alone, both ways.
        let answers = Set(Self.switchDicts.map { entries in
            let document = try? PlistDocument(parsing: Self.plist(entries))
            return LocalNetworkingWithArbitraryLoads().wouldEdit(on: ATSOutline(appTransportSecurity: document.flatMap(MigrationSession.appTransportSecurity)))
        })
        #expect(answers == [true, false])
    }

    /// Domains of every kind the outline tells apart, under a few tops.
    static let domainDicts: [String] = {
        let exception = [
            "<dict/>",
            "<dict><key>NSIncludesSubdomains</key><true/><key>NSExceptionAllowsInsecureHTTPLoads</key><false/></dict>",
            "<dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.2</string></dict>",
            "<dict><key>NSExceptionMinimumTLSVersion</key><string>tlsv1.2</string></dict>",
            "<dict><key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key><true/></dict>",
            "<dict><key>NSTemporaryExceptionMinimumTLSVersion</key><string>TLSv1.0</string></dict>",
            "<dict><key>NSIncludesSubdomains</key><string>YES</string></dict>",
            "<dict><key>NSIncludeSubdomains</key><true/></dict>",
            "<dict><key>NSPinnedCAIdentities</key><array/></dict>",
            "<string>example.com</string>",
        ]
        let pinned = [
            "<dict><key>NSIncludesSubdomains</key><true/><key>NSPinnedLeafIdentities</key><array/></dict>",
            "<dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.2</string></dict>",
            "<dict><key>NSPinnedCAIdentities</key><string>x</string></dict>",
        ]
        let tops = ["", "<key>NSAllowsArbitraryLoads</key><true/>",
                    "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsForMedia</key><true/>",
                    "<key>NSAllowsArbitraryLoadsInMedia</key><false/>"]
        var dicts: [String] = []
        for top in tops {
            for (index, domain) in exception.enumerated() {
                let second = exception[(index + 1) % exception.count]
                dicts.append(top + "<key>NSExceptionDomains</key><dict><key>example.com</key>\(domain)</dict>")
                dicts.append(top + "<key>NSExceptionDomains</key><dict><key>a.example</key>\(domain)<key>b.example</key>\(second)</dict>")
            }
            for domain in pinned {
                dicts.append(top + "<key>NSPinnedDomains</key><dict><key>example.com</key>\(domain)</dict>")
                dicts.append(top + "<key>NSExceptionDomains</key><dict><key>example.com</key>\(exception[1])</dict>"
                    + "<key>NSPinnedDomains</key><dict><key>example.com</key>\(domain)</dict>")
            }
            dicts.append(top + "<key>NSExceptionDomains</key><array/>")
            dicts.append(top + "<key>NSExceptionDomains</key><dict/><key>NSExceptionDomains</key><dict/>")
        }
        return dicts
    }()

    @Test func aPassSaidInertOnDomainsDoesNothingThere() throws {
        var inertSomewhere = Set<String>(), activeSomewhere = Set<String>()
        for entries in Self.domainDicts {
            let bytes = Self.plist(entries)
            let document = try PlistDocument(parsing: bytes)
            let outline = ATSOutline(appTransportSecurity: MigrationSession.appTransportSecurity(of: document))
            #expect(!outline.isSwitchesOnly, "\(entries)")
            for migration in MigrationRegistry.all {
                if migration.isInert(on: outline) { inertSomewhere.insert(migration.id) } else { activeSomewhere.insert(migration.id) }
            }
            #expect(Self.inertButActed(bytes) == [], "\(entries)")
        }
        // Domains leave out each pass somewhere but those that edit domain keys, and run each somewhere.
        #expect(inertSomewhere == Set(MigrationRegistry.all.map(\.id)).subtracting(["ATS004", "ATS006"]))
        #expect(activeSomewhere == Set(MigrationRegistry.all.map(\.id)))
    }

    @Test func onlyBooleanSwitchesAndDomainsEachOnceMakeAPlainTop() throws {
        let notPlain = [
            "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoads</key><false/>",
            "<key>NSAllowsArbitraryLoads</key><string>YES</string>",
            "<key>NSAllowsArbitraryLoads</key><integer>1</integer>",
            "<key>NSAllowsArbitraryLoad</key><true/>",
            "<key>nsallowsarbitraryloads</key><true/>",
            "<key>NSPinnedDomains</key><dict/><key>NSPinnedDomains</key><dict/>",
        ]
        for entries in notPlain {
            let document = try PlistDocument(parsing: Self.plist(entries))
            let outline = ATSOutline(appTransportSecurity: MigrationSession.appTransportSecurity(of: document))
            #expect(!outline.topIsPlain && !outline.isSwitchesOnly && !outline.domainsAreDocumented, "\(entries)")
            #expect(!MigrationRegistry.all.contains { $0.isInert(on: outline) }, "\(entries)")
        }
        // Plain tops with domains: documented or not.
        for (entries, documented) in [("<key>NSExceptionDomains</key><dict/>", true), ("<key>NSPinnedDomains</key><true/>", false)] {
            let document = try PlistDocument(parsing: Self.plist(entries))
            let outline = ATSOutline(appTransportSecurity: MigrationSession.appTransportSecurity(of: document))
            #expect(outline.topIsPlain && !outline.isSwitchesOnly && outline.domainsAreDocumented == documented, "\(entries)")
        }
        let document = try PlistDocument(parsing: Self.plist("<key>NSAllows&#x41;rbitraryLoads</key><true />"))
        let outline = ATSOutline(appTransportSecurity: MigrationSession.appTransportSecurity(of: document))
        #expect(outline.has("NSAllowsArbitraryLoads") && outline.isTrue("NSAllowsArbitraryLoads"))
        #expect(!outline.has("NSAllowsLocalNetworking") && !outline.isTrue("NSAllowsLocalNetworking"))
        // No ATS dict: an empty one.
        let none = try PlistDocument(parsing: Array("<plist><dict/></plist>".utf8))
        #expect(ATSOutline(appTransportSecurity: MigrationSession.appTransportSecurity(of: none)).isSwitchesOnly)
    }

    @Test func onEveryFixtureAPassSaidInertDoesNothing() throws {
        let fixtures = PassFixture.all(ids: MigrationRegistry.all.map(\.id))
        #expect(fixtures.count > 100)
        for fixture in fixtures {
            for suffix in ["before.plist", "after.plist"] {
                #expect(Self.inertButActed(try fixture.bytes(suffix)) == [], "\(fixture.testDescription) \(suffix)")
            }
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: corpus.path), "needs ../shared/corpus"))
    func onEveryCorpusFileAPassSaidInertDoesNothing() throws {
        var checked = 0, switchesOnly = 0
        for folder in ["real", "wild"] {
            let base = Self.corpus.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
            for name in files where name.hasSuffix(".plist") {
                guard let bytes = FileManager.default.contents(atPath: base.appendingPathComponent(name).path) else { continue }
                checked += 1
                if let document = try? PlistDocument(parsing: Array(bytes)),
                    ATSOutline(appTransportSecurity: MigrationSession.appTransportSecurity(of: document)).isSwitchesOnly
                { switchesOnly += 1 }
                #expect(Self.inertButActed(Array(bytes)) == [], "\(folder)/\(name)")
            }
        }
        #expect(checked > 2000)
        #expect(switchesOnly > 100)
    }
}
