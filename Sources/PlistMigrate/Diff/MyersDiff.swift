/// Myers' diff in linear space ("An O(ND) Difference Algorithm and Its Variations", 1986,
/// section 4b) over line numbers, specialised to `Int` so a comparison is one instruction.
///
/// Among equally short scripts it picks what the standard library's `difference(from:)` picks
/// (Swift 6.3: the same middle-snake search, diagonals scanned from `+d` down to `-d`, the
/// same ties), so a diff does not change with the implementation: `MyersDiffTests` holds
/// the two together on random inputs. Generic, the standard library's costs a closure call per
/// comparison, which made it most of a changed file's diff.
enum MyersDiff {
    /// The offsets of `old` removed and of `new` inserted, in no particular order.
    static func changes(from old: UnsafeBufferPointer<Int>, to new: UnsafeBufferPointer<Int>) -> (removed: [Int], inserted: [Int]) {
        var search = Search(old: old, new: new)
        var region = Region(left: 0, top: 0, right: old.count, bottom: new.count).trimmed(old, new)
        search.reserve(region.size)
        var later: [Region] = []
        while true {
            guard let snake = search.middleSnake(in: region) else {
                guard let next = later.popLast() else { break }
                region = next
                continue
            }
            // The part after the snake waits; the part before it is searched next.
            later.append(Region(left: snake.right, top: snake.bottom, right: region.right, bottom: region.bottom).trimmed(old, new))
            region = Region(left: region.left, top: region.top, right: snake.left, bottom: snake.top).trimmed(old, new)
        }
        return (search.removed, search.inserted)
    }

    /// A rectangle of the edit graph: `old[left..<right]` against `new[top..<bottom]`.
    struct Region {
        var left, top, right, bottom: Int
        var width: Int { right - left }
        var height: Int { bottom - top }
        var size: Int { width + height }
        var delta: Int { width - height }

        /// Without the equal lines at its start and its end (diagonals cost nothing).
        func trimmed(_ old: UnsafeBufferPointer<Int>, _ new: UnsafeBufferPointer<Int>) -> Region {
            var region = self
            while region.left < region.right, region.top < region.bottom, old[region.left] == new[region.top] {
                region.left += 1
                region.top += 1
            }
            while region.right > region.left, region.bottom > region.top, old[region.right - 1] == new[region.bottom - 1] {
                region.right -= 1
                region.bottom -= 1
            }
            return region
        }
    }

    private struct Search {
        let old: UnsafeBufferPointer<Int>
        let new: UnsafeBufferPointer<Int>
        /// Per diagonal `k` (x − y, relative to the region's corner): the furthest x a path from
        /// the top left reaches, and the furthest-up y a path from the bottom right reaches.
        var forwardX: [Int] = []
        var backwardY: [Int] = []
        var center = 0
        var removed: [Int] = []
        var inserted: [Int] = []

        init(old: UnsafeBufferPointer<Int>, new: UnsafeBufferPointer<Int>) {
            self.old = old
            self.new = new
        }

        mutating func reserve(_ size: Int) {
            center = size + 1
            forwardX = [Int](repeating: 0, count: 2 * center + 1)
            backwardY = forwardX
        }

        private mutating func record(insertion: Bool, at offset: Int) {
            if insertion { inserted.append(offset) } else { removed.append(offset) }
        }

        /// Records the one edit the middle snake of `region` starts or ends with, and returns
        /// the snake (with that edit's step); `nil` when the region is one edit or none.
        mutating func middleSnake(in region: Region) -> Region? {
            // One side empty: the only script removes or inserts it all (a large inserted value
            // would otherwise cost a search quadratic in its lines).
            if region.width == 0 || region.height == 0 {
                removed.append(contentsOf: region.left..<region.right)
                inserted.append(contentsOf: region.top..<region.bottom)
                return nil
            }
            forwardX[center + 1] = region.left
            backwardY[center + 1] = region.bottom
            let odd = region.delta % 2 != 0
            for depth in 0...((region.size + 1) / 2) {
                let forward = forwardStep(region, depth: depth, checkOverlap: odd)
                if odd, let forward { return forward }
                if let backward = backwardStep(region, depth: depth, checkOverlap: !odd), !odd { return backward }
            }
            preconditionFailure("a middle snake exists within (size + 1) / 2 steps")
        }

        private mutating func forwardStep(_ region: Region, depth: Int, checkOverlap: Bool) -> Region? {
            for k in stride(from: depth, through: -depth, by: -2) {
                let down = k == -depth || (k != depth && forwardX[center + k - 1] < forwardX[center + k + 1])
                let start = down ? forwardX[center + k + 1] : forwardX[center + k - 1]
                var x = down ? start : start + 1
                var y = region.top + (x - region.left) - k
                let editOffset = down ? y - 1 : start
                let snakeTop = depth == 0 || x != start ? y : y - 1
                while x < region.right, y < region.bottom, old[x] == new[y] {
                    x += 1
                    y += 1
                }
                forwardX[center + k] = x
                guard checkOverlap else { continue }
                let c = k - region.delta
                if c >= -(depth - 1), c <= depth - 1, y >= backwardY[center + c] {
                    record(insertion: down, at: editOffset)
                    return Region(left: start, top: snakeTop, right: x, bottom: y)
                }
            }
            return nil
        }

        private mutating func backwardStep(_ region: Region, depth: Int, checkOverlap: Bool) -> Region? {
            for c in stride(from: depth, through: -depth, by: -2) {
                let k = c + region.delta
                let up = c == -depth || (c != depth && backwardY[center + c - 1] > backwardY[center + c + 1])
                // `up`: the step is leftward (a removal) after the path came up diagonal c + 1.
                let end = up ? backwardY[center + c + 1] : backwardY[center + c - 1]
                var y = up ? end : end - 1
                var x = region.left + (y - region.top) + k
                let editOffset = up ? x : y
                let snakeRight = depth == 0 || y != end ? x : x + 1
                while x > region.left, y > region.top, old[x - 1] == new[y - 1] {
                    x -= 1
                    y -= 1
                }
                backwardY[center + c] = y
                guard checkOverlap else { continue }
                if k >= -depth, k <= depth, x <= forwardX[center + k] {
                    record(insertion: !up, at: editOffset)
                    return Region(left: x, top: y, right: snakeRight, bottom: end)
                }
            }
            return nil
        }
    }
}
