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

/// A 64-bit FNV-1a hash of texts: the same texts give the same number in every process and on
/// every platform, which Swift's `Hasher` (seeded per process) does not. What a draw is keyed on
/// (`Payout.contentKey`, a fault's request).
package struct StableHash: Sendable {
    package private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    package init() {}

    /// Adds `text`, then a separator, so that ("ab", "c") and ("a", "bc") differ.
    mutating func combine(_ text: some StringProtocol) {
        for byte in text.utf8 { mix(byte) }
        mix(0xFF)
    }

    package mutating func combine(_ number: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: number >> UInt64(shift))) }
        mix(0xFF)
    }

    private mutating func mix(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// The hash of `texts`, in order.
    package static func of(_ texts: String...) -> UInt64 {
        var hash = StableHash()
        for text in texts { hash.combine(text) }
        return hash.value
    }
}
