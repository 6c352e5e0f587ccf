/// Mac Catalyst's version map, read from `Resources/catalyst-version-map.tsv`: the VersionMap of
/// the macOS SDK's `SDKSettings.json`, which Xcode reads to pick the macOS a Mac Catalyst build
/// needs (iOS 18.5 → macOS 15.5; the minors do not follow a rule: iOS 14.0–14.2 → macOS 11.0).
enum CatalystVersionMap {
    struct Row {
        var from: [Int]
        var to: String
    }

    /// Each direction's rows, in ascending order of `from`.
    static let (iOSToMacOS, macOSToIOS): ([Row], [Row]) = {
        var forward: [Row] = [], backward: [Row] = []
        for line in String(decoding: PackageResources.catalyst_version_map_tsv, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t")
            guard fields.count == 3, let from = numbers(fields[1]) else { continue }
            let row = Row(from: from, to: String(fields[2]))
            if fields[0] == "iOSMac_macOS" { forward.append(row) } else if fields[0] == "macOS_iOSMac" { backward.append(row) }
        }
        return (forward.sorted { $0.from.lexicographicallyPrecedes($1.from) }, backward.sorted { $0.from.lexicographicallyPrecedes($1.from) })
    }()

    /// The map's result for `version`: its own row, else the row of the nearest earlier version
    /// it lists (iOS 15.1, which the SDK does not list, is 15.0's macOS 12.0). `nil` for a version
    /// after the last row: a newer SDK's map would know it, and it is not guessed.
    static func lookUp(_ version: String, in rows: [Row]) -> String? {
        guard let wanted = numbers(Substring(version)), let last = rows.last else { return nil }
        let padded = { (parts: [Int]) in parts + Array(repeating: 0, count: max(0, 3 - parts.count)) }
        let target = padded(wanted)
        // Past the last row's version (26.1 and its patch releases are still that row).
        guard !padded(Array(last.from.prefix(2))).lexicographicallyPrecedes(padded(Array(target.prefix(2)))) else { return nil }
        return rows.last { !target.lexicographicallyPrecedes(padded($0.from)) }?.to ?? rows.first?.to
    }

    /// The macOS a Mac Catalyst app of iOS deployment target `version` runs on; `nil` before
    /// iOS 13 (no Mac Catalyst) and after the map's last row.
    static func macOS(ofIOS version: String) -> String? {
        guard let major = numbers(Substring(version))?.first, major >= 13 else { return nil }
        return lookUp(version, in: iOSToMacOS)
    }

    /// The iOS version a Mac Catalyst app built for macOS `version` has (the map's reverse).
    static func iOS(ofMacOS version: String) -> String? {
        lookUp(version, in: macOSToIOS)
    }

    /// The newest iOS version the map lists, for the note when a version is past it.
    static var newestIOS: String { iOSToMacOS.last.map { $0.from.map(String.init).joined(separator: ".") } ?? "none" }

    static func numbers(_ text: Substring) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
        return parts.map { $0! }
    }
}
