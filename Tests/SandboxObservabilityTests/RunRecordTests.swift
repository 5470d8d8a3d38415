@testable import SandboxBank
@testable import SandboxContract
@testable import SandboxWire
@testable import SandboxSupport
@testable import CashoutSandbox
import Testing

/// A finished run's record (`cashout-sandbox show`) keeps the request log and the timeline recorder as they were, and
/// reads back a record a user hands over without trusting it: a time out of range is passed over, never a crash.
@Suite struct RunRecordTests {
    static func log(bodyLimit: Int = 64) -> RequestLog {
        RequestLog(capacity: 10, bodyLimit: bodyLimit, grpc: GRPCServer(services: [], files: { [] }))
    }

    @Test func theRequestLogComesBackAsItWasItsTimesMoved() throws {
        let original = Self.log()
        var refused = HTTPResponse(status: 401, headers: ["Content-Type": "application/json"], body: Array(#"{"code":302}"#.utf8))
        refused.diagnosis = Diagnosis("signature_mismatch", "wrong secret", ["login": "sandbox_login"])
        original.record(HTTPRequest(method: "POST", target: "/v3/cashout/status", headers: ["Payload-Signature": "ab"],
                                    body: Array(String(repeating: "x", count: 100).utf8)),
                        refused, route: "POST /v3/cashout/status", dialect: "d24", at: VirtualTime(milliseconds: 1_000), receivedAt: 5_000,
                        turn: 3, answeredTurn: 4)
        var lost = HTTPResponse.closeWithoutAnswer
        lost.fault = InjectedFault(index: 1, kind: .dropAfterCommit, handled: true)
        original.record(HTTPRequest(method: "POST", target: "/v3/cashout", body: [0, 255, 10]), lost, route: "POST /v3/cashout",
                        dialect: "d24", at: VirtualTime(milliseconds: 2_000), receivedAt: 6_000, turn: 5, answeredTurn: 5)
        let copy = Self.log()
        #expect(copy.restore(record: original.recordJSON(), shift: 100) == 2)
        let (was, now) = (original.all().entries, copy.all().entries)
        #expect(now.map(\.receivedAt) == [5_100, 6_100])
        #expect(now.map(\.at) == was.map(\.at) && now.map(\.turn) == was.map(\.turn) && now.map(\.answeredTurn) == was.map(\.answeredTurn))
        #expect(now.map(\.request.body) == was.map(\.request.body) && now.map(\.response.body) == was.map(\.response.body))
        #expect(now.map(\.requestTruncated) == [true, false], "the first body was cut at 64 bytes, and says so still")
        #expect(now[0].response.diagnosis == was[0].response.diagnosis && now[0].request.headers["Payload-Signature"] == "ab")
        #expect(now[1].response.fault == was[1].response.fault && now[1].response.isDroppedConnection)
        #expect(now.map(\.route) == was.map(\.route) && now.map(\.dialect) == ["d24", "d24"])
    }

    @Test func theRecordersTimesAndStopsComeBackMovedToItsStart() throws {
        let original = TimelineRecorder(capacity: 10, started: 1_000)
        original.record(TimelineRecorder.Stop(began: 1_500, turn: 7, at: VirtualTime(milliseconds: 60_000), waitedFor: "the app",
                                              payouts: [1000001], ended: .settled, lasted: 12))
        let copy = TimelineRecorder(capacity: 10, started: 4_000)
        #expect(copy.restore(record: original.recordJSON()) == 3_000)
        #expect(copy.stops == [TimelineRecorder.Stop(began: 4_500, turn: 7, at: VirtualTime(milliseconds: 60_000), waitedFor: "the app",
                                                     payouts: [1000001], ended: .settled, lasted: 12)])
    }

    /// Times that would overflow once moved or shown, and items not in the form: passed over.
    @Test func aRecordOutOfRangeIsPassedOverNeverACrash() throws {
        let recorder = TimelineRecorder(capacity: 10, started: 1_000)
        let shift = recorder.restore(record: [
            "started": .number(String(Int64.min)),
            "times": [["change", 1, 0, .number(String(Int64.max)), 1], ["sent", 1, 1, -5, 1], "nonsense"],
            "stops": [["began": .number(String(Int64.max)), "at": -1, "ended": "settled", "lasted": 1],
                      ["began": 5, "at": .number(String(Int64.max)), "ended": "quiet", "lasted": 1], ["ended": "nope"]],
        ])
        #expect(shift == 0 && recorder.stops.isEmpty && recorder.moment(of: .change(payout: 1, index: 0)) == nil)
        let log = Self.log()
        let taken = log.restore(record: [
            ["at": .number(String(Int64.max)), "received_at": 1, "request": ["method": "GET", "target": "/"], "response": ["status": 200]],
            ["at": 1, "received_at": .number(String(Int64.min)), "request": ["method": "GET", "target": "/"], "response": ["status": 200]],
            ["at": 1, "received_at": 1, "request": ["method": "GET", "target": "/", "body": "not base64!"], "response": ["status": 200]],
            "nonsense",
        ], shift: .max)
        #expect(taken == 0)
        #expect(log.restore(record: [["at": 1, "received_at": 1, "request": ["method": "GET", "target": "/"], "response": [:]]], shift: 0) == 1)
    }
}
