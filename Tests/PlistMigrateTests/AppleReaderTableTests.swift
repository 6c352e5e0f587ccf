import ATSPolicy
import Foundation
import PlistDOM
import Testing

/// Apple's own tests of its ATS reader as a decision table:
/// `Fixtures/engine/apple-reader.tsv`, one row per expectation of
/// `SecProtocolConfigurationTest.m` (apple-oss-distributions/Security), transcribed by
/// `Tests/oracle/apple_reader_table.py`. Every row runs through the engine and through
/// `explain --format json`. A row of kind `direct` is one where the reader's caller saying the
/// connection is direct (`is_direct`) lets plain HTTP to an IP address through: no load kind of
/// the engine is such a connection, so the engine must say so as an open question.
@Suite struct AppleReaderTableTests {
    static let cases = DecisionTableTests.load("engine/apple-reader.tsv")
    static let compared = cases.filter { $0.kind != "direct" }

    /// What a row asserts: `*` is a field Apple's tests do not check.
    static func matches(_ answer: [String], _ item: DecisionTableTests.Case) -> Bool {
        zip(answer, [item.http, item.minimumTLS, item.forwardSecrecy, item.ct]).allSatisfy { $1 == "*" || $0 == $1 }
    }

    @Test func everyExpectationOfApplesTestsIsARowCitingItsTest() throws {
        #expect(Self.cases.count >= 157)
        #expect(Self.cases.allSatisfy { $0.basis.hasPrefix("SecProtocolConfigurationTest.m test") })
        let tests = Set(Self.cases.map { $0.basis.split(separator: " ")[1].dropLast() })
        #expect(tests.count == 17, "\(tests.sorted())")
    }

    @Test func theEngineAgreesWithEveryRow() throws {
        for item in Self.compared {
            let configuration = ATSConfiguration(document: try PlistDocument(parsing: item.plist))
            let decision = PolicyEngine.decide(configuration, era: .ios17, host: Host(item.host), kind: .urlSession)
            #expect(Self.matches(DecisionTableTests.fields(decision), item), "\(item.id) \(item.basis): \(decision.decidedBy.map(\.rule))")
        }
    }

    @Test func explainAgreesWithEveryRow() throws {
        let answers = try DecisionTableTests.explainAnswers(Self.compared)
        for item in Self.compared {
            #expect(answers[item.id].map { Self.matches($0, item) } == true, "\(item.id) \(item.basis): \(answers[item.id] ?? [])")
        }
    }

    /// Where the caller's `is_direct` lets HTTP to an IP address through, the engine agrees
    /// when a key of the file lets it through anyway (NSAllowsArbitraryLoads, or
    /// NSAllowsLocalNetworking for a private address); otherwise it blocks it (Apple's iOS 17
    /// page) and says that the caller decides.
    @Test func whereTheCallerDecidesTheEngineAgreesOrSaysSo() throws {
        let direct = Self.cases.filter { $0.kind == "direct" }
        #expect(Set(direct.map(\.host)) == ["127.0.0.1", "::1", "fe80::1"])
        var asked = 0
        for item in direct {
            let configuration = ATSConfiguration(document: try PlistDocument(parsing: item.plist))
            let decision = PolicyEngine.decide(configuration, era: .ios17, host: Host(item.host), kind: .urlSession)
            if Self.matches(DecisionTableTests.fields(decision), item) { continue }
            asked += 1
            #expect(!decision.httpAllowed && decision.openQuestions.contains { $0.contains("is \"direct\"") },
                    "\(item.id) \(item.basis): \(decision.decidedBy.map(\.rule))")
        }
        #expect(asked > 0 && asked < direct.count, "both ways are exercised: \(asked) of \(direct.count)")
    }
}
