// The two compression functions, the x86 SHA extensions and portable Swift, must agree on every
// input: the other tests exercise whichever this machine uses; these compare both directly.

import Testing
@testable import SandboxSupport

struct SHA256CompressionTests {
    @Test func theHardwareAndThePortableCompressionAgree() throws {
        try #require(SHA256.usesHardware, "this processor has no SHA extensions: only the portable code runs here")
        var generator = SystemRandomNumberGenerator()
        for blocks in [1, 2, 3, 7, 16] {
            for _ in 0 ..< 200 {
                let data = (0 ..< blocks * 64).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
                var start = SHA256.State()
                start.h0 = generator.next()
                start.h5 = generator.next()
                var hardware = start, portable = start
                data.withUnsafeBytes { bytes in
                    SHA256.compressWithHardware(&hardware, blocks: bytes.baseAddress!, count: blocks)
                    SHA256.compressPortably(&portable, blocks: bytes.baseAddress!, count: blocks)
                }
                #expect(hardware == portable, "\(blocks) blocks: \(data)")
            }
        }
    }

    @Test func zeroBlocksLeaveTheStateAlone() throws {
        try #require(SHA256.usesHardware, "this processor has no SHA extensions")
        var state = SHA256.State()
        let before = state
        [UInt8](repeating: 0, count: 64).withUnsafeBytes { SHA256.compressWithHardware(&state, blocks: $0.baseAddress!, count: 0) }
        #expect(state == before)
    }
}
