import Foundation
import Testing
import PlistDOM
@testable import PlistMigrate

/// One run leaves nothing for the next: each reproduction is migrated once, must
/// reach its final form with no conflict, and a second run must find nothing to do.
@Suite struct RunIdempotencyTests {
    static func plist(_ ats: String) -> [UInt8] {
        Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>NSAppTransportSecurity</key>
        \t<dict>
        \(ats)
        \t</dict>
        </dict>
        </plist>

        """.utf8)
    }

    /// Runs once, checks the run is a fixed point, and returns the migrated ATS value.
    static func migrateOnce(_ ats: String, allowPolicyChange: Bool = false) throws -> (result: FileResult, ats: PlistValue) {
        let migrator = FileMigrator(plan: try MigrationPlan(allowPolicyChange: allowPolicyChange))
        let first = migrator.migrate(plist(ats), path: "Info.plist", skipIfNotApplicable: false)
        #expect(first.error == nil, "\(first.error?.message ?? "")")
        let second = migrator.migrate(first.output, path: "Info.plist", skipIfNotApplicable: false)
        #expect(second.passes.isEmpty, "a second run still applied \(second.passes.map(\.label))")
        #expect(second.output == first.output)
        #expect(second.diagnostics.map(\.message) == first.diagnostics.map(\.message))
        let document = try PlistDocument(parsing: first.output)
        return (first, PlistValue(try #require(document.rootValue[key: "NSAppTransportSecurity"])))
    }

    static func domain(_ name: String, _ entries: [String: PlistValue]) -> PlistValue {
        .dict(["NSExceptionDomains": .dict([name: .dict(entries)])])
    }

    @Test func misspelledDeprecatedKeyGoesStraightToTheDocumentedKey() throws {
        let (result, ats) = try Self.migrateOnce("""
        \t\t<key>NSExceptionDomains</key>
        \t\t<dict>
        \t\t\t<key>example.com</key>
        \t\t\t<dict>
        \t\t\t\t<key>NSThirdPartyExceptionAllowsInsecreuHTTPLoads</key>
        \t\t\t\t<true/>
        \t\t\t</dict>
        \t\t</dict>
        """)
        #expect(ats == Self.domain("example.com", ["NSExceptionAllowsInsecureHTTPLoads": .bool(true)]))
        #expect(result.passes.map(\.id) == ["ATS005"])
    }

    @Test func misspelledInMediaGoesStraightToForMedia() throws {
        let (_, ats) = try Self.migrateOnce("\t\t<key>NSAllowsArbitraryLoadsInMedai</key>\n\t\t<true/>")
        #expect(ats == .dict(["NSAllowsArbitraryLoadsForMedia": .bool(true)]))
    }

    @Test func entriesOfAMisspelledDomainsDictAreFixedInTheSameRun() throws {
        for parent in ["NSExceptionDomain", "NSPinnedDomain"] {
            let (result, ats) = try Self.migrateOnce("""
            \t\t<key>\(parent)</key>
            \t\t<dict>
            \t\t\t<key>API.Example.com</key>
            \t\t\t<dict>
            \t\t\t\t<key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key>
            \t\t\t\t<true/>
            \t\t\t</dict>
            \t\t</dict>
            """)
            let key = parent + "s"
            let expectedEntry: [String: PlistValue] = parent == "NSExceptionDomain"
                ? ["NSExceptionAllowsInsecureHTTPLoads": .bool(true)]
                : ["NSThirdPartyExceptionAllowsInsecureHTTPLoads": .bool(true)]
            #expect(ats == .dict([key: .dict(["api.example.com": .dict(expectedEntry)])]), "\(parent)")
            #expect(result.passes.contains { $0.round == 2 }, "the later round is labelled: \(result.passes.map(\.label))")
            #expect(result.passes.first { $0.round == 2 }?.label.hasSuffix(", round 2") == true)
        }
    }

    @Test func arbitraryLoadsFixedBySpellingGetsLocalNetworkingInTheSameRun() throws {
        let (_, ats) = try Self.migrateOnce("\t\t<key>NSAllowsArbitraryLoad</key>\n\t\t<true/>", allowPolicyChange: true)
        #expect(ats == .dict(["NSAllowsArbitraryLoads": .bool(true), "NSAllowsLocalNetworking": .bool(true)]))
    }

    @Test func wildcardURLBecomesDomainWithSubdomainsAndNoStaleDiagnostic() throws {
        let (result, ats) = try Self.migrateOnce("""
        \t\t<key>NSExceptionDomains</key>
        \t\t<dict>
        \t\t\t<key>https://*.Example.com/path</key>
        \t\t\t<dict>
        \t\t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>
        \t\t\t\t<true/>
        \t\t\t</dict>
        \t\t</dict>
        """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        #expect(ats == Self.domain("example.com", ["NSExceptionAllowsInsecureHTTPLoads": .bool(true), "NSIncludesSubdomains": .bool(true)]))
    }

    @Test(arguments: [
        ("NSExceptionAllowsInsecureHTTPLoads", "<true/>", "NSThirdPartyExceptionAllowsInsecureHTTPLoads", "<string>YES</string>",
         "NSExceptionAllowsInsecureHTTPLoads", PlistValue.bool(true)),
        ("NSExceptionMinimumTLSVersion", "<string>TLSv1.0</string>", "NSThirdPartyExceptionMinimumTLSVersion", "<string>TLS 1.0</string>",
         "NSExceptionMinimumTLSVersion", PlistValue.string("TLSv1.0")),
    ])
    func twinsThatDifferOnlyInSpellingOfTheValueAreNotConflicts(
        documented: String, value: String, alias: String, aliasValue: String, key: String, expected: PlistValue
    ) throws {
        let (result, ats) = try Self.migrateOnce("""
        \t\t<key>NSExceptionDomains</key>
        \t\t<dict>
        \t\t\t<key>example.com</key>
        \t\t\t<dict>
        \t\t\t\t<key>\(documented)</key>
        \t\t\t\t\(value)
        \t\t\t\t<key>\(alias)</key>
        \t\t\t\t\(aliasValue)
        \t\t\t</dict>
        \t\t</dict>
        """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        #expect(ats == Self.domain("example.com", [key: expected]))
    }

    @Test func mediaTwinsWithStringAndBooleanValuesAreNotAConflict() throws {
        let (result, ats) = try Self.migrateOnce("""
        \t\t<key>NSAllowsArbitraryLoadsInMedia</key>
        \t\t<string>YES</string>
        \t\t<key>NSAllowsArbitraryLoadsForMedia</key>
        \t\t<true/>
        """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        #expect(ats == .dict(["NSAllowsArbitraryLoadsForMedia": .bool(true)]))
    }

    @Test func realConflictsAreStillReportedOnce() throws {
        let (result, _) = try Self.migrateOnce("""
        \t\t<key>NSAllowsArbitraryLoadsInMedia</key>
        \t\t<false/>
        \t\t<key>NSAllowsArbitraryLoadsForMedia</key>
        \t\t<true/>
        """)
        #expect(result.diagnostics.map(\.migrationID) == ["ATS002"])
    }

    @Test func anIdenticalTwinOfAMisspelledKeyIsRemovedNotAConflict() throws {
        let (result, ats) = try Self.migrateOnce("""
        \t\t<key>NSExceptionDomains</key>
        \t\t<dict>
        \t\t\t<key>example.com</key>
        \t\t\t<dict>
        \t\t\t\t<key>NSExceptionAllowInsecureHTTPLoads</key>
        \t\t\t\t<false/>
        \t\t\t\t<key>NSTemporaryExceptionAllowsInsecureHTTPLoads</key>
        \t\t\t\t<false/>
        \t\t\t</dict>
        \t\t</dict>
        """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        #expect(ats == Self.domain("example.com", ["NSExceptionAllowsInsecureHTTPLoads": .bool(false)]))
    }

    @Test func aDomainKeyWithAnotherSchemeIsLeftAlone() throws {
        let (result, ats) = try Self.migrateOnce("""
        \t\t<key>NSExceptionDomains</key>
        \t\t<dict>
        \t\t\t<key>ftp://d.com</key>
        \t\t\t<dict/>
        \t\t</dict>
        """)
        #expect(result.passes.isEmpty)
        #expect(ats == .dict(["NSExceptionDomains": .dict(["ftp://d.com": .dict([:])])]))
        #expect(CleanDomainKeysProbe.clean("d.com:") == "d.com:")
        #expect(CleanDomainKeysProbe.clean("https://d.com:8443/x") == "d.com")
    }
}

import Migrations
/// ATS006's cleaning rule, as a function (its type is internal to the Migrations module).
enum CleanDomainKeysProbe {
    static func clean(_ key: String) -> String {
        let migrator = FileMigrator(plan: try! MigrationPlan(only: ["ATS006"]))
        let input = RunIdempotencyTests.plist("\t\t<key>NSExceptionDomains</key>\n\t\t<dict>\n\t\t\t<key>\(key)</key>\n\t\t\t<dict/>\n\t\t</dict>")
        let output = migrator.migrate(input, path: "x", skipIfNotApplicable: false).output
        guard let document = try? PlistDocument(parsing: output),
            let domains = document.rootValue[key: "NSAppTransportSecurity"]?[key: "NSExceptionDomains"]
        else { return "?" }
        return domains.entries.first?.name ?? "?"
    }
}
