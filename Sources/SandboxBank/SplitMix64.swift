/// A small, fast, seedable generator (Steele, Lea & Flood's SplitMix64): the same seed gives the
/// same sequence on every platform, which `SystemRandomNumberGenerator` cannot.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`, uniformly.
    package mutating func next(in range: ClosedRange<Int64>) -> Int64 {
        let span = UInt64(range.upperBound - range.lowerBound) &+ 1
        return span == 0 ? Int64(bitPattern: next()) : range.lowerBound + Int64(next() % span)
    }
}
