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

    /// `iOS 10–16/macOS 10.12–13`, `iOS 17+/macOS 14+`, `iOS 9/macOS 10.11`.
    public static func label(from first: OSEra, through last: OSEra) -> String {
        let ios = rangeText(first.iosFirstText, last.iosLastText, same: first == last)
        let mac = rangeText(first.macRange.first, last.macRange.last, same: first == last)
        return "iOS \(ios)/macOS \(mac)"
    }

    private static func rangeText(_ first: String, _ last: String?, same: Bool) -> String {
        guard let last else { return first + "+" }
        return first == last ? first : "\(first)–\(last)"
    }

    public var label: String { Self.label(from: self, through: self) }

    private var iosFirstText: String { self == .ios12 ? "12.1.1" : String(iosRange.first) }
    private var iosLastText: String? { self == .ios10 ? "12.1" : iosRange.last.map(String.init) }

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
