@testable import SandboxBank
@testable import SandboxPersistence
import TestHelpers
import Testing

/// Journal records come back from their binary form exactly as written, and a record cut short
/// anywhere is an error, never a crash or a wrong record.
struct BankRecordTests {
    static let merchant = Account(id: "acme", dialect: "test", currency: "EUR", balance: Money("5000.25")!,
                                  limits: .init(transaction: Money("100")!, daily: nil, monthly: Money("9000")!),
                                  minimumAmounts: ["BR": Money("10")!, "MX": Money("0.01")!], callbackURL: "http://localhost/hook",
                                  settings: ["secret": "s€cret", "allowed_ips": "127.0.0.1,::1"])
    static let records: [BankRecord] = {
        var request = PayoutRequest(dialect: "test", account: "acme", reference: "order-ü-1", country: "BR", currency: "BRL",
                                    amount: Money("100.50")!, status: .onHold, callbackURL: nil)
        request.fields["beneficiary_name"] = "Ana 💸"
        request.fields["amount"] = "100.50"
        var late = TimelineStep(after: .seconds(3600), status: .returned, reasonCode: "826", reason: "WITHDRAWAL_REVERSED",
                                bankReference: "E2E", statusDetail: nil)
        late.businessDays = 2
        let at = VirtualTime(iso8601: "2026-01-05T09:00:00Z")!
        return [
            .created(request, at: at, settlement: Money("-17.00")!, timeline: [
                TimelineStep(after: .milliseconds(1500), status: .delivered), late,
                TimelineStep(after: .zero, status: .rejected, reasonCode: "801"),
            ], decision: TimelineDecision(kind: .rule, scenario: "acme bank ü", rule: "late reversal", index: 3, outcome: 1)),
            .created(PayoutRequest(dialect: "test", account: "m", reference: "", country: "", currency: "", amount: .zero), at: at, settlement: .zero,
                     timeline: []),
            .statusChanged(payoutID: 1_000_001, to: TimelineStep(after: .zero, status: .onHold), by: "merchant", at: at),
            .statusChanged(payoutID: Int.max, to: TimelineStep(after: .zero, status: .cancelled, statusDetail: "asked"), by: "admin",
                           at: VirtualTime(milliseconds: 253_402_300_799_999)),
            .eventRan(at: at),
            .attempt(notificationID: 1, at: at, outcome: DeliveryOutcome(status: 500, error: nil, body: "oops"), scheduled: true),
            .attempt(notificationID: 2, at: at, outcome: DeliveryOutcome(status: nil, error: "timed out", body: nil), scheduled: true),
            .attempt(notificationID: 3, at: at, outcome: DeliveryOutcome(status: 200), scheduled: false),
            .clock(to: VirtualTime(milliseconds: 0)),
            .account(merchant),
            .executed(payoutID: 1_000_002, by: "merchant", at: at),
            .detailsAdded(payoutID: 1_000_002, PayoutDetails(fields: ["method": "sepa"], callbackURL: "http://hook"),
                          timeline: [TimelineStep(after: .seconds(1), status: .delivered)], at: at,
                          decision: TimelineDecision(kind: .magicValue, scenario: "the built-in rules", rule: "FAIL", index: 0)),
            .detailsAdded(payoutID: 1_000_003, PayoutDetails(), timeline: [], at: at),
            .created(PayoutRequest(dialect: "test", account: "m", currency: "USD", amount: .zero, status: .staged), at: at,
                     settlement: .zero, timeline: [], decision: .defaultTimeline(of: nil)),
            .created(PayoutRequest(dialect: "test", account: "m", currency: "USD", amount: .zero, status: .awaitingDetails,
                                   expiresAfter: .seconds(86400)), at: at, settlement: .zero, timeline: []),
            .reset([merchant, .sandboxDefault]),
            .reset([]),
            .chaosPlanned(notificationID: 7, ChaosPlan(shift: .hold(atMost: .seconds(600)), shiftRule: ChaosRule(index: 2, name: "réordonné"),
                                                       copies: [ChaosPlan.Copy(kind: .replay, after: .milliseconds(1500),
                                                                               rule: ChaosRule(index: 0, name: nil)),
                                                                ChaosPlan.Copy(kind: .forged, after: .zero, rule: ChaosRule(index: 1, name: "f"))],
                                                       matched: [0, 1, 2]), at: at),
            .chaosPlanned(notificationID: 8, ChaosPlan(shift: .delay(.seconds(90)), shiftRule: ChaosRule(index: 0, name: nil)), at: at),
            .chaosPlanned(notificationID: 9, ChaosPlan(matched: [4]), at: at),
            .chaosAttempt(notificationID: 7, at: at, outcome: DeliveryOutcome(status: 401, body: "bad control"),
                          ChaosMark(kind: .forged, rule: ChaosRule(index: 1, name: "f"), copy: 1, copyOf: 1, delay: .zero)),
            .chaosAttempt(notificationID: 7, at: at, outcome: DeliveryOutcome(error: "timed out"),
                          ChaosMark(kind: .replay, rule: ChaosRule(index: 0, name: nil), copy: 0, copyOf: 2, delay: .seconds(1), after: 9)),
            .chaosAttempt(notificationID: 1, at: at, outcome: DeliveryOutcome(status: 200), ChaosMark(kind: .duplicate, rule: nil)),
        ]
    }()

    @Test func everyRecordComesBackAsWritten() throws {
        var bytes: [UInt8] = []
        for record in Self.records { record.encode(into: &bytes) }
        let decoded = try bytes.withUnsafeBytes { buffer throws -> [BankRecord] in
            var reader = BinaryReader(buffer)
            var decoded: [BankRecord] = []
            while !reader.isAtEnd { decoded.append(try BankRecord(decoding: &reader)) }
            return decoded
        }
        #expect(decoded == Self.records)
    }

    /// Format 4 wrote no decision after a create or details added: such a record reads as
    /// decided by something unknown.
    @Test func aFormatFourRecordReadsWithAnUnknownDecision() throws {
        let format4 = BankFormat(version: 4, legacyDialect: "", legacySettings: { _, _ in [:] })
        var checked = 0
        for record in Self.records {
            let unknown: BankRecord
            switch record {
            case .created(let request, let at, let settlement, let timeline, let decision) where decision != .unknown:
                unknown = .created(request, at: at, settlement: settlement, timeline: timeline)
            case .detailsAdded(let id, let details, let timeline, let at, let decision) where decision != .unknown:
                unknown = .detailsAdded(payoutID: id, details, timeline: timeline, at: at)
            default: continue
            }
            // The decision is written last, starting with its kind: the bytes before it are format 4's.
            var (bytes, unknownBytes): ([UInt8], [UInt8]) = ([], [])
            record.encode(into: &bytes)
            unknown.encode(into: &unknownBytes)
            let format4Bytes = Array(bytes.prefix(zip(bytes, unknownBytes).prefix { $0 == $1 }.count))
            let read = try format4Bytes.withUnsafeBytes { buffer in
                var reader = BinaryReader(buffer)
                let read = try BankRecord(decoding: &reader, format: format4)
                #expect(reader.isAtEnd)
                return read
            }
            #expect(read == unknown)
            checked += 1
        }
        #expect(checked == 3)
    }

    @Test func aRecordCutShortIsAnError() {
        for record in Self.records {
            var bytes: [UInt8] = []
            record.encode(into: &bytes)
            for cut in 0 ..< bytes.count {
                let failed = bytes[..<cut].withUnsafeBytes { buffer -> Bool in
                    var reader = BinaryReader(buffer)
                    return (try? BankRecord(decoding: &reader)) == nil
                }
                #expect(failed, "\(record) cut at \(cut) of \(bytes.count)")
            }
        }
    }

    /// Chaos records came with format 6: in an older journal, their kinds are no records at all.
    @Test func aChaosRecordIsNoRecordOfAnOlderFormat() throws {
        var bytes: [UInt8] = []
        for record in Self.records where record.kind.hasPrefix("webhook chaos") { record.encode(into: &bytes) }
        let older = BankFormat(version: 5, legacyDialect: "", legacySettings: { _, _ in [:] })
        bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            #expect(throws: BinaryReader.Malformed.self) { try BankRecord(decoding: &reader, format: older) }
        }
    }

    @Test func anUnknownKindOrStatusIsAnError() {
        for bytes in [[7], [200], [1, 2, 0, 0, 0, 3, 0x42, 0x41, 0x44]] as [[UInt8]] {
            let error = bytes.withUnsafeBytes { buffer -> String? in
                var reader = BinaryReader(buffer)
                do { _ = try BankRecord(decoding: &reader); return nil } catch { return "\(error)" }
            }
            #expect(error != nil, "\(bytes)")
        }
    }
}
