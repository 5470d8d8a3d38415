// Constant-time equality: functional behaviour (timing is not asserted).

import Testing
@testable import SandboxSupport

@Suite("Constant-time equality")
struct ConstantTimeTests {
    @Test("Equal collections compare equal")
    func equal() {
        #expect(constantTimeEquals([UInt8](), [UInt8]()))
        #expect(constantTimeEquals([0x42], [0x42]))
        let mac = SHA256.hash(patternBytes(count: 10))
        #expect(constantTimeEquals(mac, mac))
        #expect(constantTimeEquals(mac, Array(mac)[...]))
        #expect(constantTimeEquals(mac, mac.lazy.map { $0 }))
    }

    @Test("A single differing bit anywhere makes them unequal")
    func everyPositionAndBit() {
        let reference = patternBytes(count: 32)
        for position in reference.indices {
            for bit in 0..<8 {
                var tampered = reference
                tampered[position] ^= UInt8(1) << bit
                #expect(!constantTimeEquals(reference, tampered), "byte \(position), bit \(bit)")
            }
        }
    }

    @Test("Difference in the first or last byte only")
    func firstAndLastByte() {
        let a: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        #expect(!constantTimeEquals(a, [1, 2, 3, 4, 5, 6, 7, 9]))
        #expect(!constantTimeEquals(a, [0, 2, 3, 4, 5, 6, 7, 8]))
        #expect(constantTimeEquals(a, [1, 2, 3, 4, 5, 6, 7, 8]))
    }

    @Test("Different lengths are unequal, including prefixes and empty")
    func differentLengths() {
        let a: [UInt8] = [1, 2, 3, 4]
        #expect(!constantTimeEquals(a, [1, 2, 3]))
        #expect(!constantTimeEquals([1, 2, 3], a))
        #expect(!constantTimeEquals(a, [1, 2, 3, 4, 0]))
        #expect(!constantTimeEquals(a, [UInt8]()))
        #expect(!constantTimeEquals([UInt8](), a))
    }

    @Test("String overload compares UTF-8")
    func strings() {
        let signature = "DDD345FB66A8053FBB69E0DBCACFDE5F63CA05140C3A2C446B7A0E4118F8BA1D"
        #expect(constantTimeEquals(signature, "DDD345FB66A8053FBB69E0DBCACFDE5F63CA05140C3A2C446B7A0E4118F8BA1D"))
        #expect(!constantTimeEquals(signature, "DDD345FB66A8053FBB69E0DBCACFDE5F63CA05140C3A2C446B7A0E4118F8BA1E"))
        #expect(!constantTimeEquals(signature, signature.lowercased()))
        #expect(!constantTimeEquals(signature, String(signature.dropLast())))
        #expect(constantTimeEquals("", ""))
        #expect(!constantTimeEquals("", "a"))
        #expect(constantTimeEquals(signature.dropFirst(3), "345FB66A8053FBB69E0DBCACFDE5F63CA05140C3A2C446B7A0E4118F8BA1D"))
        // Canonically equivalent but different bytes: not equal here, unlike String ==.
        #expect("\u{E9}" == "e\u{301}")
        #expect(!constantTimeEquals("\u{E9}", "e\u{301}"))
    }
}
