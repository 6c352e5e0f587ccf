// Room: Review. A review as a saved plan: what a run recorded (`ReviewPlan`, the options it ran
// with, and per changed file the digest of its bytes and of each pass's result), the decision
// a reviewer downloads (`ReviewDecision`, which carries the plan), and applying exactly that
// (`PlanApplication`). May call Run, Write, Recipes, Config and Support.
import Foundation
import Migrations
import FileAccess

/// The options a run was made with, as a review plan records them: what `apply` runs again,
/// and what a command line must not contradict. Its `digest` names the run.
public struct ReviewPlan: Codable, Equatable, Hashable, Sendable {
    /// `SHA256.digest` of this record written with an empty digest (sorted keys): two runs with
    /// the same options and inputs have the same digest.
    public var digest = ""
    public var toolVersion = ToolVersion.current
    /// The passes the run selected, in order, as `ID@VERSION`.
    public var passes: [String] = []
    public var only: [String]?
    public var skip: [String]?
    public var to: Int?
    public var allowPolicyChange = false
    public var minimumOS: String?
    /// Whether `.plist-migrate.json` files found beside the files were read (`--no-config`: not).
    public var useConfig = true
    /// `--recipe` files and `--config` files, each with its absolute path and digest: a file
    /// that changed since the review is refused before anything is read.
    public var recipes: [InputFile] = []
    public var configs: [InputFile] = []

    public struct InputFile: Codable, Equatable, Hashable, Sendable {
        public var path: String
        public var digest: String
    }

    /// The plan of a run with these options; `recipes` and `configs` are the files given on the
    /// command line (read again here for their digests).
    init(options: RunOptions) {
        let selection = options.selection
        passes = Self.passes(of: selection)
        only = selection.only
        skip = selection.skip
        to = selection.to
        allowPolicyChange = selection.allowPolicyChange ?? false
        minimumOS = selection.minimumOS
        useConfig = options.useConfig
        recipes = options.recipeFiles.map(Self.inputFile)
        configs = options.configFiles.map(Self.inputFile)
        digest = computedDigest()
    }

    /// The passes `selection` runs, as a plan lists them (`ATS001@1`).
    static func passes(of selection: Selection) -> [String] {
        ((try? selection.plan())?.selected ?? []).map { "\($0.id)@\($0.version)" }
    }

    static func inputFile(_ path: String) -> InputFile {
        InputFile(path: FileIO.absolute(path), digest: digest(ofFileAt: path) ?? "unreadable")
    }

    /// The digest of the file at `path` as it is now; `nil` when it cannot be read.
    static func digest(ofFileAt path: String) -> String? {
        (try? FileIO.load(path).bytes).map(SHA256.digest)
    }

    func computedDigest() -> String {
        var blank = self
        blank.digest = ""
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return SHA256.digest(Array((try? encoder.encode(blank)) ?? Data()))
    }

    /// The options of this plan that `given` (a command line's) contradicts, each as
    /// `--min-os ios12 (reviewed: ios15)`; empty when it says nothing else.
    func contradictions(_ given: Selection, recipes: [String], configs: [String], noConfig: Bool) -> [String] {
        let list = ReportMerge.idList
        var found: [String] = []
        if let only = given.only, list(only) != list(self.only) { found.append("--only \(list(only)) (reviewed: \(list(self.only)))") }
        if let skip = given.skip, list(skip) != list(self.skip) { found.append("--skip \(list(skip)) (reviewed: \(list(self.skip)))") }
        if let to = given.to, to != self.to { found.append("--to \(to) (reviewed: \(self.to.map(String.init) ?? "not given"))") }
        if given.allowPolicyChange == true, !allowPolicyChange { found.append("--allow-policy-change (reviewed without it)") }
        if let os = given.minimumOS, os != minimumOS { found.append("--min-os \(os) (reviewed: \(minimumOS ?? "not given"))") }
        let givenRecipes = recipes.map(FileIO.absolute)
        if !givenRecipes.isEmpty, givenRecipes != self.recipes.map(\.path) {
            found.append("--recipe \(givenRecipes.joined(separator: " ")) (reviewed: \(self.recipes.isEmpty ? "none" : self.recipes.map(\.path).joined(separator: " ")))")
        }
        let givenConfigs = configs.map(FileIO.absolute)
        if !givenConfigs.isEmpty, givenConfigs != self.configs.map(\.path) {
            found.append("--config \(givenConfigs.joined(separator: " ")) (reviewed: \(self.configs.isEmpty ? "none" : self.configs.map(\.path).joined(separator: " ")))")
        }
        if noConfig, useConfig { found.append("--no-config (reviewed with the configs found)") }
        return found
    }
}
