import Foundation

/// The review page's long file lists, kept out of its HTML (a 10,000-file fleet's
/// page was 0.8 MB, most of it lists of thousands of paths nobody reads one by one). A list of
/// more than `shownInHTML` files shows its first ones in the HTML, for a reader without the
/// script, and the whole list goes to one compact JSON block the page's script reads:
///
/// - `paths`: every listed path once, sorted, each written as `P|S|middle`: the first P and the
///   last S UTF-16 units are the previous path's (front and back coding; a monorepo's paths
///   share most of their text: `app01234/Info.plist` after `app01233/Info.plist` is `7|11|4`).
/// - `repos`: each path's repository index (absent when no path has one).
/// - `bases`: each repository's forge link to its files at the reviewed commit (or `null`).
/// - `lists`: per list, `i` the path indices as differences from the one before; `e` each
///   file's edits where any is not 1; `t` what is shown after the path where it is more than the
///   path (a conflict's `:line:column`); `u` each file's link after its repository's base.
final class ReviewFileLists {
    static let shownInHTML = 20

    private let model: ReviewModel
    private var lists: [[ReviewModel.Place]] = []
    private var shown: [[String]] = []

    init(_ model: ReviewModel) {
        self.model = model
    }

    /// Keeps a long list for the JSON block; returns its number.
    func add(_ files: [ReviewModel.Place], shown texts: [String]) -> Int {
        lists.append(files)
        shown.append(texts)
        return lists.count - 1
    }

    var isEmpty: Bool { lists.isEmpty }

    /// The JSON block (`<script type="application/json" id="file-lists">`), `<` escaped.
    func json() -> String {
        // Paths as bytes: Swift's String equality is canonical, so `é` and `e` + U+0301, two
        // files, would be one.
        let keys = Set(lists.joined().map { Array($0.path.utf8) }).sorted { $0.lexicographicallyPrecedes($1) }
        let index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        var out = "{\"paths\":["
        var previous: [UInt16] = []
        for (position, key) in keys.enumerated() {
            // As the page shows it: invisible characters as marks.
            let units = Array(ReviewPage.visible(String(decoding: key, as: UTF8.self)).utf16)
            let limit = min(units.count, previous.count)
            var prefix = 0
            while prefix < limit, units[prefix] == previous[prefix] { prefix += 1 }
            // Never between the two halves of a surrogate pair: the middle stays whole text.
            if prefix > 0, UTF16.isLeadSurrogate(units[prefix - 1]) { prefix -= 1 }
            var suffix = 0
            while suffix < limit - prefix, units[units.count - 1 - suffix] == previous[previous.count - 1 - suffix] { suffix += 1 }
            if suffix > 0, UTF16.isTrailSurrogate(units[units.count - suffix]) { suffix -= 1 }
            let middle = String(decoding: units[prefix..<(units.count - suffix)], as: UTF16.self)
            out += (position == 0 ? "" : ",") + Self.string("\(prefix)|\(suffix)|" + middle)
            previous = units
        }
        out += "]"
        var repository: [[UInt8]: Int] = [:]
        for place in lists.joined() { if let r = place.repository { repository[Array(place.path.utf8)] = r } }
        if !repository.isEmpty {
            out += ",\"repos\":[" + keys.map { repository[$0].map(String.init) ?? "-1" }.joined(separator: ",") + "]"
        }
        let bases = (model.document.repositories ?? []).map { repository in
            ForgeLinks.link(remote: repository.remote, commit: repository.commit, path: "", line: nil)
        }
        if bases.contains(where: { $0 != nil }) {
            out += ",\"bases\":[" + bases.map { $0.map(Self.string) ?? "null" }.joined(separator: ",") + "]"
        }
        out += ",\"lists\":["
        for (number, files) in lists.enumerated() {
            var last = 0
            let deltas = files.map { place -> String in
                let at = index[Array(place.path.utf8)]!
                defer { last = at }
                return String(at - last)
            }
            out += (number == 0 ? "" : ",") + "{\"i\":[" + deltas.joined(separator: ",") + "]"
            if files.contains(where: { ($0.edits ?? 1) != 1 }) {
                out += ",\"e\":[" + files.map { String($0.edits ?? 0) }.joined(separator: ",") + "]"
            }
            let texts = shown[number]
            if texts.enumerated().contains(where: { $0.element != files[$0.offset].path }) {
                out += ",\"t\":[" + texts.enumerated().map { offset, text in
                    Self.string(ReviewPage.visible(text.hasPrefix(files[offset].path) ? String(text.dropFirst(files[offset].path.count)) : text))
                }.joined(separator: ",") + "]"
            }
            let links = files.map { place -> String? in
                guard let link = model.link(place), let r = place.repository, r < bases.count, let base = bases[r], link.hasPrefix(base)
                else { return nil }
                return String(link.dropFirst(base.count))
            }
            if links.contains(where: { $0 != nil }) {
                out += ",\"u\":[" + links.map { $0.map(Self.string) ?? "null" }.joined(separator: ",") + "]"
            }
            out += "}"
        }
        out += "]}"
        return out.replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// A JSON string; `/` and non-ASCII text as they are (JSONEncoder would write `\/`).
    static func string(_ text: String) -> String {
        "\"" + TextEscaping.replacing(text) { scalar in
            switch scalar {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            case "\u{2028}", "\u{2029}": return "\\u" + String(scalar.value, radix: 16)
            case _ where scalar.value < 0x20: return "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: return nil
            }
        } + "\""
    }
}
