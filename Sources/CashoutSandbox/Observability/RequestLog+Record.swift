import SandboxBank
import SandboxContract
import SandboxWire
import SandboxSupport

// The request log as a finished run's record keeps it (`cashout-sandbox show`, the Testing your app
// guide, "A finished run in the dashboard"): each entry with its exact bytes (bodies base64), its
// times and turns, the fault that answered it and the diagnosis of a refusal, read back into a
// log as the entries it was made of.

extension RequestLog {
    /// Every entry kept, oldest first, as a record keeps it.
    func recordJSON() -> JSON {
        .array(all().entries.map { entry in
            let request = entry.request, response = entry.response
            var answer: [String: JSON] = ["status": .number(response.status), "headers": Self.fields(response.headers),
                                          "body": .string(Base64.encode(response.body)), "dropped": .bool(response.isDroppedConnection)]
            if let trailers = response.trailers { answer["trailers"] = Self.fields(trailers) }
            if let cut = response.cutAfter { answer["cut_after"] = .number(cut) }
            if let fault = response.fault {
                answer["fault"] = ["index": .number(fault.index), "kind": .string(fault.kindName), "handled": .bool(fault.handled)]
            }
            if let diagnosis = response.diagnosis {
                answer["diagnosis"] = ["check": .string(diagnosis.check), "message": .string(diagnosis.message),
                                       "details": .object(diagnosis.details)]
            }
            if let nearMiss = response.nearMiss { answer["near_miss"] = .string(nearMiss) }
            return [
                "at": .number(String(entry.at.milliseconds)), "received_at": .number(String(entry.receivedAt)), "turn": .number(entry.turn),
                "answered_turn": .number(entry.answeredTurn), "route": entry.route.map(JSON.string) ?? .null,
                "dialect": entry.dialect.map(JSON.string) ?? .null, "truncated": [.bool(entry.requestTruncated), .bool(entry.responseTruncated)],
                "request": ["method": .string(request.method), "target": .string(request.target), "version": .string(request.version.text),
                            "headers": Self.fields(request.headers), "body": .string(Base64.encode(request.body))],
                "response": .object(answer),
            ]
        })
    }

    /// Records the entries of `record` (``recordJSON()``) in order, their wall-clock times moved by `shift` milliseconds;
    /// how many it took. An entry not in the form is passed over.
    @discardableResult
    func restore(record entries: JSON, shift: Int64) -> Int {
        var restored = 0
        for item in entries.arrayValue ?? [] {
            guard let request = item["request"], let answer = item["response"], let method = request["method"]?.stringValue,
                  let target = request["target"]?.stringValue, let at = RecordTimes.virtual(item["at"]),
                  let received = RecordTimes.real(item["received_at"], shift: shift) else { continue }
            let version: HTTPVersion = request["version"]?.stringValue == HTTPVersion.http2.text ? .http2 : .http1_1
            let bytes = { (json: JSON?) in json?.stringValue.flatMap(Base64.decode) ?? [] }
            var response = answer["dropped"]?.boolValue == true ? HTTPResponse.closeWithoutAnswer
                : HTTPResponse(status: answer["status"]?.integerValue ?? 0, headers: Self.headers(answer["headers"]), body: bytes(answer["body"]),
                               trailers: answer["trailers"].map { Self.headers($0) })
            if let cut = answer["cut_after"]?.integerValue { response = response.cutOff(after: cut) }
            if let fault = answer["fault"], let index = fault["index"]?.integerValue,
               let kind = fault["kind"]?.stringValue.flatMap(FaultKind.init(rawValue:)) {
                response.fault = InjectedFault(index: index, kind: kind, handled: fault["handled"]?.boolValue ?? false)
            }
            if let diagnosis = answer["diagnosis"], let check = diagnosis["check"]?.stringValue {
                response.diagnosis = Diagnosis(check, diagnosis["message"]?.stringValue ?? "", diagnosis["details"]?.objectValue ?? [:])
            }
            response.nearMiss = answer["near_miss"]?.stringValue
            record(HTTPRequest(method: method, target: target, version: version, headers: Self.headers(request["headers"]),
                               body: bytes(request["body"])),
                   response, route: item["route"]?.stringValue, dialect: item["dialect"]?.stringValue,
                   at: at, receivedAt: received, turn: item["turn"]?.integerValue ?? 0, answeredTurn: item["answered_turn"]?.integerValue ?? 0,
                   truncated: (item["truncated"]?[0]?.boolValue ?? false, item["truncated"]?[1]?.boolValue ?? false))
            restored += 1
        }
        return restored
    }

    /// Header fields as pairs, in order: `[["content-type", "application/json"], ...]`.
    private static func fields(_ headers: HTTPHeaders) -> JSON {
        .array(headers.map { name, value in [.string(name), .string(value)] })
    }

    private static func headers(_ json: JSON?) -> HTTPHeaders {
        var headers: HTTPHeaders = [:]
        for pair in json?.arrayValue ?? [] {
            guard let name = pair[0]?.stringValue, let value = pair[1]?.stringValue else { continue }
            headers.add(name, value)
        }
        return headers
    }
}
