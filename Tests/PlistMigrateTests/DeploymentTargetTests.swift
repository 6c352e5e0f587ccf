import Foundation
import Testing
import ATSPolicy
import PlistDOM
@testable import PlistMigrate

/// The deployment target: `--min-os`, config `minimumOS`, the nearest
/// `project.pbxproj`, the plist's own keys, else every OS; only its eras count in deltas.
@Suite struct DeploymentTargetTests {
    /// ATS002 beside NSAllowsArbitraryLoads: its delta names iOS 10+ unless the target is later.
    static let mediaPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>MinimumOSVersion</key>
        \t<string>MIN</string>
        \t<key>NSAppTransportSecurity</key>
        \t<dict>
        \t\t<key>NSAllowsArbitraryLoads</key>
        \t\t<true/>
        \t\t<key>NSAllowsArbitraryLoadsInMedia</key>
        \t\t<true/>
        \t</dict>
        </dict>
        </plist>

        """

    func workspace(minimum: String = "$(IPHONEOS_DEPLOYMENT_TARGET)") throws -> URL {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("App"), withIntermediateDirectories: true)
        try Self.mediaPlist.replacingOccurrences(of: "MIN", with: minimum)
            .write(to: directory.appendingPathComponent("App/Info.plist"), atomically: true, encoding: .utf8)
        return directory
    }

    func project(in directory: URL, _ settings: String) throws {
        let folder = directory.appendingPathComponent("App.xcodeproj")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try settings.write(to: folder.appendingPathComponent("project.pbxproj"), atomically: true, encoding: .utf8)
    }

    @Test func thePlistsOwnVersionIsReadWithoutWhitespace() throws {
        func target(_ entries: String) throws -> DeploymentTarget? {
            try FileMigrator.deploymentTarget(declaredIn: PlistDocument(parsing: Array("<plist><dict>\(entries)</dict></plist>".utf8)))
        }
        for spelled in ["15.0", " 15.0\n\t", "1 5.0", "15.0\u{00A0}", "&#x20;15.0"] {
            let found = try target("<key>MinimumOSVersion</key><string>\(spelled)</string>")
            #expect(found?.platforms == ["ios15.0"], "\(spelled)")
            #expect(found?.source == "the plist's MinimumOSVersion")
        }
        let both = try target("<key>MinimumOSVersion</key><string>16.4</string><key>LSMinimumSystemVersion</key><string> 10.13 </string>")
        #expect(both?.platforms == ["ios16.4", "macos10.13"])
        #expect(both?.source == "the plist's MinimumOSVersion and LSMinimumSystemVersion")
        #expect(try target("<key>MinimumOSVersion</key><string>$(IPHONEOS_DEPLOYMENT_TARGET)</string>") == nil)
        #expect(try target("<key>MinimumOSVersion</key><real>15.0</real>") == nil)
        #expect(try target("") == nil)
    }

    @Test func parsesTargetsAndTheirEras() {
        #expect(DeploymentTarget("ios15", source: "")?.supportedEras == [.ios14, .ios17])
        #expect(DeploymentTarget("ios15,macos10.13", source: "")?.minimumEra == .ios10)
        #expect(DeploymentTarget("visionos1", source: "")?.supportedEras == [.ios17])
        #expect(DeploymentTarget("ios8", source: "")?.minimumEra == .ios9)
        #expect(DeploymentTarget("tvos15", source: "")?.minimumEra == .ios14)
        #expect(DeploymentTarget("android12", source: "") == nil)
        #expect(DeploymentTarget("ios", source: "") == nil)
    }

    @Test func theLowestTargetOfTheNearestProjectCounts() throws {
        let directory = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Two targets that name other Info.plists: the nearest project's lowest counts, read
        // through the project model (a project that does not parse is not used).
        try project(in: directory, """
            // !$*UTF8*$!
            { archiveVersion = 1; objectVersion = 56; objects = {
              G1 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
              T1 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = A; productType = "com.apple.product-type.application"; };
              T2 = {isa = PBXNativeTarget; buildConfigurationList = L3; name = B; productType = "com.apple.product-type.application"; };
              P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; projectDirPath = ""; targets = (T1, T2); };
              L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
              L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
              L3 = {isa = XCConfigurationList; buildConfigurations = (C3); };
              C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; }; };
              C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { INFOPLIST_FILE = A/Info.plist; IPHONEOS_DEPLOYMENT_TARGET = 16.4; }; };
              C3 = {isa = XCBuildConfiguration; name = Release; buildSettings = { INFOPLIST_FILE = B/Info.plist; IPHONEOS_DEPLOYMENT_TARGET = 15.0; }; };
            }; rootObject = P1; }
            """)
        let result = try tool(["--allow-policy-change", "--format", "json", "."], in: directory)
        let text = result.text
        #expect(text.contains("\"minimumOS\" : \"ios15.0\""))
        #expect(text.contains("\"source\" : \"App.xcodeproj/project.pbxproj\""))
        // An iOS target: its eras are named for iOS alone.
        #expect(text.contains("\"iOS 14+: HTTP to any other host (urlSession, webView): allowed → blocked"), "\(text)")
        // The policy deltas (not the passes' descriptions, which the report now carries too).
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let deltas = ((document["files"] as? [[String: Any]]) ?? []).flatMap { ($0["passes"] as? [[String: Any]]) ?? [] }
            .flatMap { ($0["policyDelta"] as? [String]) ?? [] }
        #expect(!deltas.isEmpty && !deltas.contains { $0.contains("iOS 10+") }, "eras before the target are not listed")
        #expect(result.stderr.contains("; deployment target: 1 from project.pbxproj"))
    }

    /// The project that claims the plist is found whether it lies beside the plist or in a
    /// folder above it, with configs looked for or not, for a file named on the command line
    /// and for a walked one: each way a run starts the look-up from the file's folder.
    @Test(arguments: [true, false], [true, false])
    func theClaimingProjectIsFoundBesideThePlistOrAbove(besideThePlist: Bool, looksForConfigs: Bool) throws {
        let directory = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let home = besideThePlist ? directory.appendingPathComponent("App") : directory
        try project(in: home, """
            // !$*UTF8*$!
            { archiveVersion = 1; objectVersion = 56; objects = {
              G1 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
              T1 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = A; productType = "com.apple.product-type.application"; };
              P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; projectDirPath = ""; targets = (T1); };
              L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
              L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
              C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; }; };
              C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { INFOPLIST_FILE = \(besideThePlist ? "" : "App/")Info.plist; IPHONEOS_DEPLOYMENT_TARGET = 15.4; }; };
            }; rootObject = P1; }
            """)
        let project = (besideThePlist ? "App/" : "") + "App.xcodeproj/project.pbxproj"
        for named in [".", "App/Info.plist"] {
            let result = try tool(["--format", "json"] + (looksForConfigs ? [] : ["--no-config"]) + [named], in: directory)
            #expect(result.text.contains("\"minimumOS\" : \"ios15.4\""), "\(named): \(result.text)")
            #expect(result.text.contains("\"name\" : \"A\""), "the target claims the file: \(named)")
            #expect(result.text.contains(project), "\(named): \(result.text)")
        }
    }

    @Test func theCommandLineAndConfigOverrideTheProjectAndThePlist() throws {
        let directory = try workspace(minimum: "12.0")
        defer { try? FileManager.default.removeItem(at: directory) }
        try project(in: directory, "IPHONEOS_DEPLOYMENT_TARGET = 15.0;")
        let flag = try tool(["--allow-policy-change", "--min-os", "ios17", "."], in: directory)
        #expect(flag.text.contains("# policy: iOS 17+: HTTP to any other host"), "\(flag.text)")
        #expect(flag.stderr.contains("deployment target: 1 from --min-os"))
        try #"{ "minimumOS": ["macos10.12"] }"#.write(to: directory.appendingPathComponent(".plist-migrate.json"), atomically: true, encoding: .utf8)
        let config = try tool(["--allow-policy-change", "."], in: directory)
        #expect(config.text.contains("# policy: macOS 10.12+: HTTP to any other host"), "\(config.text)")
        #expect(config.stderr.contains("deployment target: 1 from config"))
        try #"{ "minimumOS": "ios99x" }"#.write(to: directory.appendingPathComponent(".plist-migrate.json"), atomically: true, encoding: .utf8)
        let invalid = try tool(["."], in: directory)
        #expect(invalid.status == 2)
        #expect(invalid.stderr.contains(#".plist-migrate.json: error: "minimumOS": "ios99x" is not a deployment target"#))
        #expect(try tool(["--min-os", "windows11", "."], in: directory).status == 64)
    }

    @Test func withoutAProjectThePlistsOwnKeyCountsElseEveryOS() throws {
        let declared = try workspace(minimum: "15.0")
        defer { try? FileManager.default.removeItem(at: declared) }
        let result = try tool(["--allow-policy-change", "--format", "json", "."], in: declared)
        #expect(result.text.contains("\"source\" : \"the plist's MinimumOSVersion\""))
        #expect(result.stderr.contains("deployment target: 1 from Info.plist"))
        let unknown = try workspace()
        defer { try? FileManager.default.removeItem(at: unknown) }
        let none = try tool(["--format", "json", "."], in: unknown)
        #expect(none.text.contains("\"source\" : \"unknown\""))
        #expect(none.stderr.contains("deployment target: 1 from none known (every OS counted)"))
        #expect(none.stderr.contains("iOS 10+/macOS 10.12+"), "every era counts in the held-back note")
    }

    @Test func explainShowsOnlyTheSupportedEras() throws {
        let directory = try workspace(minimum: "15.0")
        defer { try? FileManager.default.removeItem(at: directory) }
        let table = try tool(["explain", "App/Info.plist"], in: directory)
        #expect(table.text.contains("deployment target ios15.0 (from the plist's MinimumOSVersion): each row's OS is a band of versions "
            + "that ATS treats alike; the first, iOS 14–16, holds the deployment target, and older bands are not shown"), "\(table.text)")
        #expect(table.text.contains("iOS 14–16") && !table.text.contains("iOS 10–13") && !table.text.contains("macOS"), "an iOS app's rows name iOS")
        let flag = try tool(["explain", "--min-os", "ios9", "--format", "json", "App/Info.plist"], in: directory)
        #expect(flag.text.contains("\"deploymentTargetSource\" : \"--min-os\""))
        #expect(flag.text.contains("\"os\" : \"iOS 9\""), "\(flag.text)")
    }
}
