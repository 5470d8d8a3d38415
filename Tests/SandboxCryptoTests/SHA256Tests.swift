// SHA-256 known-answer tests from FIPS 180-4 (via the NIST "Examples with
// Intermediate Values"), padding edge lengths checked against Python's hashlib,
// and streaming-vs-one-shot consistency.

import Testing
@testable import SandboxSupport

/// Deterministic test pattern: byte i is (7i + 3) mod 256. The padding-edge
/// digests below were generated with
/// `python3 -c 'import hashlib; print(hashlib.sha256(bytes((i*7+3)%256 for i in range(n))).hexdigest())'`.
func patternBytes(count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
}

@Suite("SHA-256")
struct SHA256Tests {
    static let fipsExamples: [(message: String, digest: String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ]

    static let millionADigest = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"

    @Test("FIPS 180-4 examples, one shot", arguments: fipsExamples)
    func fipsExamplesOneShot(message: String, digest: String) {
        #expect(Hex.lowercase(SHA256.hash(Array(message.utf8))) == digest)
        #expect(Hex.lowercase(SHA256.hash(message.utf8)) == digest)
    }

    @Test("FIPS 180-4 examples, one byte at a time", arguments: fipsExamples)
    func fipsExamplesByteAtATime(message: String, digest: String) {
        var hasher = SHA256()
        for byte in message.utf8 {
            hasher.update([byte])
        }
        #expect(Hex.lowercase(hasher.finalize()) == digest)
    }

    @Test("FIPS 180-4 examples, through UnsafeRawBufferPointer")
    func fipsExamplesRawPointer() {
        for (message, digest) in Self.fipsExamples {
            var hasher = SHA256()
            Array(message.utf8).withUnsafeBytes { hasher.update($0) }
            #expect(Hex.lowercase(hasher.finalize()) == digest, "message: \(message)")
        }
    }

    @Test("Digest is 32 bytes")
    func digestLength() {
        #expect(SHA256.hash([UInt8]()).count == 32)
        #expect(SHA256.hash(patternBytes(count: 1000)).count == 32)
        #expect(SHA256.digestByteCount == 32)
    }

    @Test("One million 'a' in a single update")
    func millionAOneShot() {
        let message = [UInt8](repeating: 0x61, count: 1_000_000)
        #expect(Hex.lowercase(SHA256.hash(message)) == Self.millionADigest)
    }

    @Test("One million 'a' streamed in 7-byte chunks")
    func millionAInChunksOfSeven() {
        let message = [UInt8](repeating: 0x61, count: 1_000_000)
        var hasher = SHA256()
        var start = 0
        while start < message.count {
            let end = min(start + 7, message.count)
            hasher.update(message[start..<end])
            start = end
        }
        #expect(Hex.lowercase(hasher.finalize()) == Self.millionADigest)
    }

    @Test("One million 'a' from a non-contiguous collection (byte-wise path)")
    func millionANonContiguous() {
        let message = repeatElement(UInt8(0x61), count: 1_000_000)
        #expect(message.withContiguousStorageIfAvailable { _ in true } == nil)
        #expect(Hex.lowercase(SHA256.hash(message)) == Self.millionADigest)
    }

    static let paddingEdges: [(length: Int, digest: String)] = [
        (55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"),
        (56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"),
        (63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"),
        (64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"),
        (65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"),
        (119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"),
        (120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"),
        (128, "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6"),
    ]

    @Test("Padding edge lengths match hashlib", arguments: paddingEdges)
    func paddingEdgeLengths(length: Int, digest: String) {
        let message = patternBytes(count: length)
        #expect(Hex.lowercase(SHA256.hash(message)) == digest)
        // Same input through the non-contiguous path.
        #expect(Hex.lowercase(SHA256.hash(message.lazy.map { $0 })) == digest)
    }

    @Test("Streamed equals one shot for every length 0...200", arguments: [1, 2, 3, 7, 13, 55, 63, 64, 65, 127])
    func streamedEqualsOneShot(chunkSize: Int) {
        for length in 0...200 {
            let message = patternBytes(count: length)
            let expected = SHA256.hash(message)

            var streamed = SHA256()
            var start = 0
            while start < length {
                let end = min(start + chunkSize, length)
                message[start..<end].withUnsafeBytes { streamed.update($0) }
                start = end
            }
            #expect(streamed.finalize() == expected, "length \(length), chunk \(chunkSize)")

            // Mixed paths: a split at `chunkSize` with the tail fed non-contiguously.
            var mixed = SHA256()
            let split = min(chunkSize, length)
            mixed.update(message[..<split])
            mixed.update(message[split...].lazy.map { $0 })
            #expect(mixed.finalize() == expected, "mixed, length \(length), split \(split)")
        }
    }

    @Test("Distinct lengths give distinct digests (length is bound into the padding)")
    func distinctLengthsDistinctDigests() {
        // Zero-filled messages differ only in length, so only the length field separates them.
        var seen = Set<[UInt8]>()
        for length in 0...200 {
            seen.insert(SHA256.hash([UInt8](repeating: 0, count: length)))
        }
        #expect(seen.count == 201)
    }

    @Test("Empty updates are no-ops")
    func emptyUpdates() {
        var hasher = SHA256()
        hasher.update(UnsafeRawBufferPointer(start: nil, count: 0))
        hasher.update(Array("ab".utf8))
        hasher.update([UInt8]())
        hasher.update(EmptyCollection<UInt8>())
        hasher.update(Array("c".utf8))
        hasher.update(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(Hex.lowercase(hasher.finalize()) == Self.fipsExamples[1].digest)
    }

    @Test("Copying a hasher forks the computation")
    func copyForks() {
        var base = SHA256()
        base.update(patternBytes(count: 100))
        var forkA = base
        var forkB = base
        forkA.update(Array("A".utf8))
        forkB.update(Array("B".utf8))
        #expect(forkA.finalize() == SHA256.hash(patternBytes(count: 100) + Array("A".utf8)))
        #expect(forkB.finalize() == SHA256.hash(patternBytes(count: 100) + Array("B".utf8)))
        #expect(base.finalize() == SHA256.hash(patternBytes(count: 100)))
    }
}
