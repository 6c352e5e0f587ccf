import Foundation
/// The OS releases between which ATS behaves differently, per Apple's key documentation.
/// iPadOS and visionOS follow iOS's numbering here; tvOS and watchOS follow iOS as well.
public enum OSEra: Int, CaseIterable, Sendable, Comparable, Codable {
    /// iOS 9, macOS 10.11: ATS as introduced.
    case ios9 = 9
    /// iOS 10–12.1, macOS 10.12–10.14.2: the ForMedia/InWebContent/LocalNetworking keys exist,
    /// and NSRequiresCertificateTransparency switches CT on per domain.
    case ios10 = 10
    /// iOS 12.1.1–13, macOS 10.14.3–10.15: Apple's Certificate Transparency policy is enforced
    /// for publicly trusted server certificates, whatever the plist says.
    case ios12 = 12
    /// iOS 14–16, macOS 11–13: NSPinnedDomains exists.
    case ios14 = 14
    /// iOS 17+, macOS 14+: IP addresses may be exception-domain keys.
    case ios17 = 17

    public static func < (lhs: OSEra, rhs: OSEra) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The next era, if any.
    public var successor: OSEra? {
        let all = Self.allCases
        let index = all.firstIndex(of: self)! + 1
        return index < all.count ? all[index] : nil
    }

    var iosRange: (first: Int, last: Int?) {
        switch self {
        case .ios9: (9, 9)
        case .ios10: (10, 12)
        case .ios12: (12, 13)
        case .ios14: (14, 16)
        case .ios17: (17, nil)
        }
    }

    var macRange: (first: String, last: String?) {
        switch self {
        case .ios9: ("10.11", "10.11")
        case .ios10: ("10.12", "10.14.2")
        case .ios12: ("10.14.3", "10.15")
        case .ios14: ("11", "13")
        case .ios17: ("14", nil)
        }
    }

    /// `iOS 10–16/macOS 10.12–13`, `iOS 17+/macOS 14+`, `iOS 9/macOS 10.11`: the label for iOS
    /// and macOS (`EraLabels` names the platforms an app is built for).
    public static func label(from first: OSEra, through last: OSEra) -> String {
        EraLabels.iosAndMacOS.label(from: first, through: last)
    }

    static func rangeText(_ first: String, _ last: String?) -> String {
        guard let last else { return first + "+" }
        return first == last ? first : "\(first)–\(last)"
    }

    public var label: String { Self.label(from: self, through: self) }

    var iosFirstText: String { self == .ios12 ? "12.1.1" : String(iosRange.first) }
    var iosLastText: String? { self == .ios10 ? "12.1" : iosRange.last.map(String.init) }

    /// Parses `ios9`, `ios16.4`, `ipados15`, `tvos12`, `visionos1`, `watchos8`, `macos10.11`, `macos14`.
    ///
    /// watchOS: Apple's CT payload page lists watchOS 5.1.1 beside iOS 12.1.1, so
    /// the CT era starts there. For the other eras Apple's ATS key pages list no watchOS at all:
    /// each watchOS release is read as the iOS it shipped with (watchOS 2 with iOS 9, 3 with
    /// 10, 7 with 14, 10 with 17), an inference `watchOSIsInferred` lets callers say.
    public init?(os text: String) {
        let lower = text.lowercased()
        if lower.hasPrefix("watchos") {
            let numbers = lower.dropFirst("watchos".count).split(separator: ".").compactMap { Int($0) }
            guard let major = numbers.first else { return nil }
            let late = major > 5 || (major == 5 && (numbers.count > 1 ? numbers[1] : 0, numbers.count > 2 ? numbers[2] : 0) >= (1, 1))
            switch major {
            case ..<2: return nil
            case 2: self = .ios9
            case 3...5 where !late: self = .ios10
            case 5...6: self = .ios12
            case 7...9: self = .ios14
            default: self = .ios17
            }
            return
        }
        let prefixes: [(String, Bool)] = [("ipados", false), ("ios", false), ("tvos", false), ("visionos", false), ("macos", true)]
        guard let (prefix, isMac) = prefixes.first(where: { lower.hasPrefix($0.0) }) else { return nil }
        let numbers = lower.dropFirst(prefix.count).split(separator: ".").compactMap { Int($0) }
        guard let major = numbers.first else { return nil }
        let minor = numbers.count > 1 ? numbers[1] : 0
        let patch = numbers.count > 2 ? numbers[2] : 0
        if prefix == "visionos" {
            self = .ios17
            return
        }
        let ios: Int
        if isMac {
            // macOS 10.11 ~ iOS 9, 10.12–10.14.2 ~ iOS 10–12.1, 10.14.3–10.15 ~ iOS 12.1.1–13,
            // 11–13 ~ iOS 14–16, 14+ ~ iOS 17+.
            if major == 10 {
                ios = minor == 11 ? 9 : minor < 11 ? 0 : (minor > 14 || (minor == 14 && patch >= 3)) ? 12 : 10
            } else {
                ios = major + 3
            }
        } else {
            // iOS, iPadOS and tvOS 12.1.1 start the CT era.
            ios = major == 12 && (minor, patch) >= (1, 1) ? 12 : major == 12 ? 11 : major
        }
        switch ios {
        case 9: self = .ios9
        case 10...11: self = .ios10
        case 12...13: self = .ios12
        case 14...16: self = .ios14
        case 17...: self = .ios17
        default: return nil
        }
    }
}

/// What is being loaded: ATS has separate switches for media and web content.
public enum LoadKind: String, CaseIterable, Sendable, Codable {
    case urlSession, media, webView
}

/// How an era is named for the platforms an app is built for: `iOS 17+/macOS 14+` when nothing
/// says which (ATS's eras are dated by iOS and macOS releases), `watchOS 10+` for a watch app,
/// `iOS 15+` alone for an iOS app. tvOS and iPadOS follow iOS's numbers; watchOS's releases are
/// those that shipped with each iOS (`OSEra(os:)`); visionOS exists from the last era on.
public struct EraLabels: Sendable, Hashable {
    public enum Platform: String, CaseIterable, Sendable {
        case ios, ipados, macos, tvos, visionos, watchos

        var name: String {
            switch self {
            case .ios: "iOS"
            case .ipados: "iPadOS"
            case .macos: "macOS"
            case .tvos: "tvOS"
            case .visionos: "visionOS"
            case .watchos: "watchOS"
            }
        }

        /// The platform's first and last release in `era`; `nil` where it did not exist.
        func range(_ era: OSEra) -> (first: String, last: String?)? {
            switch self {
            case .ios, .ipados, .tvos: (era.iosFirstText, era.iosLastText)
            case .macos: era.macRange
            case .visionos: era == .ios17 ? ("1", nil) : nil
            case .watchos:
                switch era {
                case .ios9: ("2", "2")
                case .ios10: ("3", "5.1")
                case .ios12: ("5.1.1", "6")
                case .ios14: ("7", "9")
                case .ios17: ("10", nil)
                }
            }
        }
    }

    /// In this order, each once.
    public let platforms: [Platform]

    public static let iosAndMacOS = EraLabels(platforms: [.ios, .macos])

    public init(platforms: [Platform]) {
        let named = Set(platforms)
        self.platforms = Platform.allCases.filter(named.contains)
    }

    /// The platforms `target` names (`ios15,macos12`); iOS and macOS when there is none.
    public init(_ target: DeploymentTarget?) {
        let named = target?.platforms.compactMap { Platform(rawValue: DeploymentTarget.split($0).platform) } ?? []
        self = named.isEmpty ? .iosAndMacOS : EraLabels(platforms: named)
    }

    /// `iOS 14–16/macOS 11–13`: each platform from its first release in `first` (or the first
    /// era it exists in) through its last in `last`; a platform that did not exist yet is left out.
    /// Policy lines ask for a few labels many times: each is made once per process.
    public func label(from first: OSEra, through last: OSEra) -> String {
        let key = LabelKey(platforms: platforms, first: first, last: last)
        if let known = Self.cache.withLock({ $0[key] }) { return known }
        let made = makeLabel(from: first, through: last)
        Self.cache.withLock { $0[key] = made }
        return made
    }

    private struct LabelKey: Hashable {
        var platforms: [Platform]
        var first: OSEra
        var last: OSEra
    }

    private static let cache = LockedLabels()

    /// A dictionary behind a lock (threads of a run share it).
    private final class LockedLabels: @unchecked Sendable {
        private let lock = NSLock()
        private var labels: [LabelKey: String] = [:]
        func withLock<T>(_ body: (inout [LabelKey: String]) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(&labels)
        }
    }

    private func makeLabel(from first: OSEra, through last: OSEra) -> String {
        let parts = platforms.compactMap { platform -> String? in
            guard let start = OSEra.allCases.first(where: { $0 >= first && $0 <= last && platform.range($0) != nil }),
                let from = platform.range(start), let through = platform.range(last)
            else { return nil }
            return platform.name + " " + OSEra.rangeText(from.first, through.last)
        }
        return parts.isEmpty ? Self.iosAndMacOS.label(from: first, through: last) : parts.joined(separator: "/")
    }

    public func label(_ era: OSEra) -> String { label(from: era, through: era) }
}
