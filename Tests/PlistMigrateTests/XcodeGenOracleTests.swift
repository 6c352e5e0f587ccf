import Foundation
import Testing
@testable import PlistMigrate
@testable import Project

/// XcodeGen's own test suite as oracle. For every spec in XcodeGen's fixtures
/// whose generated `.xcodeproj` is committed beside it (`Fixtures/xcodegen-oracle/`, see its
/// SOURCE.md), reading the spec gives the same target → Info.plist → deployment target as
/// reading the generated `project.pbxproj`.
@Suite struct XcodeGenOracleTests {
    static let folder = Paths.fixtures.appendingPathComponent("xcodegen-oracle")
    static let pairs = [
        ("TestProject/project.yml", "TestProject/Project.xcodeproj/project.pbxproj"),
        ("TestProject/AnotherProject/project.yml", "TestProject/AnotherProject/AnotherProject.xcodeproj/project.pbxproj"),
        ("CarthageProject/project.yml", "CarthageProject/Project.xcodeproj/project.pbxproj"),
        ("SPM/project.yml", "SPM/SPM.xcodeproj/project.pbxproj"),
        ("scheme_test/test_project.yml", "scheme_test/TestProject.xcodeproj/project.pbxproj"),
    ]

    struct Claim: Equatable, CustomStringConvertible {
        var infoPlists: [String]
        var deploymentTarget: [String]?
        var description: String { "\(infoPlists) \(deploymentTarget ?? [])" }
    }

    static func claims(_ targets: [ProjectTarget]) -> [String: Claim] {
        Dictionary(targets.map { ($0.name, Claim(infoPlists: $0.infoPlists.sorted(), deploymentTarget: $0.deploymentTarget?.platforms)) },
                   uniquingKeysWith: { first, _ in first })
    }

    @Test func everyTargetOfTheGeneratedProjectsAgreesWithTheSpec() throws {
        var compared = 0, agreed = 0
        for (spec, project) in Self.pairs {
            let fromSpec = Self.claims(try XcodeGenReader.targets(projectYML: Self.folder.appendingPathComponent(spec).path, display: { $0 }))
            let generated = Self.claims(try XcodeProjectReader.targets(pbxproj: Self.folder.appendingPathComponent(project).path, display: { $0 }))
            for (name, claim) in generated.sorted(by: { $0.key < $1.key }) where !claim.infoPlists.isEmpty || claim.deploymentTarget != nil {
                compared += 1
                if fromSpec[name] == claim { agreed += 1 }
                #expect(fromSpec[name] == claim, "\(spec) \(name): generated \(claim), spec \(String(describing: fromSpec[name]))")
            }
        }
        // 53: every target whose platform is named but sets no deployment target now claims
        // its SDK's default (counted from the platform's first version), as 20 targets here do.
        #expect(compared == 53 && agreed == compared, "\(agreed) of \(compared)")
    }

    /// Multi-platform targets and templates expand as XcodeGen expands them: the generated
    /// project's target names are exactly the spec's.
    @Test func theSpecGivesTheGeneratedTargetNames() throws {
        let (spec, project) = Self.pairs[0]
        let fromSpec = Set(try XcodeGenReader.targets(projectYML: Self.folder.appendingPathComponent(spec).path, display: { $0 }).map(\.name))
        let generated = Set(try XcodeProjectReader.targets(pbxproj: Self.folder.appendingPathComponent(project).path, display: { $0 }).map(\.name))
        #expect(generated.subtracting(fromSpec).isEmpty, "missing: \(generated.subtracting(fromSpec).sorted())")
        #expect(fromSpec.isSuperset(of: ["Framework_iOS", "Framework_macOS", "Framework_tvOS", "Framework_watchOS", "CrossOverlayFramework_iOS"]))
    }

    /// XcodeGen's `App_supportedDestinations` (`supportedDestinations: [iOS, tvOS]`, no
    /// deployment target): both platforms are listed, each with its SDK's default, from the
    /// spec and from the project XcodeGen generated; none is dropped.
    @Test func everyDestinationIsListedWithItsSDKsDefault() throws {
        let (spec, project) = Self.pairs[0]
        for targets in [try XcodeGenReader.targets(projectYML: Self.folder.appendingPathComponent(spec).path, display: { $0 }),
                        try XcodeProjectReader.targets(pbxproj: Self.folder.appendingPathComponent(project).path, display: { $0 })] {
            let target = try #require(targets.first { $0.name == "App_supportedDestinations" })
            #expect(target.deploymentTarget?.platforms == ["ios9.0", "tvos9.0"], "\(String(describing: target.deploymentTarget))")
            for configuration in target.configurations {
                #expect(configuration.platforms.map(\.os) == ["ios", "tvos"], "\(configuration.platforms)")
                #expect(configuration.platforms.allSatisfy { $0.from.hasPrefix("the SDK's default (no ") }, "\(configuration.platforms)")
            }
        }
    }
}
