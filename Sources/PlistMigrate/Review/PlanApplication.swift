import Foundation
import Migrations
import FileAccess

/// A version 2 review decision made ready to apply: where each reviewed file is on this machine,
/// the options of the run that reviewed it, and, per file, what must hold before anything is
/// written (`migrate(_:_:planned:migrator:)`).
public struct PlanApplication: Sendable {
    /// Each run's selection, in `decision.runs` order.
    let selections: [Selection]
    /// Whether the runs read the configs found beside the files, and their `--config` files
    /// (the same for every run of one decision).
    public let useConfig: Bool
    public let explicitConfig: Config?
    /// What the review saw of each file in scope that is here, by its absolute path now.
    let files: [String: ReviewDecision.File]
    let accepted: Set<String>
    let rejected: Set<String>
    /// The files to run, as the command line would name them (relative to the working
    /// directory when under it), in the decision's order.
    public let paths: [String]
    /// Reviewed files in scope whose repository is not on this machine, each with why: errors
    /// of the run.
    public let notHere: [(path: String, reason: String)]

    /// The decision's files under `scope` (absolute or relative paths; `nil`: the repository
    /// holding the working directory when it is one the decision reviewed, else every one).
    /// Recipes and configs are read again and must have the digests the review recorded.
    public static func prepare(_ decision: ReviewDecision, scope: [String]?) throws(FileError) -> PlanApplication {
        guard let runs = decision.runs, let repositories = decision.repositories, let reviewedFiles = decision.files else {
            throw FileError("the decision carries no plan (schemaVersion 1)")
        }
        var selections: [Selection] = [], configs: [Config?] = []
        for run in runs {
            for input in run.recipes + run.configs {
                let now = ReviewPlan.digest(ofFileAt: input.path)
                guard now == input.digest else {
                    throw FileError("\(input.path) " + (now == nil ? "cannot be read" : "changed since the review")
                        + ": the review ran with it as it was then; review again")
                }
            }
            let recipes: [RecipePass]
            do { recipes = try RecipeLoader.load(run.recipes.map(\.path)) } catch { throw FileError(error.description) }
            let config: Config?
            do { config = try Config.loading(run.configs.map(\.path)) } catch { throw FileError(error.line) }
            let selection = Selection(only: run.only, skip: run.skip, to: run.to, allowPolicyChange: run.allowPolicyChange ? true : nil,
                                      minimumOS: run.minimumOS, recipes: recipes.isEmpty ? nil : recipes)
            let passes = ReviewPlan.passes(of: selection)
            guard passes == run.passes else {
                throw FileError("the reviewed run's passes (\(run.passes.joined(separator: ", "))) are not those these options select now "
                    + "(\(passes.joined(separator: ", "))): review again")
            }
            selections.append(selection)
            configs.append(config)
        }
        // Where each repository is here: the checkout with its remote among those the command
        // names (its paths, or the working directory; a folder of checkouts counts each), so
        // that a copy or another clone is the one applied; else its reviewed root.
        let working = FileIO.absolute(".")
        var checkouts: [String: String] = [:]
        for place in scope?.map(FileIO.absolute) ?? [working] {
            let roots = ReportPaths.gitRoot(holding: place).map { [$0] }
                ?? ((try? FileManager.default.contentsOfDirectory(atPath: place)) ?? []).sorted()
                    .map { (place == "/" ? "" : place) + "/" + $0 }.filter(ReportPaths.isGitRoot)
            for root in roots {
                guard let remote = Report.remote(of: root) else { continue }
                if checkouts[remote] == nil { checkouts[remote] = root }
            }
        }
        let remotes = repositories.compactMap(\.remote)
        let located: [String?] = repositories.map { repository in
            if let remote = repository.remote, remotes.filter({ $0 == remote }).count == 1, let root = checkouts[remote] { return root }
            var info = stat()
            if stat(PathBytes.c(repository.root), &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return repository.root }
            return nil
        }
        func inside(_ path: String, _ directory: String) -> Bool {
            directory == "/" || path == directory || path.hasPrefix(directory + "/")
        }
        // Without a scope: the reviewed repository the working directory is in (the deepest).
        let scopes: [String]
        if let scope {
            scopes = scope.map(FileIO.absolute)
        } else if let current = located.compactMap({ $0 }).filter({ inside(working, $0) }).max(by: { $0.count < $1.count }) {
            scopes = [current]
        } else if let here = ReportPaths.gitRoot(holding: working) {
            // In a repository the review did not cover, applying every other one is surely not
            // what was meant.
            throw FileError("the repository here (\(here)) is none the decision reviewed (it reviewed "
                + "\(repositories.map(\.root).joined(separator: ", "))): run it in one of those, or above them to apply every one")
        } else {
            scopes = ["/"]
        }
        var files: [String: ReviewDecision.File] = [:], paths: [String] = [], notHere: [(String, String)] = []
        for file in reviewedFiles {
            let repository = repositories[file.repository]
            let reviewedAt = (repository.root == "/" ? "" : repository.root) + "/" + file.path
            guard let root = located[file.repository] else {
                // Out of scope where the scope names the reviewed place and it is elsewhere.
                guard scopes.contains(where: { inside(reviewedAt, $0) }) else { continue }
                let remote = repository.remote.map { " (\($0))" } ?? ""
                notHere.append((reviewedAt, "its repository\(remote) is not here: the review saw it at \(repository.root); "
                    + "run the page's command in that checkout"))
                continue
            }
            let location = (root == "/" ? "" : root) + "/" + file.path
            guard scopes.contains(where: { inside(location, $0) }) else { continue }
            files[location] = file
            paths.append(inside(location, working) && working != "/" ? String(location.dropFirst(working.count + 1)) : location)
        }
        if files.isEmpty && notHere.isEmpty {
            let place = scope.map { $0.joined(separator: ", ") } ?? "here"
            throw FileError("none of the \(reviewedFiles.count) file\(reviewedFiles.count == 1 ? "" : "s") the decision reviewed is under \(place) "
                + "(the review saw \(repositories.map(\.root).joined(separator: ", ")))")
        }
        // One run of the tool reads one set of configs: the runs applied together must agree.
        let used = Set(files.values.map(\.run)).sorted()
        func configsOf(_ run: ReviewPlan) -> String {
            run.configs.isEmpty ? (run.useConfig ? "the configs found" : "no config") : run.configs.map(\.path).joined(separator: " + ")
        }
        if let first = used.first, let other = used.first(where: { runs[$0].useConfig != runs[first].useConfig || runs[$0].configs != runs[first].configs }) {
            throw FileError("the reviewed runs read different configs (\(configsOf(runs[first])), \(configsOf(runs[other]))): "
                + "apply the decision to each run's files apart, naming their folders")
        }
        return PlanApplication(selections: selections, useConfig: used.first.map { runs[$0].useConfig } ?? true,
                               explicitConfig: used.first.flatMap { configs[$0] },
                               files: files, accepted: Set(decision.accepted), rejected: Set(decision.rejected), paths: paths,
                               notHere: notHere)
    }

    /// The reviewed file at `path` (as the run names it), if it is one.
    func planned(_ path: String) -> ReviewDecision.File? {
        files.isEmpty ? nil : files[FileIO.absolute(path)]
    }

    /// The run's options that the plan decides, from `given` on a command line: each that
    /// contradicts a run of the decision, said as one line each.
    public static func contradictions(_ decision: ReviewDecision, given: Selection, recipes: [String], configs: [String], noConfig: Bool) -> [String] {
        var lines: [String] = []
        for run in decision.runs ?? [] {
            for line in run.contradictions(given, recipes: recipes, configs: configs, noConfig: noConfig) where !lines.contains(line) {
                lines.append(line)
            }
        }
        return lines
    }
}
