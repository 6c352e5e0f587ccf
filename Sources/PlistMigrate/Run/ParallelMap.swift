import Dispatch
import Foundation

/// `work(0) … work(count - 1)` on up to `jobs` threads, results in index order. Each thread
/// takes the next index when it is free: files differ a lot in cost (most are skipped unread,
/// a few carry hundreds of domains), so fixed shares would leave a thread idle at the end.
func parallelMap<Result>(count: Int, jobs: Int, _ work: @escaping @Sendable (Int) -> Result) -> [Result] {
    guard jobs > 1, count > 1 else { return (0..<count).map(work) }
    let slots = Slots<Result>(count: count)
    let drain: @Sendable () -> Void = {
        while let index = slots.takeIndex() { slots.store(work(index), at: index) }
    }
    withWorkerThreads(min(jobs, count) - 1, drain, whileCallerRuns: drain)
    return slots.values
}

/// Runs `worker` on `threads` threads of its own while `caller` runs on the calling thread,
/// and returns once all have finished. Threads of its own, not the global dispatch queues: a
/// block sent there waits for a free pool thread, and where the caller is itself on a pool
/// thread of a busy process (a Swift concurrency task, a test runner on two cores) none may
/// come free until much later: the run then did all its work on one thread and waited tens
/// of seconds at its end for a block that had nothing left to do.
func withWorkerThreads(_ threads: Int, _ worker: @escaping @Sendable () -> Void, whileCallerRuns caller: () -> Void) {
    let finished = DispatchSemaphore(value: 0)
    for _ in 0..<max(0, threads) {
        let thread = Thread {
            worker()
            finished.signal()
        }
        // The parser and the passes recurse as deep as the main thread's default allows.
        thread.stackSize = 8 << 20
        thread.start()
    }
    caller()
    for _ in 0..<max(0, threads) { finished.wait() }
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
/// `window` results wait in the ring, and at most as many more are being consumed, so memory
/// stays bounded however many files there are.
func parallelForEach<Result>(
    count: Int, jobs: Int, window: Int, _ work: @escaping @Sendable (Int) -> Result, consume: (Int, consuming Result) -> Void
) {
    guard jobs > 1, count > 1 else {
        for index in 0..<count { consume(index, work(index)) }
        return
    }
    let queue = OrderedResults<Result>(count: count, window: max(window, jobs))
    // The calling thread is one of the `jobs`: it works whenever no run of results is ready,
    // so no more threads than jobs compete for the cores.
    withWorkerThreads(min(jobs, count) - 1, {
        while let index = queue.takeIndex() { queue.store(work(index), at: index) }
    }, whileCallerRuns: {
        var index = 0
        while index < count {
            var ready = queue.takeReady(from: index, waiting: false)
            if ready.isEmpty {
                if let taken = queue.takeIndex(waiting: false) {
                    queue.store(work(taken), at: taken)
                    continue
                }
                ready = queue.takeReady(from: index, waiting: true)
            }
            for result in ready {
                consume(index, result)
                index += 1
            }
        }
    })
}

/// The results between the next one to consume and the furthest one handed out, in a ring of
/// `window` slots; a worker waits before taking an index that would overrun it. The consumer
/// is woken only once a run of results is ready (not for each one), and workers only when
/// they wait for room: each wake-up is a context switch.
private final class OrderedResults<Result>: @unchecked Sendable {
    private var ring: [Result?]
    private var next = 0
    /// Results before this index were taken by the consumer.
    private var consumed = 0
    /// Results before this index are ready (every slot from `consumed` up to it is filled).
    private var ready = 0
    /// What the waiting consumer needs `ready` to reach; `nil` while it does not wait.
    private var consumerTarget: Int?
    private var workersWaiting = 0
    private let count: Int
    private let condition = Monitor()

    /// How many results the consumer waits for at once (fewer at the end).
    private static var run: Int { 32 }

    init(count: Int, window: Int) {
        self.count = count
        ring = Array(repeating: nil, count: window)
    }

    /// The next index to work on; `nil` once all are taken, or (not `waiting`) while the
    /// window is full.
    func takeIndex(waiting: Bool = true) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while next < count, next >= consumed + ring.count {
            guard waiting else { return nil }
            workersWaiting += 1
            condition.wait()
            workersWaiting -= 1
        }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }

    func store(_ result: consuming Result, at index: Int) {
        condition.lock()
        defer { condition.unlock() }
        ring[index % ring.count] = result
        while ready < count, ring[ready % ring.count] != nil, ready < consumed + ring.count { ready += 1 }
        if let target = consumerTarget, ready >= target { condition.broadcast() }
    }

    /// The results from `index` (the next one not consumed) that are ready, once a run of
    /// them is (the last run may be shorter); not `waiting`, none unless a run is ready now.
    /// The run lies inside the window, so the workers can always fill it.
    func takeReady(from index: Int, waiting: Bool) -> [Result] {
        condition.lock()
        defer { condition.unlock() }
        let target = min(count, index + min(Self.run, ring.count))
        if ready < target, !waiting { return [] }
        consumerTarget = target
        while ready < target { condition.wait() }
        consumerTarget = nil
        var results: [Result] = []
        results.reserveCapacity(ready - index)
        for position in index..<ready {
            // Moved out, not copied: a copy would retain every field of the result once more.
            results.append(ring[position % ring.count].take()!)
        }
        consumed = ready
        if workersWaiting > 0 { condition.broadcast() }
        return results
    }
}
