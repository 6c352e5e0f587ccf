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
