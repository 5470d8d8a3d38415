/// The Levenshtein distance (insertions, deletions and substitutions), for "did you mean" hints:
/// the router's near misses compare path segments' bytes with it, the command line's options and
/// commands their characters.
///
/// ```swift
/// EditDistance.between(Array("--prot"), Array("--port"))            // 2
/// EditDistance.between(Array("cashout".utf8), Array("cashouts".utf8)) // 1
/// ```
package enum EditDistance {
    /// The distance from `a` to `b`; once it is surely over `limit`, some number above `limit`.
    package static func between<Element: Equatable>(_ a: [Element], _ b: [Element], limit: Int = .max) -> Int {
        if a == b { return 0 }
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        return rows(b.count) { previous, current in
            for j in 0 ... b.count { previous[j] = j }
            for (i, x) in a.enumerated() {
                current[0] = i + 1
                for (j, y) in b.enumerated() { current[j + 1] = min(previous[j] + (x == y ? 0 : 1), previous[j + 1] + 1, current[j] + 1) }
                swap(&previous, &current)
            }
            return previous[b.count]
        }
    }

    /// Two rows of `count + 1` numbers for a dynamic programme, on the stack (a 404 compares many routes).
    static func rows(_ count: Int, _ body: (inout UnsafeMutableBufferPointer<Int>, inout UnsafeMutableBufferPointer<Int>) -> Int) -> Int {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * (count + 1)) { buffer in
            var previous = UnsafeMutableBufferPointer(rebasing: buffer[..<(count + 1)])
            var current = UnsafeMutableBufferPointer(rebasing: buffer[(count + 1)...])
            return body(&previous, &current)
        }
    }
}
