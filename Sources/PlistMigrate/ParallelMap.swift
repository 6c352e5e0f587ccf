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

/// `work(0) … work(count - 1)` on up to `jobs` threads, each result handed to `consume` on the
/// calling thread in index order as soon as it and those before it are done: consuming
/// (printing a diff) overlaps the work, and no batch waits for its slowest file. At most
/// `window` results wait to be consumed, so memory stays bounded however many files there are.
func parallelForEach<Result>(
    count: Int, jobs: Int, window: Int, _ work: @escaping @Sendable (Int) -> Result, consume: (Int, Result) -> Void
) {
    guard jobs > 1, count > 1 else {
        for index in 0..<count { consume(index, work(index)) }
        return
    }
    let queue = OrderedResults<Result>(count: count, window: max(window, jobs))
    let group = DispatchGroup()
    for _ in 0..<min(jobs, count) {
        DispatchQueue.global().async(group: group) {
            while let index = queue.takeIndex() { queue.store(work(index), at: index) }
        }
    }
    for index in 0..<count { consume(index, queue.take(index)) }
    group.wait()
}

/// The results between the next one to consume and the furthest one handed out, in a ring of
/// `window` slots; a worker waits before taking an index that would overrun it.
private final class OrderedResults<Result>: @unchecked Sendable {
    private var ring: [Result?]
    private var next = 0
    private var consumed = 0
    private let count: Int
    private let condition = NSCondition()

    init(count: Int, window: Int) {
        self.count = count
        ring = Array(repeating: nil, count: window)
    }

    func takeIndex() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while next < count, next >= consumed + ring.count { condition.wait() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }

    func store(_ result: Result, at index: Int) {
        condition.lock()
        ring[index % ring.count] = result
        condition.broadcast()
        condition.unlock()
    }

    func take(_ index: Int) -> Result {
        condition.lock()
        defer { condition.unlock() }
        while ring[index % ring.count] == nil { condition.wait() }
        let result = ring[index % ring.count]!
        ring[index % ring.count] = nil
        consumed = index + 1
        condition.broadcast()
        return result
    }
}
