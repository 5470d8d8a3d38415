// HMAC-SHA-256 (RFC 2104) known-answer tests from RFC 4231, the provider's
// documented D24 signature vectors, and a randomized cross-check against
// Python's hmac/hashlib as an independent implementation.

import Foundation
import Testing
@testable import SandboxSupport

/// The first executable `python3` on `PATH`, else `/usr/bin/python3`, else nil.
let python3Path: String? = {
    let fileManager = FileManager.default
    let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in searchPath.split(separator: ":") where !directory.isEmpty {
        let candidate = "\(directory)/python3"
        if fileManager.isExecutableFile(atPath: candidate) { return candidate }
    }
    return fileManager.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : nil
}()

/// SplitMix64: a tiny deterministic generator so the cross-check inputs are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

private func bytes(_ hex: String) -> [UInt8] {
    guard let decoded = Hex.decode(hex) else {
        Issue.record("bad hex literal in test: \(hex)")
        return []
    }
    return decoded
}

private func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite("HMAC-SHA-256")
struct HMACSHA256Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var key: [UInt8]
        var data: [UInt8]
        var mac: String
        var testDescription: String { name }
    }

    // RFC 4231 §4.2–4.8.
    static let rfc4231: [Vector] = [
        Vector(name: "Test Case 1", key: [UInt8](repeating: 0x0b, count: 20), data: ascii("Hi There"),
               mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Vector(name: "Test Case 2", key: ascii("Jefe"), data: ascii("what do ya want for nothing?"),
               mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Vector(name: "Test Case 3", key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50),
               mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Vector(name: "Test Case 4", key: Array(1...25), data: [UInt8](repeating: 0xcd, count: 50),
               mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        // Test Case 5 is truncated to 128 bits in the RFC.
        Vector(name: "Test Case 5 (truncated to 128 bits)", key: [UInt8](repeating: 0x0c, count: 20),
               data: ascii("Test With Truncation"),
               mac: "a3b6167473100ee06e0c796c2955552b"),
        Vector(name: "Test Case 6 (131-byte key)", key: [UInt8](repeating: 0xaa, count: 131),
               data: ascii("Test Using Larger Than Block-Size Key - Hash Key First"),
               mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Vector(name: "Test Case 7 (131-byte key, 152-byte data)", key: [UInt8](repeating: 0xaa, count: 131),
               data: ascii("This is a test using a larger than block-size key and a larger than block-size data."
                   + " The key needs to be hashed before being used by the HMAC algorithm."),
               mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test("RFC 4231 test cases 1-7", arguments: rfc4231)
    func rfc4231Vectors(vector: Vector) {
        let expected = bytes(vector.mac)
        #expect(expected.count == 32 || expected.count == 16)
        let mac = HMACSHA256.authenticationCode(for: vector.data, key: HMACSHA256.Key(vector.key))
        #expect(mac.count == 32)
        #expect(Array(mac.prefix(expected.count)) == expected)
    }

    @Test("RFC 4231 test cases, streamed one byte at a time with a non-contiguous key", arguments: rfc4231)
    func rfc4231VectorsStreamed(vector: Vector) {
        let expected = bytes(vector.mac)
        let key = HMACSHA256.Key(vector.key.lazy.map { $0 })
        var hmac = HMACSHA256(key: key)
        for byte in vector.data {
            hmac.update(CollectionOfOne(byte))
        }
        #expect(Array(hmac.finalize().prefix(expected.count)) == expected)
    }

    static let d24Key = "cashout_secret_key"
    static let d24Body = #"{"login":"cashout_login","pass":"cashout_pass","cashout_id":11954}"#

    @Test("D24 vector: JSON body")
    func d24Body() {
        let key = HMACSHA256.Key(Self.d24Key)
        let mac = HMACSHA256.authenticationCode(for: Array(Self.d24Body.utf8), key: key)
        #expect(Hex.lowercase(mac) == "db96878e3d4066e680a1dbebc977546276e1427aefbe14ead1b410a76d45cc60")
    }

    @Test("D24 vector: empty body")
    func d24EmptyBody() {
        let key = HMACSHA256.Key(Self.d24Key)
        let mac = HMACSHA256.authenticationCode(for: [UInt8](), key: key)
        #expect(Hex.lowercase(mac) == "8d3e2b061e753c88e401ac8737e6dc7af9e02d590fd1dd4d5e1ded9f4430487c")
        #expect(Hex.lowercase(HMACSHA256.authenticationCode(for: "", key: Self.d24Key))
            == "8d3e2b061e753c88e401ac8737e6dc7af9e02d590fd1dd4d5e1ded9f4430487c")
    }

    @Test("Notification control vector (uppercase hex)")
    func notificationControlVector() {
        let expected = "DDD345FB66A8053FBB69E0DBCACFDE5F63CA05140C3A2C446B7A0E4118F8BA1D"
        let secret = "your_cashout_api_signature"

        // String convenience.
        let oneShot = HMACSHA256.authenticationCode(for: "Be4" + "cashoutID1234" + "Bo7", key: secret)
        #expect(Hex.uppercase(oneShot) == expected)

        // Streamed in the three parts the notification handler concatenates.
        var hmac = HMACSHA256(key: HMACSHA256.Key(secret))
        hmac.update("Be4".utf8)
        hmac.update("cashoutID1234".utf8)
        hmac.update("Bo7".utf8)
        #expect(Hex.uppercase(hmac.finalize()) == expected)
    }

    @Test("String conveniences agree with the byte API, including Substring")
    func stringConveniences() {
        let text = "prefix:Be4cashoutID1234Bo7"
        let message = text.dropFirst("prefix:".count)
        let key = HMACSHA256.Key("your_cashout_api_signature")
        let viaBytes = HMACSHA256.authenticationCode(for: Array(message.utf8),
                                                     key: HMACSHA256.Key(Array("your_cashout_api_signature".utf8)))
        #expect(HMACSHA256.authenticationCode(for: message, key: key) == viaBytes)
        #expect(HMACSHA256.authenticationCode(for: message, key: "your_cashout_api_signature") == viaBytes)
        #expect(Hex.uppercase(viaBytes) == "DDD345FB66A8053FBB69E0DBCACFDE5F63CA05140C3A2C446B7A0E4118F8BA1D")
    }

    @Test("A reused key signs many messages like a fresh key each time")
    func keyReuse() {
        let secret = patternBytes(count: 40)
        let shared = HMACSHA256.Key(secret)
        var macs = Set<[UInt8]>()
        for length in 0..<100 {
            let message = patternBytes(count: length)
            let reused = HMACSHA256.authenticationCode(for: message, key: shared)
            let fresh = HMACSHA256.authenticationCode(for: message, key: HMACSHA256.Key(secret))
            #expect(reused == fresh, "length \(length)")
            macs.insert(reused)
        }
        #expect(macs.count == 100)
    }

    @Test("Key length boundaries: 64 bytes used as is, 65 bytes hashed first")
    func keyLengthBoundaries() {
        let message = ascii("boundary")
        let key64 = patternBytes(count: 64)
        let key65 = patternBytes(count: 65)
        // RFC 2104: a key longer than the block is replaced by H(key), so it must
        // authenticate exactly like its 32-byte digest used directly as the key.
        #expect(HMACSHA256.authenticationCode(for: message, key: HMACSHA256.Key(key65))
            == HMACSHA256.authenticationCode(for: message, key: HMACSHA256.Key(SHA256.hash(key65))))
        // ...whereas a 64-byte key is not hashed.
        #expect(HMACSHA256.authenticationCode(for: message, key: HMACSHA256.Key(key64))
            != HMACSHA256.authenticationCode(for: message, key: HMACSHA256.Key(SHA256.hash(key64))))
        // Zero padding: a short key equals itself followed by zeros up to 64 bytes.
        #expect(HMACSHA256.authenticationCode(for: message, key: HMACSHA256.Key(ascii("Jefe")))
            == HMACSHA256.authenticationCode(for: message, key: HMACSHA256.Key(ascii("Jefe") + [UInt8](repeating: 0, count: 60))))
    }

    @Test("Cross-check against Python hmac/hashlib on 200 random key/message pairs",
          .enabled(if: python3Path != nil, "python3 not found on PATH"))
    func crossCheckWithPython() throws {
        var generator = SplitMix64(state: 0x5EED_CA5B_0D24_2024)
        var cases: [(key: [UInt8], message: [UInt8])] = [
            ([], []), (patternBytes(count: 64), patternBytes(count: 64)),
            (patternBytes(count: 65), patternBytes(count: 55)), (patternBytes(count: 300), patternBytes(count: 300)),
        ]
        while cases.count < 200 {
            let keyLength = Int.random(in: 0...300, using: &generator)
            let messageLength = Int.random(in: 0...300, using: &generator)
            let key = (0..<keyLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let message = (0..<messageLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
            cases.append((key, message))
        }

        let script = """
            import sys, hmac, hashlib
            out = []
            for line in sys.stdin.read().split("\\n"):
                if not line:
                    continue
                k, m = (bytes.fromhex(part) for part in line.split(" "))
                out.append(hmac.new(k, m, hashlib.sha256).hexdigest() + " " + hashlib.sha256(m).hexdigest())
            sys.stdout.write("\\n".join(out) + "\\n")
            """
        let input = cases.map { Hex.lowercase($0.key) + " " + Hex.lowercase($0.message) }.joined(separator: "\n") + "\n"

        // Feed stdin from a file so neither side can block on a full pipe.
        let inputURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("sandboxcrypto-crosscheck-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max)).txt")
        try Data(input.utf8).write(to: inputURL)
        defer { try? FileManager.default.removeItem(at: inputURL) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(python3Path))
        process.arguments = ["-c", script]
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        let errorData = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()

        let errorText = String(decoding: errorData, as: UTF8.self)
        try #require(process.terminationStatus == 0, "python3 failed: \(errorText)")
        let lines = String(decoding: outputData, as: UTF8.self).split(separator: "\n")
        try #require(lines.count == cases.count, "python3 printed \(lines.count) lines for \(cases.count) cases")

        for (index, (line, testCase)) in zip(lines, cases).enumerated() {
            let fields = line.split(separator: " ")
            try #require(fields.count == 2)

            // One-shot with a freshly prepared key.
            let mac = HMACSHA256.authenticationCode(for: testCase.message, key: HMACSHA256.Key(testCase.key))
            #expect(Hex.lowercase(mac) == fields[0], "HMAC case \(index): key \(testCase.key.count) B, message \(testCase.message.count) B")
            #expect(Hex.lowercase(SHA256.hash(testCase.message)) == fields[1], "SHA-256 case \(index): \(testCase.message.count) B")

            // Streamed in random-sized pieces.
            var hmac = HMACSHA256(key: HMACSHA256.Key(testCase.key))
            var start = 0
            while start < testCase.message.count {
                let end = min(testCase.message.count, start + Int.random(in: 1...70, using: &generator))
                hmac.update(testCase.message[start..<end])
                start = end
            }
            #expect(Hex.lowercase(hmac.finalize()) == fields[0], "streamed HMAC case \(index)")
        }
    }
}
