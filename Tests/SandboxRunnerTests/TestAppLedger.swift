import Foundation
@testable import SandboxWire
import Synchronization

/// The ledger of a test app's one payout (`OwedRetryTests`, `AppSettledTests`): the status it
/// booked, and how much of its own work is in flight. A read of it is answered once none is (at
/// most 9 s), as a careful app's lock does: only what the sandbox waits for, its retries after a
/// backoff, can make the read stale, never when a thread ran.
final class TestAppLedger: Sendable {
    private let externalID: String
    private let booked = Mutex("")
    private let inFlight = Atomic(0)

    init(externalID: String) {
        self.externalID = externalID
    }

    /// Work of the app's own begins (a request it sends, a follow-up it owes), or ends.
    func begin() { inFlight.add(1, ordering: .releasing) }
    func end() { inFlight.subtract(1, ordering: .releasing) }

    /// How much work is in flight (what an honest `app.settled` says).
    var pending: Int { inFlight.load(ordering: .acquiring) }

    func book(_ status: String) { booked.withLock { $0 = status } }

    /// `GET /ledger`'s answer: the payout and its booked status, once nothing is in flight.
    func answer() -> HTTPResponse {
        let deadline = ContinuousClock.now + .seconds(9)
        while pending > 0, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
        let entry = #"{"external_id": "\#(externalID)", "amount": "100.00", "status": "\#(booked.withLock { $0 })"}"#
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(#"{"payouts": [\#(entry)]}"#.utf8))
    }
}
