import Dispatch
import Foundation

/// Work begun while discovery is still walking: each file the walk finds is handed to the
/// spare threads at once, and the ordered phase that follows takes its result instead of doing
/// the work again. So the walk (one thread, mostly system calls) overlaps the files' work.
///
/// The work must have no effect outside its result (no write, no output): every config is
/// checked only once the walk is over, and if one is invalid nothing may happen. Memory stays
/// bounded however big the tree is: at most `pendingLimit` items wait to begin, and once the
/// finished results hold `budget` (16 MB unless told; their `cost` says how much each holds),
/// no more are taken; the files left out are simply done in the ordered phase.
final class EarlyStart<Item: Sendable, Result>: @unchecked Sendable {
    private enum State {
        case queued(Item)
        case running
        case done(Result)
    }

    // Only read and written under `condition`'s lock.
    @exclusivity(unchecked) private var states: [String: State] = [:]
    @exclusivity(unchecked) private var queue: [String] = []
    @exclusivity(unchecked) private var head = 0
    @exclusivity(unchecked) private var closed = false
    @exclusivity(unchecked) private var held = 0
    private let budget: Int
    private let pendingLimit: Int
    private let condition = NSCondition()
    private let group = DispatchGroup()
    private let work: @Sendable (Item) -> Result
    private let cost: @Sendable (Result) -> Int

    init(
        threads: Int, budget: Int = 16 << 20, pendingLimit: Int = 1024, work: @escaping @Sendable (Item) -> Result,
        cost: @escaping @Sendable (Result) -> Int
    ) {
        self.budget = budget
        self.pendingLimit = pendingLimit
        self.work = work
        self.cost = cost
        for _ in 0..<threads {
            DispatchQueue.global().async(group: group) { self.drain() }
        }
    }

    /// Hands `item` to a spare thread, unless it is full, closed, or `key` was offered before.
    func offer(_ item: Item, key: String) {
        condition.lock()
        defer { condition.unlock() }
        guard !closed, held < budget, queue.count - head < pendingLimit, states[key] == nil else { return }
        states[key] = .queued(item)
        queue.append(key)
        condition.signal()
    }

    /// No more offers; items not yet begun are dropped (the ordered phase does them). Once the
    /// items being worked on are done, the threads end.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        for key in queue[head...] {
            if case .queued = states[key] { states[key] = nil }
        }
        queue = []
        head = 0
        condition.broadcast()
    }

    /// The result for `key`, waiting while a thread works it out; `nil` if none began it. Call
    /// after `close()`: a key is taken once.
    func take(_ key: String) -> Result? {
        condition.lock()
        defer { condition.unlock() }
        while case .running = states[key] { condition.wait() }
        // Moved out, not copied: a copy would count references to what another thread made.
        switch states.removeValue(forKey: key) {
        case .done(let result): return result
        default: return nil
        }
    }

    /// Waits for the threads to end (after `close()`).
    func waitForThreads() {
        group.wait()
    }

    private func drain() {
        while let (key, item) = next() {
            let result = work(item)
            let size = cost(result)
            condition.lock()
            states[key] = .done(consume result)
            held += size
            // A taker may be waiting for this one.
            condition.broadcast()
            condition.unlock()
        }
    }

    private func next() -> (String, Item)? {
        condition.lock()
        defer { condition.unlock() }
        // Past the budget a thread ends: what is still queued is done in the ordered phase.
        while !closed, held < budget {
            if head < queue.count {
                let key = queue[head]
                head += 1
                // Swapped out, not copied (a copy would count references the walk's thread made).
                switch states.updateValue(.running, forKey: key) {
                case .queued(let item): return (key, item)
                case let other: states[key] = other
                }
            }
            condition.wait()
        }
        return nil
    }
}
