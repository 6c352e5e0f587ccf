/// The oldest OS versions an app supports, and where that was learnt: only their eras matter
/// for its policy deltas.
public struct DeploymentTarget: Sendable, Hashable {
    /// `ios15`, `macos12`, … as given or found.
    public var platforms: [String]
    /// The oldest era any of them runs on.
    public var minimumEra: OSEra
    /// Where it came from: `--min-os`, a config file, a `project.pbxproj`, or the plist's own
    /// `MinimumOSVersion`/`LSMinimumSystemVersion`.
    public var source: String

    /// `iOS 15/macOS 12`, as people write it.
    public var spelled: String { spelled(suffix: "") }

    /// `iOS 15+/macOS 12+`: each platform from its version on.
    public var spelledOnward: String { spelled(suffix: "+") }

    private func spelled(suffix: String) -> String {
        platforms.map { item in
            let (platform, version) = Self.split(item)
            let name = ["ios": "iOS", "ipados": "iPadOS", "macos": "macOS", "tvos": "tvOS", "visionos": "visionOS", "watchos": "watchOS"][platform] ?? platform
            return name + " " + version.map(String.init).joined(separator: ".") + suffix
        }.joined(separator: "/")
    }

    /// The eras from `minimumEra` on.
    public var supportedEras: [OSEra] { OSEra.allCases.filter { $0 >= minimumEra } }

    /// Parses `ios15`, `macos12`, `tvos15`, `visionos1`, or several joined by commas; `nil` for
    /// anything else. Versions older than iOS 9/macOS 10.11 count as the first ATS era.
    public init?(_ text: String, source: String) {
        let items = text.split(separator: ",").map { $0.filter { !$0.isWhitespace }.lowercased() }
        guard !items.isEmpty else { return nil }
        var eras: [OSEra] = []
        for item in items {
            // A version is one to three numbers of at most four digits: `ios15.99999999999999999999` is none.
            let parts = item.drop { $0.isLetter }.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...3).contains(parts.count), parts.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
                return nil
            }
            guard let era = OSEra(os: item) ?? Self.beforeATS(item) else { return nil }
            eras.append(era)
        }
        platforms = items
        minimumEra = eras.min()!
        self.source = source
    }

    /// A platform (`ios`, `macos`, …) and a version as build settings and Info.plists write it
    /// (`15.0`); `nil` for anything but digits and dots, such as a `$(…)` reference.
    public init?(platform: String, version: String, source: String) {
        guard !version.isEmpty, version.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else { return nil }
        self.init(platform + version, source: source)
    }

    /// The lowest of several targets (several projects or build configurations).
    public static func lowest(_ targets: [DeploymentTarget], source: String) -> DeploymentTarget? {
        guard let first = targets.min(by: { $0.minimumEra < $1.minimumEra }) else { return nil }
        var merged = first
        // The lowest version of each platform: `ios15.0` of `ios15.0` and `ios16.4`.
        var lowest: [String: (version: [Int], text: String)] = [:]
        for item in targets.flatMap(\.platforms) {
            let (platform, version) = split(item)
            if let known = lowest[platform], !version.lexicographicallyPrecedes(known.version) { continue }
            lowest[platform] = (version, item)
        }
        merged.platforms = lowest.values.map(\.text).sorted()
        merged.source = source
        return merged
    }

    /// `ios15.4` → (`ios`, [15, 4]).
    public static func split(_ item: String) -> (platform: String, version: [Int]) {
        let platform = String(item.prefix { $0.isLetter })
        return (platform, item.dropFirst(platform.count).split(separator: ".").compactMap { Int($0) })
    }

    /// Whether this target is at least `required` on every platform both name, and they name
    /// one at least (`ios15` reaches `ios13`; `ios12` does not, nor does `macos12`).
    public func reaches(_ required: DeploymentTarget) -> Bool {
        var shared = false
        for have in platforms.map(Self.split) {
            for need in required.platforms.map(Self.split) where need.platform == have.platform {
                shared = true
                if have.version.lexicographicallyPrecedes(need.version) { return false }
            }
        }
        return shared
    }

    /// `ios8`, `macos10.9`: a valid version older than ATS itself.
    private static func beforeATS(_ item: String) -> OSEra? {
        for prefix in ["ios", "ipados", "tvos", "macos", "watchos"] where item.hasPrefix(prefix) {
            let numbers = item.dropFirst(prefix.count).split(separator: ".").compactMap { Int($0) }
            guard let major = numbers.first else { return nil }
            return (prefix == "macos" ? major <= 10 : prefix == "watchos" ? major < 2 : major < 9) ? .ios9 : nil
        }
        return nil
    }
}
