/// A growable buffer of plain values for the SAX callbacks' hot path: no copy-on-write check
/// and no reference counting on each access, as an `Array` property of a class has. Its owner
/// frees it (`deallocate`) exactly once.
struct ScratchBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 4)
        base = .allocate(capacity: self.capacity)
    }

    var isEmpty: Bool { count == 0 }
    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }
    var array: [Element] { Array(buffer) }
    var last: Element? { count > 0 ? base[count - 1] : nil }

    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count)
            return base[index]
        }
        nonmutating _modify {
            precondition(index >= 0 && index < count)
            yield &base[index]
        }
    }

    mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress else { return }
        if count + elements.count > capacity { grow(to: count + elements.count) }
        (base + count).initialize(from: source, count: elements.count)
        count += elements.count
    }

    mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        return base[count]
    }

    mutating func removeAll() { count = 0 }

    func deallocate() { base.deallocate() }

    private mutating func grow(to needed: Int) {
        capacity = max(needed, capacity * 2)
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
    }
}
