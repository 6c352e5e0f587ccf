import Foundation
import FileAccess

/// The plan a review page carries into the decision it downloads, made from the (possibly
/// merged) JSON report it shows: each run's options, the repositories, and every changed file
/// with the digest of its bytes and of each pass application's result.
struct DecisionPlan: Encodable {
    var runs: [ReviewPlan]
    var repositories: [ReviewDecision.Repository]
    var files: [ReviewDecision.File]

    /// `nil` for a report that records no plan (made by an older version of the tool).
    init?(_ document: Report.Document) {
        guard let plans = document.plans, !plans.isEmpty else { return nil }
        runs = plans
        repositories = []
        files = []
        var indexOf: [String: Int] = [:]
        func repository(_ record: ReviewDecision.Repository) -> Int {
            if let known = indexOf[record.root] { return known }
            repositories.append(record)
            indexOf[record.root] = repositories.count - 1
            return repositories.count - 1
        }
        let known = document.repositories ?? []
        for file in document.files {
            guard let digest = file.digest, let run = file.plan, plans.indices.contains(run),
                file.passes.allSatisfy({ $0.result != nil && $0.group != nil })
            else { continue }
            let root: ReviewDecision.Repository
            if let index = file.repository, known.indices.contains(index) {
                root = ReviewDecision.Repository(root: known[index].root, remote: known[index].remote, commit: known[index].commit)
            } else {
                root = ReviewDecision.Repository(root: document.base ?? "/")
            }
            guard let path = ReviewModel.pathInRepository(file.path, root: root.root, base: document.base) else { continue }
            files.append(ReviewDecision.File(
                run: run, repository: repository(root), path: path, digest: digest,
                passes: file.passes.map { ReviewDecision.Application(kind: $0.group!, result: $0.result!) }))
        }
    }

    /// As the page embeds it: compact JSON with `<` escaped, so that no text closes the script
    /// element, and every character a reader cannot see escaped too (`\u202e`), so that the page
    /// holds none of them as itself; the script's JSON reading gives each back.
    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            guard scalar == "<" || InvisibleCharacters.contains(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out
    }
}
