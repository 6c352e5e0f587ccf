import ATSPolicy
import Migrations
import Project

extension Runner {
    /// A file with everything its migration needs.
    struct Job: Sendable, FileLookups {
        var file: DiscoveredFile
        var migrator: FileMigrator
        /// From `--min-os` or the config; else `projects` finds the nearest project's; `nil` from
        /// both: the plist's own, if any.
        var deploymentTarget: DeploymentTarget?
        var projects: ProjectDeploymentTargets?
        var index: ProjectIndex?
        /// Gives `a/PATH` in diffs: relative to the file's repository root (or the working
        /// directory).
        var repositories: RepositoryRoots
        /// Applying a review plan: the plan, and what the review saw of this file.
        var review: (plan: PlanApplication, file: ReviewDecision.File)? = nil
        /// The absolute directory the file lies in, when its config was looked up there: the
        /// project look-up starts from it too.
        var directory: String? = nil

        /// The project files around the file, looked up once for the three questions below
        ///: most files of a monorepo have none, and then nothing else is asked.
        let around = ProjectsAround()

        private func projectFiles() -> [String] {
            guard let index, file.path != "-" else { return [] }
            return around.files { index.projectFiles(from: directory ?? DirectoryFacts.directory(ofFile: file.path)) }
        }

        /// Looked up while the files are processed (in parallel), and only for a file that
        /// holds the ATS dict.
        func projectTarget() -> DeploymentTarget? {
            guard let projects, !projectFiles().isEmpty else { return nil }
            return projects.target(forFile: file.path)
        }

        func claimingTargets() -> [ProjectTarget] {
            let files = projectFiles()
            guard let index, !files.isEmpty else { return [] }
            return index.targets(claiming: file.path, projects: files)
        }

        func projectNotes() -> [String] {
            let files = projectFiles()
            guard let index, !files.isEmpty else { return [] }
            return index.notes(forFile: file.path, projects: files)
        }

        func diffPath() -> String? { diffPathText }

        var diffPathText: String {
            file.path == "-" ? "-" : repositories.diffPath(for: file.path)
        }
    }

    /// Pairs each file with the plan its nearest config and the command line give it. Used by
    /// one thread.
    /// One file's project files, once looked up (a job is processed on one thread).
    final class ProjectsAround: @unchecked Sendable {
        private var known: [String]?
        func files(_ lookUp: () -> [String]) -> [String] {
            if let known { return known }
            let found = lookUp()
            known = found
            return found
        }
    }

    final class JobPlanner {
        private let options: RunOptions
        private let resolver: ConfigResolver
        private let projects: ProjectDeploymentTargets
        let index: ProjectIndex
        private let repositories: RepositoryRoots
        private var migrators: [Selection: FileMigrator] = [:]

        init(options: RunOptions, directories: DirectoryFacts) {
            self.options = options
            resolver = ConfigResolver(directories: directories, explicit: options.explicitConfig)
            index = ProjectIndex(directories: directories)
            projects = ProjectDeploymentTargets(directories: directories, index: index)
            repositories = RepositoryRoots(directories: directories)
        }

        /// The file's job; `nil` for a walked file its config excludes; an error for an invalid
        /// config (or a selection no plan can be made of).
        func job(for file: DiscoveredFile) -> Result<Job?, Config.ConfigError> {
            // A reviewed file runs with the options of the run that reviewed it.
            let review = options.reviewPlan.flatMap { plan in plan.planned(file.path).map { (plan, $0) } }
            let given = review.map { $0.0.selections[$0.1.run] } ?? options.selection
            var selection = given
            var targetSource = "--min-os"
            var directory: String?
            if options.useConfig, file.path != "-" {
                let found = DirectoryFacts.directory(ofFile: file.path)
                directory = found
                switch resolver.config(forFileIn: found) {
                case .failure(let error):
                    return .failure(error)
                case .success(let config?):
                    if !file.explicit || options.forceExclude, Runner.isExcluded(file.path, by: config) { return .success(nil) }
                    selection = given.overriding(config.selection)
                    if given.minimumOS == nil { targetSource = config.minimumOSSource ?? config.path }
                case .success(nil):
                    break
                }
            }
            let migrator: FileMigrator
            if let known = migrators[selection] {
                migrator = known
            } else {
                do {
                    var made = FileMigrator(plan: try selection.plan(), accepted: options.accepted)
                    made.reviewed = options.reviewed
                    migrator = made
                } catch {
                    return .failure(Config.ConfigError(path: file.path, message: error.description))
                }
                migrators[selection] = migrator
            }
            let target = selection.minimumOS.flatMap { DeploymentTarget($0, source: targetSource) }
            return .success(Job(file: file, migrator: migrator, deploymentTarget: target, projects: projects, index: index,
                                repositories: repositories, review: review, directory: directory))
        }

        /// Every file's job, in order, dropping walked files a config excludes; every invalid
        /// config is an error before anything runs.
        func jobs(for files: [DiscoveredFile]) -> Result<[Job], PlanErrors> {
            var errors: [Config.ConfigError] = []
            var jobs: [Job] = []
            jobs.reserveCapacity(files.count)
            // Up to two folders per file are looked up, its own and, in a tree of repositories,
            // the app folder above it: the tables are sized once, not regrown.
            index.expectDirectories(2 * files.count)
            if options.useConfig { resolver.expectDirectories(2 * files.count) }
            for file in files {
                switch job(for: file) {
                case .failure(let error):
                    if !errors.contains(error) { errors.append(error) }
                case .success(let job?):
                    jobs.append(job)
                case .success(nil):
                    break
                }
            }
            return errors.isEmpty ? .success(jobs) : .failure(PlanErrors(errors: errors))
        }
    }

    struct PlanErrors: Error {
        var errors: [Config.ConfigError]
    }
}
