// SHA-256 as specified in FIPS 180-4, "Secure Hash Standard (SHS)", section 6.2.
//
// Swift, no Foundation; the compression function uses the x86 SHA extensions when
// the processor has them (CSystem). The hasher keeps its chaining state in eight
// `UInt32` stored properties and its partial block in a fixed 64-byte tuple, and
// the message schedule lives in a stack-allocated temporary buffer, so hashing
// never allocates on the heap except for the 32-byte result array.

import CSystem

/// A streaming SHA-256 hasher (FIPS 180-4).
///
/// Feed the message in any number of pieces with ``update(_:)``,
/// then call ``finalize()`` once to obtain the 32-byte digest:
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(Array("ab".utf8))
/// hasher.update(Array("c".utf8))
/// let digest = hasher.finalize()   // ba7816bf…f20015ad
///
/// let same = SHA256.hash(Array("abc".utf8))
/// ```
///
/// The type is a small value (about 120 bytes) with no references, so copying a
/// hasher forks the computation: ``HMACSHA256`` relies on this to reuse states
/// that have already absorbed the padded key.
@usableFromInline package struct SHA256: Sendable {
    /// The size in bytes of a SHA-256 digest.
    static let digestByteCount = 32

    /// The size in bytes of a SHA-256 message block.
    static let blockByteCount = 64

    /// The eight 32-bit working hash values H0…H7.
    @usableFromInline
    struct State: Sendable, Equatable {
        @usableFromInline var h0: UInt32 = 0x6a09_e667
        @usableFromInline var h1: UInt32 = 0xbb67_ae85
        @usableFromInline var h2: UInt32 = 0x3c6e_f372
        @usableFromInline var h3: UInt32 = 0xa54f_f53a
        @usableFromInline var h4: UInt32 = 0x510e_527f
        @usableFromInline var h5: UInt32 = 0x9b05_688c
        @usableFromInline var h6: UInt32 = 0x1f83_d9ab
        @usableFromInline var h7: UInt32 = 0x5be0_cd19

        @inlinable init() {}

        /// Writes H0…H7 big-endian into the first 32 bytes of `out`.
        @inlinable
        func store(into out: UnsafeMutableRawBufferPointer) {
            precondition(out.count >= 32)
            out.storeBytes(of: h0.bigEndian, toByteOffset: 0, as: UInt32.self)
            out.storeBytes(of: h1.bigEndian, toByteOffset: 4, as: UInt32.self)
            out.storeBytes(of: h2.bigEndian, toByteOffset: 8, as: UInt32.self)
            out.storeBytes(of: h3.bigEndian, toByteOffset: 12, as: UInt32.self)
            out.storeBytes(of: h4.bigEndian, toByteOffset: 16, as: UInt32.self)
            out.storeBytes(of: h5.bigEndian, toByteOffset: 20, as: UInt32.self)
            out.storeBytes(of: h6.bigEndian, toByteOffset: 24, as: UInt32.self)
            out.storeBytes(of: h7.bigEndian, toByteOffset: 28, as: UInt32.self)
        }
    }

    /// A 64-byte block of plain bits, used for the pending partial block.
    @usableFromInline
    typealias Block = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    @usableFromInline static var zeroBlock: Block { (0, 0, 0, 0, 0, 0, 0, 0) }

    @usableFromInline var state = State()
    /// Bytes of the current, incomplete block; only the first `bufferCount` are meaningful.
    @usableFromInline var buffer: Block = SHA256.zeroBlock
    /// Number of bytes pending in `buffer`, always in `0..<64` between calls.
    @usableFromInline var bufferCount = 0
    /// Total message length so far in bytes (wrapping, as the length field is mod 2^64 bits).
    @usableFromInline var byteCount: UInt64 = 0

    /// Creates a hasher in the initial state, ready to absorb a message.
    ///
    /// ```swift
    /// var hasher = SHA256()
    /// ```
    @inlinable
    init() {}

    /// Absorbs the bytes in `bytes` into the running hash.
    ///
    /// Complete 64-byte blocks are compressed straight from `bytes` without copying.
    ///
    /// ```swift
    /// body.withUnsafeBytes { hasher.update($0) }
    /// ```
    @usableFromInline
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var input = base
        var remaining = bytes.count
        byteCount &+= UInt64(truncatingIfNeeded: remaining)

        if bufferCount > 0 {
            let take = min(64 &- bufferCount, remaining)
            let filled = bufferCount
            withUnsafeMutableBytes(of: &buffer) { block in
                block.baseAddress.unsafelyUnwrapped
                    .advanced(by: filled)
                    .copyMemory(from: input, byteCount: take)
            }
            bufferCount &+= take
            input += take
            remaining &-= take
            if bufferCount < 64 { return }
            compressBuffer()
            bufferCount = 0
        }

        let fullBlocks = remaining / 64
        if fullBlocks > 0 {
            Self.compress(&state, blocks: input, count: fullBlocks)
            input += fullBlocks &* 64
            remaining &-= fullBlocks &* 64
        }

        if remaining > 0 {
            withUnsafeMutableBytes(of: &buffer) { block in
                block.baseAddress.unsafelyUnwrapped.copyMemory(from: input, byteCount: remaining)
            }
            bufferCount = remaining
        }
    }

    /// Absorbs a sequence of bytes into the running hash.
    ///
    /// Contiguous collections such as `[UInt8]`, `ArraySlice<UInt8>` and
    /// `String.UTF8View` are hashed in place; other sequences are copied through a
    /// 64-byte stack buffer.
    ///
    /// ```swift
    /// hasher.update("cashoutID1234".utf8)
    /// ```
    @inlinable
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { elements in
            self.update(UnsafeRawBufferPointer(elements))
        }
        if handled == nil {
            updateSlowPath(bytes)
        }
    }

    /// Feeds a non-contiguous sequence through a stack-resident 64-byte chunk.
    @usableFromInline
    mutating func updateSlowPath(_ bytes: some Sequence<UInt8>) {
        var chunk = Self.zeroBlock
        var iterator = bytes.makeIterator()
        withUnsafeMutableBytes(of: &chunk) { chunk in
            var filled = 0
            while let byte = iterator.next() {
                chunk[filled] = byte
                filled &+= 1
                if filled == 64 {
                    self.update(UnsafeRawBufferPointer(chunk))
                    filled = 0
                }
            }
            if filled > 0 {
                self.update(UnsafeRawBufferPointer(rebasing: chunk[..<filled]))
            }
        }
    }

    /// Pads the message, processes the final block(s) and returns the 32-byte digest.
    ///
    /// Finalizing consumes the hasher; start a new ``SHA256`` for the next message.
    ///
    /// ```swift
    /// let digest: [UInt8] = hasher.finalize()
    /// ```
    @usableFromInline
    consuming func finalize() -> [UInt8] {
        let words = finalizeState()
        return [UInt8](unsafeUninitializedCapacity: 32) { out, initialized in
            words.store(into: UnsafeMutableRawBufferPointer(out))
            initialized = 32
        }
    }

    /// Applies the FIPS 180-4 §5.1.1 padding and returns the final hash values
    /// without allocating. Leaves `self` in an unspecified state.
    @usableFromInline
    mutating func finalizeState() -> State {
        let bitLength = byteCount &<< 3
        let pending = bufferCount
        let needsExtraBlock = withUnsafeMutableBytes(of: &buffer) { block -> Bool in
            block[pending] = 0x80
            let afterMarker = pending &+ 1
            if afterMarker > 56 {
                // No room for the 64-bit length: pad out this block and use one more.
                for i in afterMarker..<64 { block[i] = 0 }
                return true
            }
            for i in afterMarker..<56 { block[i] = 0 }
            block.storeBytes(of: bitLength.bigEndian, toByteOffset: 56, as: UInt64.self)
            return false
        }
        compressBuffer()
        if needsExtraBlock {
            withUnsafeMutableBytes(of: &buffer) { block in
                for i in 0..<56 { block[i] = 0 }
                block.storeBytes(of: bitLength.bigEndian, toByteOffset: 56, as: UInt64.self)
            }
            compressBuffer()
        }
        bufferCount = 0
        return state
    }

    /// Computes the SHA-256 digest of `bytes` in one call.
    ///
    /// ```swift
    /// let digest = SHA256.hash(Array("abc".utf8))
    /// Hex.lowercase(digest)   // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    /// ```
    @inlinable
    package static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    // MARK: - Compression

    /// Compresses the full 64-byte `buffer` into `state`.
    @usableFromInline
    mutating func compressBuffer() {
        withUnsafeBytes(of: &buffer) { bytes in
            Self.compress(&state, blocks: bytes.baseAddress.unsafelyUnwrapped, count: 1)
        }
    }

    /// The 64 round constants K0…K63 (FIPS 180-4 §4.2.2).
    @usableFromInline
    static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    @inline(__always)
    @usableFromInline
    static func rotateRight(_ x: UInt32, _ n: UInt32) -> UInt32 {
        (x &>> n) | (x &<< (32 &- n))
    }

    /// Whether compression uses the processor's SHA extensions (x86 SHA-NI), about three
    /// times faster than the portable code; the same digests either way (tested).
    static let usesHardware = csha256_hardware_available() != 0

    /// Runs the SHA-256 compression function over `count` consecutive 64-byte
    /// blocks starting at `blocks` (FIPS 180-4 §6.2.2).
    @usableFromInline
    static func compress(_ state: inout State, blocks: UnsafeRawPointer, count: Int) {
        if usesHardware {
            compressWithHardware(&state, blocks: blocks, count: count)
        } else {
            compressPortably(&state, blocks: blocks, count: count)
        }
    }

    static func compressWithHardware(_ state: inout State, blocks: UnsafeRawPointer, count: Int) {
        var words = (state.h0, state.h1, state.h2, state.h3, state.h4, state.h5, state.h6, state.h7)
        withUnsafeMutableBytes(of: &words) { words in
            csha256_hardware_compress(words.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt32.self),
                                      blocks.assumingMemoryBound(to: UInt8.self), count)
        }
        (state.h0, state.h1, state.h2, state.h3, state.h4, state.h5, state.h6, state.h7) = words
    }

    /// The compression in portable Swift. The message schedule W0…W63 lives in one
    /// stack-allocated temporary buffer for all blocks. The rounds go eight at a time with the
    /// working variables' roles rotated in the arguments, not moved from one to the next (each
    /// round then writes two of them, not eight: about a quarter fewer instructions a block).
    static func compressPortably(_ state: inout State, blocks: UnsafeRawPointer, count: Int) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            roundConstants.withUnsafeBufferPointer { k in
                var block = blocks
                for _ in 0..<count {
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let w15 = w[t &- 15]
                        let w2 = w[t &- 2]
                        let sigma0 = rotateRight(w15, 7) ^ rotateRight(w15, 18) ^ (w15 &>> 3)
                        let sigma1 = rotateRight(w2, 17) ^ rotateRight(w2, 19) ^ (w2 &>> 10)
                        w[t] = w[t &- 16] &+ sigma0 &+ w[t &- 7] &+ sigma1
                    }

                    var a = state.h0, b = state.h1, c = state.h2, d = state.h3
                    var e = state.h4, f = state.h5, g = state.h6, h = state.h7
                    var t = 0
                    while t < 64 {
                        round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t])
                        round(h, a, b, &c, d, e, f, &g, k[t &+ 1] &+ w[t &+ 1])
                        round(g, h, a, &b, c, d, e, &f, k[t &+ 2] &+ w[t &+ 2])
                        round(f, g, h, &a, b, c, d, &e, k[t &+ 3] &+ w[t &+ 3])
                        round(e, f, g, &h, a, b, c, &d, k[t &+ 4] &+ w[t &+ 4])
                        round(d, e, f, &g, h, a, b, &c, k[t &+ 5] &+ w[t &+ 5])
                        round(c, d, e, &f, g, h, a, &b, k[t &+ 6] &+ w[t &+ 6])
                        round(b, c, d, &e, f, g, h, &a, k[t &+ 7] &+ w[t &+ 7])
                        t &+= 8
                    }
                    state.h0 &+= a
                    state.h1 &+= b
                    state.h2 &+= c
                    state.h3 &+= d
                    state.h4 &+= e
                    state.h5 &+= f
                    state.h6 &+= g
                    state.h7 &+= h
                    block += 64
                }
            }
        }
    }

    /// One round (FIPS 180-4 §6.2.2 step 3) with the working variables named by their role in
    /// it: `d` becomes the next round's `e`, and `h` its `a`; the others only move, which the
    /// caller does by passing them in the next order. `kw` is Kt + Wt.
    @inline(__always)
    static func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
                      _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32) {
        let bigSigma1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
        let choose = g ^ (e & (f ^ g))  // (e & f) ^ (~e & g)
        let t1 = h &+ bigSigma1 &+ choose &+ kw
        let bigSigma0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
        let majority = (a & (b | c)) | (b & c)  // (a & b) ^ (a & c) ^ (b & c)
        d &+= t1
        h = t1 &+ bigSigma0 &+ majority
    }
}
