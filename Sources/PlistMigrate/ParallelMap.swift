import Dispatch
import Foundation

/// `work(0) … work(count - 1)` on up to `jobs` threads, results in index order. Each thread
/// takes the next index when it is free: files differ a lot in cost (most are skipped unread,
/// a few carry hundreds of domains), so fixed shares would leave a thread idle at the end.
func parallelMap<Result>(count: Int, jobs: Int, _ work: @escaping @Sendable (Int) -> Result) -> [Result] {
    guard jobs > 1, count > 1 else { return (0..<count).map(work) }
    let slots = Slots<Result>(count: count)
    DispatchQueue.concurrentPerform(iterations: min(jobs, count)) { _ in
        while let index = slots.takeIndex() { slots.store(work(index), at: index) }
    }
    return slots.values
}

/// One slot per index, each written by exactly one thread. A plain lock (not
/// `Synchronization.Mutex`) keeps the macOS floor at 13.
private final class Slots<Result>: @unchecked Sendable {
    private var results: [Result?]
    private var next = 0
    private let lock = NSLock()

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func takeIndex() -> Int? {
        lock.withLock {
            guard next < results.count else { return nil }
            next += 1
            return next - 1
        }
    }

    func store(_ result: Result, at index: Int) {
        lock.withLock { results[index] = result }
    }

    var values: [Result] { lock.withLock { results.map { $0! } } }
}
