import Foundation
import Testing
@testable import PlistMigrate

/// Work begun during the walk: each offered key is worked out at most once, a result being
/// worked out is waited for, what was not begun by `close()` is left to the caller, and the
/// results held stay within the budget.
@Suite(.timeLimit(.minutes(1))) struct EarlyStartTests {
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [Int: Int] = [:]
        func count(_ item: Int) { lock.withLock { counts[item, default: 0] += 1 } }
        var all: [Int: Int] { lock.withLock { counts } }
    }

    @Test(arguments: [1, 3])
    func everyOfferedKeyIsWorkedOutOnceAndTakenOnce(threads: Int) {
        let calls = Calls()
        let early = EarlyStart<Int, Int>(threads: threads, budget: 1 << 30, pendingLimit: 1 << 20) { item in
            calls.count(item)
            return item * 3
        } cost: { _ in 1 }
        for item in 0..<500 { early.offer(item, key: "k\(item)") }
        // Offered again under a key already offered: ignored.
        for item in 0..<500 { early.offer(item + 1000, key: "k\(item)") }
        early.close()
        early.waitForThreads()
        var taken = 0
        for item in 0..<500 {
            if let result = early.take("k\(item)") {
                #expect(result == item * 3)
                taken += 1
            }
            #expect(early.take("k\(item)") == nil, "a key is taken once")
        }
        #expect(early.take("never offered") == nil)
        // Every call's result was taken: nothing was worked out for nothing, nor twice.
        #expect(calls.all.values.allSatisfy { $0 == 1 })
        #expect(calls.all.keys.allSatisfy { $0 < 500 })
        #expect(calls.all.count == taken)
    }

    @Test func aResultBeingWorkedOutIsWaitedForAndQueuedOnesAreDropped() {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = Calls()
        let early = EarlyStart<Int, String>(threads: 1, budget: 1 << 30) { item in
            calls.count(item)
            if item == 0 {
                started.signal()
                release.wait()
            }
            return "done \(item)"
        } cost: { _ in 1 }
        early.offer(0, key: "first")
        started.wait()
        early.offer(1, key: "second")
        early.offer(2, key: "third")
        early.close()
        // After close no more is taken; the running item still finishes, and `take` waits.
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { release.signal() }
        #expect(early.take("first") == "done 0")
        early.waitForThreads()
        #expect(early.take("second") == nil)
        #expect(early.take("third") == nil)
        #expect(calls.all == [0: 1])
        // Closed: offers are refused.
        early.offer(4, key: "late")
        #expect(early.take("late") == nil)
    }

    @Test func noMoreIsWorkedOutOnceTheResultsHoldTheBudget() {
        let calls = Calls()
        let early = EarlyStart<Int, Int>(threads: 1, budget: 30) { item in
            calls.count(item)
            return item
        } cost: { _ in 10 }
        for item in 0..<10 { early.offer(item, key: "k\(item)") }
        // The one thread ends once three results (30) are held.
        let deadline = Date().addingTimeInterval(10)
        while calls.all.count < 3, Date() < deadline { usleep(1000) }
        usleep(20_000)
        early.close()
        early.waitForThreads()
        let taken = (0..<10).compactMap { early.take("k\($0)") }
        #expect(taken == [0, 1, 2])
        #expect(calls.all.count == 3)
    }
}
