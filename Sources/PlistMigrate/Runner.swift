import Dispatch
import Synchronization
import Migrations
import PlistDOM

/// Finds the files, migrates them in parallel batches, writes when asked, and reports in path
/// order: the output is byte-identical whatever the number of jobs.
public final class Runner {
    public static let batchSize = 256

    let options: RunOptions
    let sink: any OutputSink
    let readStandardInput: () -> [UInt8]
    private var report: Report

    public init(options: RunOptions, sink: any OutputSink, readStandardInput: @escaping () -> [UInt8] = { [] }) {
        self.options = options
        self.sink = sink
        self.readStandardInput = readStandardInput
        self.report = Report(options: options)
    }

    /// Runs and returns the exit status: 0 fine, 1 `--check` found pending changes,
    /// 2 a file failed (parse, conflict, I/O).
    public func run() -> Int32 {
        let (files, missing) = FileDiscovery.discover(options.paths)
        for (path, error) in missing {
            var result = FileResult(path: path, status: .error)
            result.error = error
            emit(result)
        }
        let migrator = FileMigrator(plan: options.plan)
        var start = 0
        while start < files.count {
            let batch = Array(files[start..<min(files.count, start + Self.batchSize)])
            for result in process(batch, migrator) { emit(result) }
            start += batch.count
        }
        finish()
        return report.exitStatus(check: options.check)
    }

    private func process(_ batch: [DiscoveredFile], _ migrator: FileMigrator) -> [FileResult] {
        let results = ResultSlots(count: batch.count)
        let write = options.write
        let stdinBytes = batch.contains { $0.path == "-" } ? readStandardInput() : []
        let work: @Sendable (Int) -> Void = { index in
            results.store(Self.processOne(batch[index], migrator, write: write, stdin: stdinBytes), at: index)
        }
        if options.jobs <= 1 || batch.count == 1 {
            for index in batch.indices { work(index) }
        } else {
            let jobs = min(options.jobs, batch.count)
            DispatchQueue.concurrentPerform(iterations: jobs) { worker in
                var index = worker
                while index < batch.count {
                    work(index)
                    index += jobs
                }
            }
        }
        return results.values
    }

    private static func processOne(_ file: DiscoveredFile, _ migrator: FileMigrator, write: Bool, stdin: [UInt8]) -> FileResult {
        let bytes: [UInt8]
        var fingerprint: FileFingerprint?
        if file.path == "-" {
            bytes = stdin
        } else {
            do {
                (bytes, fingerprint) = try FileIO.load(file.path)
            } catch {
                var result = FileResult(path: file.path, status: .error)
                result.error = error
                return result
            }
        }
        var result = migrator.migrate(bytes, path: file.path, skipIfNotApplicable: !file.explicit)
        result.fingerprint = fingerprint
        if write, result.status == .changed, let fingerprint {
            do {
                try FileIO.replace(file.path, with: result.output, expected: fingerprint, original: bytes)
                result.written = true
            } catch {
                result.status = .error
                result.error = error
            }
        }
        return result
    }

    private func emit(_ result: FileResult) {
        if result.path == "-" && options.write {
            sink.standardOutput(result.status == .error ? [] : result.output)
        } else {
            switch options.format {
            case .text:
                for pass in result.passes {
                    sink.standardOutput(Array("# \(pass.label)\n\(pass.diff)".utf8))
                }
            case .patch:
                if result.status == .changed || result.written, let diff = result.combinedDiff {
                    sink.standardOutput(Array(diff.utf8))
                }
            case .json:
                break
            }
        }
        for line in Self.diagnosticLines(result) { sink.standardError(line + "\n") }
        report.add(result)
    }

    static func diagnosticLines(_ result: FileResult) -> [String] {
        var lines: [String] = []
        if let error = result.error { lines.append(error.line(path: result.path)) }
        for diagnostic in result.diagnostics {
            lines.append("\(result.path):\(diagnostic.location.line):\(diagnostic.location.column): error: "
                + "\(diagnostic.migrationID): \(diagnostic.message)")
        }
        for id in result.heldBack {
            guard let migration = MigrationRegistry.migration(id: id) else { continue }
            lines.append("\(result.path): note: \(migration.label) held back; add --allow-policy-change to include it")
        }
        return lines
    }

    private func finish() {
        if options.format == .json {
            sink.standardOutput(report.json())
        }
        if !(options.write && options.paths == ["-"]) {
            sink.standardError(report.summaryLine() + "\n")
        }
    }
}

/// One slot per file of a batch, each written by exactly one worker.
private final class ResultSlots: Sendable {
    private let slots: Mutex<[FileResult?]>

    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

    func store(_ result: FileResult, at index: Int) {
        slots.withLock { $0[index] = result }
    }

    var values: [FileResult] { slots.withLock { $0.map { $0! } } }
}
