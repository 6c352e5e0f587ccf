import Foundation
import Migrations
import PlistDOM

/// ATS settings a generator takes from code (Tuist's `Project.swift` and its helpers, Expo's
/// `app.config.js`/`app.config.ts`): code is not evaluated, so nothing is rewritten. Each key
/// the passes would rename is found where it is written and reported with the exact change, as
/// the passes themselves decide it (a key tried in a plist at the level it can be written at).
enum CodeSources {
    /// One change a person makes in the code.
    struct Change: Sendable, Codable, Equatable {
        var line: Int
        var column: Int
        var from: String
        var to: String
        /// The pass that decides it (`ATS009 temporary-exception-keys`).
        var pass: String
    }

    /// Whether a walked file is a generator's code, by name.
    static func isCodeSource(_ path: String) -> Bool {
        // Asked of every file a run reads: the suffix first, without splitting the path.
        guard path.hasSuffix(".swift") || path.hasSuffix(".js") || path.hasSuffix(".ts") else { return false }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if ["Project.swift", "app.config.js", "app.config.ts"].contains(name) { return true }
        return name.hasSuffix(".swift") && path.contains("ProjectDescriptionHelpers/")
    }

    /// Which generator writes the Info.plist from the file, for people.
    static func generator(of path: String) -> String {
        path.hasSuffix(".swift") ? "Tuist" : "Expo"
    }

    /// The changes the passes would make to the keys written in `bytes`; none when the file
    /// does not name `NSAppTransportSecurity`.
    static func changes(in bytes: [UInt8], migrator: FileMigrator) -> [Change] {
        guard GeneratedSettings.namesAppTransportSecurity(bytes) else { return [] }
        let text = String(decoding: bytes, as: UTF8.self)
        var decided: [String: (to: String, pass: String)?] = [:]
        var changes: [Change] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for match in line.matches(of: /\bNS[A-Za-z]{6,}\b/) {
                let key = String(match.output)
                if decided[key] == nil { decided[key] = .some(rename(of: key, migrator: migrator)) }
                guard let found = decided[key] ?? nil else { continue }
                changes.append(Change(line: index + 1, column: line.distance(from: line.startIndex, to: match.range.lowerBound) + 1,
                                      from: key, to: found.to, pass: found.pass))
            }
        }
        return changes
    }

    /// What the passes rename `key` to, tried as a global key and as an exception domain's
    /// (`nil`: they leave it as it is at both).
    static func rename(of key: String, migrator: FileMigrator) -> (to: String, pass: String)? {
        let global = "<key>\(key)</key><true/>"
        let domain = "<key>NSExceptionDomains</key><dict><key>example.com</key><dict><key>\(key)</key><true/></dict></dict>"
        for body in [global, domain] {
            let plist = Array("<plist><dict><key>NSAppTransportSecurity</key><dict>\(body)</dict></dict></plist>\n".utf8)
            let run = migrator.migrate(plist, path: "Info.plist", skipIfNotApplicable: false)
            for pass in run.passes {
                for case .rename(_, let from, let to) in pass.plannedEdits where from == key {
                    return (to, "\(pass.id) \(pass.name)")
                }
            }
        }
        return nil
    }

    /// A code source through the plan: unchanged, its changes for a person listed.
    static func migrate<Lookups>(_ bytes: [UInt8], _ context: FileContext<Lookups>, migrator: FileMigrator) -> FileResult {
        var result = FileResult(path: context.path, status: .unchanged)
        // Every pass may decide a key: the run's own selection still says which run.
        let changes = self.changes(in: bytes, migrator: FileMigrator(plan: migrator.plan))
        if changes.isEmpty, context.skipIfNotApplicable {
            result.status = .skipped
            result.skipReason = !GeneratedSettings.namesAppTransportSecurity(bytes)
                ? "no NSAppTransportSecurity" : "no ATS key a pass changes"
        }
        result.sourceChanges = changes
        return result
    }

    /// `Project.swift:12:9: change: NSTemporaryException… → NSException… (ATS009 …); …`
    static func message(_ change: Change, path: String) -> String {
        "\(path):\(change.line):\(change.column): change: \(change.from) → \(change.to), value kept (\(change.pass)); "
            + "\(generator(of: path)) writes the Info.plist from this code, which the tool does not rewrite: change it here"
    }
}
