import SandboxSupport
import SandboxContract

// A verification's answer, the same for `POST /sandbox/requests/verify` and `Sandbox.verifyRequests`:
// 200 `{"ok": true, "count": N}`; 422 `{"ok": false, "count", "expected", "message",
// "near_misses"}`, each near miss a logged request as `GET /sandbox/requests` shows it, with its
// `differences`; 409 `{"ok": false, "unknowable": true, "message"}` when the log no longer holds
// what would decide it; 400 `{"message"}` for a body that is no verification.

extension RequestVerification {
    static func answer(_ body: [UInt8], requestLog: RequestLog) -> (status: Int, answer: JSON) {
        let verification: RequestVerification
        do {
            verification = try read(ScenarioNode(value: try JSON.parse(body), path: "", file: "request body"))
        } catch let error as ScenarioError {
            return (400, ["message": .string(error.message)])
        } catch {
            return (400, ["message": .string(#"expected a JSON object such as {"request": {"method": "POST", "path": "/v3/cashout"}}: \#(error)"#)])
        }
        return verification.answer(requestLog: requestLog)
    }

    func answer(requestLog: RequestLog) -> (status: Int, answer: JSON) {
        switch outcome(in: requestLog) {
        case .satisfied(let count, _):
            return (200, ["ok": true, "count": .number(count)])
        case .notSatisfied(let count, _, let message, let nearMisses):
            let entries = Dictionary(requestLog.all().entries.map { ($0.id, $0) }) { first, _ in first }
            let misses: [JSON] = nearMisses.compactMap { miss in
                guard let entry = entries[miss.entry], case .object(var json) = requestLog.json(entry) else { return nil }
                json["differences"] = .array(miss.differences.map(JSON.string))
                return .object(json)
            }
            return (422, ["ok": false, "count": .number(count), "expected": json, "message": .string(message),
                          "near_misses": .array(misses)])
        case .unknowable(let message):
            return (409, ["ok": false, "unknowable": true, "message": .string(message)])
        }
    }
}
