import Testing
@testable import SandboxBank
@testable import SandboxPersistence

/// A snapshot read a part at a time (as a `PUT /sandbox/snapshot` body or a compacted journal's
/// records come) is what reading it whole gives, wherever the parts end; and what reading it
/// whole refuses is refused in parts too.
struct BankSnapshotDecoderTests {
    typealias Whole = BankSnapshotTests

    /// `bytes` read in parts that end at `cuts`, the bytes a part leaves unread carried over to
    /// the next, as `SandboxSnapshot.Decoder` does; errors say where they are in the whole.
    static func decodedInParts(_ bytes: [UInt8], cuts: some Sequence<Int>) -> Result<BankSnapshot, BinaryReader.Malformed> {
        var decoder = BankSnapshot.Decoder()
        var (pending, decoded, start) = ([UInt8](), 0, 0)
        for end in Array(cuts) + [bytes.count] where end >= start {
            pending += bytes[start ..< end]
            start = end
            let last = end == bytes.count
            let read = pending.withUnsafeBytes { buffer -> Result<(Int, BankSnapshot?), BinaryReader.Malformed> in
                var reader = BinaryReader(buffer, more: !last)
                do throws(BinaryReader.Malformed) {
                    let snapshot = try decoder.read(&reader)
                    if last, snapshot == nil || !reader.isAtEnd {
                        throw BinaryReader.Malformed(offset: reader.offset, reason: snapshot == nil ? "cut short" : "bytes after the snapshot")
                    }
                    return .success((reader.offset, snapshot))
                } catch {
                    return .failure(error)
                }
            }
            switch read {
            case .failure(let error): return .failure(.init(offset: decoded + error.offset, reason: error.reason))
            case .success((let consumed, let snapshot)):
                if let snapshot { return .success(snapshot) }
                pending.removeFirst(consumed)
                decoded += consumed
            }
        }
        return .failure(.init(offset: decoded, reason: "no last part"))
    }

    static func decodedWhole(_ bytes: [UInt8]) -> Result<BankSnapshot, BinaryReader.Malformed> {
        bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            do throws(BinaryReader.Malformed) {
                let snapshot = try BankSnapshot(decoding: &reader)
                guard reader.isAtEnd else { throw BinaryReader.Malformed(offset: reader.offset, reason: "bytes after the snapshot") }
                return .success(snapshot)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Parts of `size` bytes.
    static func cuts(every size: Int, of count: Int) -> StrideTo<Int> {
        stride(from: size, to: count, by: size)
    }

    @Test(arguments: [4, 6] as [UInt64])
    func partsOfAnySizeGiveTheSnapshotReadWhole(seed: UInt64) throws {
        let live = BankReplayTests.bank(BankReplayTests.Receiver())
        BankReplayTests.drive(live, seed: seed)
        let bytes = Whole.encoded(live.snapshot())
        for size in [1, 3, 64, 4096] {
            let snapshot = try Self.decodedInParts(bytes, cuts: Self.cuts(every: size, of: bytes.count)).get()
            #expect(Whole.encoded(snapshot) == bytes, "parts of \(size)")
        }
    }

    /// A small world's snapshot: two payouts notified, with their ledger entries and next steps.
    static func smallWorld() throws -> [UInt8] {
        let live = BankReplayTests.bank(BankReplayTests.Receiver())
        for index in 0 ..< 2 {
            _ = try live.createPayout(PayoutRequest(dialect: "test", account: "acme", reference: "o-\(index)", country: "BR", currency: "USD",
                                                    amount: Money("10.00")!, callbackURL: "http://hook"))
        }
        live.advance(by: .seconds(7))
        return Whole.encoded(live.snapshot())
    }

    @Test func twoPartsEndingAtAnyByteGiveTheSnapshotReadWhole() throws {
        let bytes = try Self.smallWorld()
        for cut in 0 ... bytes.count {
            let snapshot = try Self.decodedInParts(bytes, cuts: [cut]).get()
            #expect(Whole.encoded(snapshot) == bytes, "cut at \(cut)")
        }
    }

    /// Bytes flipped anywhere: in parts, the same snapshot or a refusal, as read whole; and a
    /// refusal that a part ending did not change: the same place, the same reason.
    @Test func damagedBytesAreRefusedInPartsAsWhole() throws {
        let bytes = try Self.smallWorld()
        var random = SplitMix64(seed: 18)
        for _ in 0 ..< 500 {
            var damaged = bytes
            damaged[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            let whole = Self.decodedWhole(damaged)
            for size in [3, 100] {
                let parts = Self.decodedInParts(damaged, cuts: Self.cuts(every: size, of: damaged.count))
                switch (whole, parts) {
                case (.success(let a), .success(let b)): #expect(Whole.encoded(a) == Whole.encoded(b))
                case (.failure(let a), .failure(let b)):
                    // A count too large for the bytes left is found when they are known, in the last part.
                    if !a.reason.hasPrefix("a count larger") { #expect(a == b) }
                default: Issue.record("whole: \(whole), in parts of \(size): \(parts)")
                }
            }
        }
    }

    @Test func everyCutIsRefusedInParts() throws {
        let bytes = try Self.smallWorld()
        for length in 0 ..< bytes.count {
            guard case .failure = Self.decodedInParts(Array(bytes.prefix(length)), cuts: Self.cuts(every: 5, of: length)) else {
                Issue.record("the first \(length) of \(bytes.count) bytes decoded")
                continue
            }
        }
    }

    @Test(arguments: BankSnapshotTests.Breakage.allCases)
    func aSnapshotThatDoesNotHoldTogetherIsRefusedInPartsWithTheSameError(breakage: BankSnapshotTests.Breakage) throws {
        let live = BankReplayTests.bank(BankReplayTests.Receiver())
        _ = try live.createPayout(PayoutRequest(dialect: "test", account: "acme", reference: "o-1", country: "BR", currency: "USD",
                                                amount: Money("10.00")!, callbackURL: "http://hook"))
        var snapshot = live.snapshot()
        breakage.apply(&snapshot.state)
        let bytes = Whole.encoded(snapshot)
        let whole = try #require(throws: BinaryReader.Malformed.self) { try Whole.decoded(bytes) }
        for size in [1, 3, 16] {
            guard case .failure(let error) = Self.decodedInParts(bytes, cuts: Self.cuts(every: size, of: bytes.count)) else {
                Issue.record("decoded in parts of \(size)")
                continue
            }
            #expect(error == whole)
        }
    }
}
