import Foundation
import Testing
@testable import PlistMigrate

/// Results reach the consumer in index order, each once, however the threads finish, and the
/// workers never run more than two windows ahead of it.
@Suite struct ParallelForEachTests {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var started = 0
        private(set) var highestStarted = -1
        func start(_ index: Int) { lock.withLock { started += 1; highestStarted = max(highestStarted, index) } }
        var highest: Int { lock.withLock { highestStarted } }
    }

    @Test(.timeLimit(.minutes(1)), arguments: [(1, 4), (2, 1), (2, 3), (4, 5), (3, 64)])
    func consumesInOrderWithinTheWindow(jobs: Int, window: Int) {
        let count = 300
        let counter = Counter()
        var consumed: [Int] = []
        parallelForEach(count: count, jobs: jobs, window: window, { index in
            counter.start(index)
            // Uneven costs, so later indices often finish first.
            if index % 7 == 0 { usleep(UInt32(200 + index % 5 * 100)) }
            return index * index
        }, consume: { index, result in
            #expect(result == index * index)
            // Nothing beyond the window was started: the consumer takes the ready results in
            // runs of at most a window, and the window runs on from the end of the run.
            #expect(counter.highest < index + 2 * max(window, jobs))
            consumed.append(index)
        })
        #expect(consumed == Array(0..<count))
    }
}

/// The workers are threads of their own: with every thread of the global dispatch queue busy
/// (a Swift concurrency task or a test runner calling the library on a loaded machine), a run
/// of two jobs still works on two threads and returns as soon as its work is done. Before, its
/// second job was a block on that queue: it never started while the queue was busy, the run
/// did everything on one thread, and then waited for the block to start and find nothing
/// left (25 s at the end of `swift test` on two cores).
@Suite(.serialized) struct WorkerThreadTests {
    /// Blocks keeping every thread of the global queue busy (running, as tests and tasks do,
    /// not asleep: libdispatch's pool on Linux adds threads beside sleeping ones) until
    /// released or 20 s have passed.
    final class Busy: @unchecked Sendable {
        let started = DispatchSemaphore(value: 0)
        let count = ProcessInfo.processInfo.activeProcessorCount * 2
        private let lock = NSLock()
        private var released = false
        private var timedOut = 0
        var blocksThatTimedOut: Int { lock.withLock { timedOut } }

        func occupy() {
            for _ in 0..<count {
                DispatchQueue.global().async {
                    self.started.signal()
                    let deadline = Date().addingTimeInterval(20)
                    while !self.lock.withLock({ self.released }) {
                        if Date() > deadline { self.lock.withLock { self.timedOut += 1 }; return }
                    }
                }
            }
            // At least as many as the queue has threads have started, and hold them.
            for _ in 0..<ProcessInfo.processInfo.activeProcessorCount { started.wait() }
        }

        func free() { lock.withLock { released = true } }
    }

    /// Threads that entered `work`, and a meeting point: the first work item waits (up to 10 s)
    /// for another thread to arrive, so a run that works on one thread alone shows as one.
    final class Threads: @unchecked Sendable {
        private let lock = NSLock()
        private var seen = Set<String>()
        let met = DispatchSemaphore(value: 0)

        func enter() {
            let name = "\(pthread_self())"
            let first = lock.withLock { () -> Bool in
                let wasEmpty = seen.isEmpty
                if seen.insert(name).inserted, !wasEmpty { met.signal() }
                return wasEmpty
            }
            if first { _ = met.wait(timeout: .now() + 10) }
        }
        var count: Int { lock.withLock { seen.count } }
    }

    @Test func aRunWorksOnItsThreadsWhileTheGlobalQueueIsBusy() {
        let busy = Busy()
        busy.occupy()
        let threads = Threads()
        var consumed = 0
        parallelForEach(count: 64, jobs: 2, window: 8, { index in
            threads.enter()
            return index
        }, consume: { index, result in
            #expect(index == result)
            consumed += 1
        })
        #expect(consumed == 64)
        #expect(threads.count == 2, "two jobs work on two threads")
        let mapThreads = Threads()
        let squares = parallelMap(count: 64, jobs: 2) { index in
            mapThreads.enter()
            return index * index
        }
        #expect(squares == (0..<64).map { $0 * $0 })
        #expect(mapThreads.count == 2, "parallelMap too")
        busy.free()
        // Every block started, so each has seen the release or its deadline.
        for _ in ProcessInfo.processInfo.activeProcessorCount..<busy.count { busy.started.wait() }
        #expect(busy.blocksThatTimedOut == 0, "the runs returned while the queue was still busy")
    }
}
