// libFuzzer harness for the bank's snapshot decoding (SandboxPersistence): `PUT /sandbox/snapshot` takes a file from
// anyone who can reach the admin API, and its records' checksums say nothing about intent, so the
// bank's state in it is untrusted input. Built and run by .ci/fuzz; seeds in
// Tests/Fuzz/corpus/snapshot (snapshots of sandboxes with cashouts in every status, retries
// pending, held and returned payouts), dictionary Tests/Fuzz/snapshot.dict.
//
// A `BinaryReader.Malformed` is a normal outcome. The properties, any break of which traps:
//   * a refusal says where (an offset within the input) and why;
//   * what decodes encodes back to the same bytes, and decodes again to the same snapshot;
//   * what decodes can be used: restored into a bank, every read the admin API makes (payouts,
//     scheduled steps, notifications, the ledger, the next event) works; a new payout, status
//     changes, a redelivery and 30 days of events run without trapping or hanging.

@testable import SandboxBank
@testable import SandboxPersistence

private func decode(_ bytes: [UInt8]) -> Result<BankSnapshot, BinaryReader.Malformed> {
    bytes.withUnsafeBytes { buffer in
        var reader = BinaryReader(buffer)
        do throws(BinaryReader.Malformed) {
            let snapshot = try BankSnapshot(decoding: &reader)
            guard reader.isAtEnd else { return .failure(.init(offset: reader.offset, reason: "bytes after the snapshot")) }
            return .success(snapshot)
        } catch {
            return .failure(error)
        }
    }
}

private func encode(_ snapshot: BankSnapshot) -> [UInt8] {
    var bytes: [UInt8] = []
    snapshot.encode(into: &bytes)
    return bytes
}

private func exercise(_ snapshot: BankSnapshot, _ input: [UInt8]) {
    let bank = Bank(clock: VirtualClock(mode: .manual), accounts: []) { notification in
        notification.id % 3 == 0 ? DeliveryOutcome(status: 500) : DeliveryOutcome(status: 200)
    }
    bank.restore(snapshot)
    guard bank.clock.now == snapshot.time else { fuzzFail("the clock was not restored", input) }
    let payouts = bank.payouts()
    guard payouts.count == snapshot.payoutCount else { fuzzFail("payouts lost in the restore", input) }
    for payout in payouts.prefix(50) {
        _ = bank.scheduledSteps(payoutID: payout.id)
        _ = bank.notifications(payoutID: payout.id)
        if let reference = payout.reference { _ = bank.payout(account: payout.account, reference: reference) }
    }
    _ = bank.ledger()
    _ = bank.nextEventAt
    if let merchant = bank.accounts.first {
        _ = try? bank.createPayout(PayoutRequest(dialect: merchant.dialect, account: merchant.id, reference: "fuzz-new", country: "BR",
                                                 currency: merchant.currency, amount: Money(hundredths: 1)))
    }
    for (index, payout) in payouts.prefix(8).enumerated() {
        let status = PayoutStatus.allCases[index % PayoutStatus.allCases.count]
        _ = try? bank.changeStatus(payoutID: payout.id, to: status, by: "admin", reasonCode: status == .rejected ? "801" : nil)
        _ = try? bank.execute(payoutID: payout.id, by: "merchant")
    }
    _ = bank.redeliver(notificationID: 1)
    bank.advance(by: .seconds(30 * 86400))
    _ = bank.ledger()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func bankSnapshotFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    switch decode(input) {
    case .failure(let error):
        if fuzzShow { fuzzShowLine("refused: \(error)") }
        guard (0 ... input.count).contains(error.offset), !error.reason.isEmpty else { fuzzFail("refusal without place or reason: \(error)", input) }
    case .success(let snapshot):
        if fuzzShow { fuzzShowLine("decoded: \(snapshot.payoutCount) payouts, \(snapshot.accounts.count) merchants at \(snapshot.time)") }
        let bytes = encode(snapshot)
        guard case .success(let again) = decode(bytes), encode(again) == bytes else {
            fuzzFail("a decoded snapshot does not come back the same through its binary form", input)
        }
        exercise(snapshot, input)
    }
    return 0
}
