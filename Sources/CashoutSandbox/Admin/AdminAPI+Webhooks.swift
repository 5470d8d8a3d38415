import SandboxContract
import SandboxBank
import SandboxWire
import SandboxSupport
import SandboxPersistence

// The notification journal (every attempt), redelivery, webhook chaos, and the built-in sink.

extension AdminAPI {
    func listWebhooks(_ request: HTTPRequest) -> HTTPResponse {
        let payoutID = request.query("cashout_id").flatMap { Int($0) }
        return .json(["webhooks": .array(bank.notifications(payoutID: payoutID).map { AdminJSON.notification($0, words: statusWords) })])
    }

    func redeliverWebhook(_ request: HTTPRequest) -> HTTPResponse { send(request, chaos: nil) }

    func sendWebhookChaos(_ request: HTTPRequest) -> HTTPResponse {
        guard let kind = Self.object(request)?["kind"]?.stringValue.flatMap(ChaosKind.init(rawValue:)), kind.isCopy else {
            return Router.error(400, AdminMessage.chaosKind)
        }
        return send(request, chaos: kind)
    }

    func getWebhookChaos(_ request: HTTPRequest) -> HTTPResponse { .json(layers.setup.chaosJSON) }

    func putWebhookChaos(_ request: HTTPRequest) -> HTTPResponse { .later(on: worker) { putChaos(request) } }

    func getSink(_ request: HTTPRequest) -> HTTPResponse {
        let name = request.parameters["name"] ?? ""
        let script = sinks.script(name)
        return .json([
            "name": .string(name),
            "answers": .array(script.answers.map { .number($0) }),
            "check_signatures": .bool(script.checkSignatures), "deduplicate": .bool(script.deduplicate),
            "requests": .array(sinks.received(name).map(sinkRequest)), "total": .number(sinks.receivedCount(name)),
        ])
    }

    func scriptSink(_ request: HTTPRequest) -> HTTPResponse {
        let name = request.parameters["name"] ?? ""
        guard let script = Self.sinkScript(request, over: sinks.script(name)) else {
            return Router.error(400, AdminMessage.sinkScript)
        }
        sinks.script(name, script)
        return HTTPResponse(status: 204)
    }

    func clearSink(_ request: HTTPRequest) -> HTTPResponse {
        sinks.clear(request.parameters["name"] ?? "")
        return HTTPResponse(status: 204)
    }

    func postToSink(_ request: HTTPRequest) -> HTTPResponse {
        let answer = sinks.receive(request.parameters["name"] ?? "", at: bank.clock.now, method: request.method,
                                   path: String(request.path), headers: request.headers,
                                   body: String(decoding: request.body, as: UTF8.self))
        return .json(answer.body ?? ["received": true], status: answer.status)
    }

    /// One request a sink received, with what it did and which notification it was.
    private func sinkRequest(_ received: SinkStore.Received) -> JSON {
        let reading = sinks.read(received)
        return [
            "at": .string(received.at.iso8601), "method": .string(received.method), "path": .string(received.path),
            "content_type": AdminJSON.optional(received.contentType),
            "headers": .object(Dictionary(received.headers.map { ($0.name.lowercased(), JSON.string($0.value)) },
                                          uniquingKeysWith: { first, _ in first })),
            "body": .string(received.body),
            "form": .object(Dictionary((FormURLEncoding.decode(received.body.utf8) ?? []).map { ($0.name, JSON.string($0.value)) },
                                       uniquingKeysWith: { $1 })),
            "answered": .number(received.answered), "verdict": .string(received.verdict.rawValue), "reason": AdminJSON.optional(received.reason),
            "cashout_id": reading.map { .number($0.payoutID) } ?? .null, "status": AdminJSON.optional(reading?.status?.name),
        ]
    }

    /// `script` with what the body sets: `{"answers": [...], "check_signatures": bool, "deduplicate": bool}`,
    /// each optional (`{}` changes nothing, as in a scenario's `sinks`), nothing else.
    private static func sinkScript(_ request: HTTPRequest, over script: SinkScript) -> SinkScript? {
        guard let body = object(request), Set(body.keys).isSubset(of: ["answers", "check_signatures", "deduplicate"]) else { return nil }
        var script = script
        if let answers = body["answers"] {
            guard let list = answers.arrayValue, case let statuses = list.compactMap(\.integerValue),
                  statuses.count == list.count, statuses.allSatisfy({ (200 ... 599).contains($0) }) else { return nil }
            script.answers = statuses
        }
        for (key, flag) in [("check_signatures", \SinkScript.checkSignatures), ("deduplicate", \SinkScript.deduplicate)] {
            guard let value = body[key] else { continue }
            guard case .bool(let on) = value else { return nil }
            script[keyPath: flag] = on
        }
        return script
    }

    /// Sends a notification now, as itself (a redelivery) or as a chaos copy; answers once the
    /// attempt is recorded, holding no thread while the receiver takes its time.
    private func send(_ request: HTTPRequest, chaos kind: ChaosKind?) -> HTTPResponse {
        guard let id = request.parameters["id"].flatMap({ Int($0) }), let existing = bank.notification(id: id) else {
            return Router.error(404, AdminMessage.noWebhook(request.parameters["id"] ?? ""))
        }
        guard existing.url != nil else { return Router.error(409, AdminMessage.noNotificationURL(existing.id)) }
        return .deferred { answer in
            let done = { @Sendable (sent: StatusNotification?) in
                answer(sent.map { .json(AdminJSON.notification($0, words: statusWords)) }
                    ?? Router.error(409, "webhook \(id) is gone: the sandbox was reset or restored"))
            }
            if let kind { bank.sendChaos(notificationID: id, kind: kind, then: done) } else { bank.redeliver(notificationID: id, then: done) }
        }
    }

    /// Puts chaos rules in force (a scenario's `webhooks.chaos`), as a scenario of their own is
    /// loaded and journaled; answers with them.
    private func putChaos(_ request: HTTPRequest) -> HTTPResponse {
        guard case .array(let rules)? = try? JSON.parse(request.body) else {
            return Router.error(400, AdminMessage.chaosRules)
        }
        let scenario = JSON.object(["name": .string(AdminRoute.putWebhookChaos.route), "webhooks": ["chaos": .array(rules)]]).serialized()
        switch load(scenario: scenario) {
        case .failure(let refusal):
            // The loader's path is the scenario's ("webhooks.chaos[0].kind"): the body's is what follows.
            let message = refusal.message
            return Router.error(refusal.status, message.hasPrefix("webhooks.chaos") ? String(message.dropFirst("webhooks.chaos".count)) : message)
        case .success(let loaded):
            journal?.record(.scenarioLoaded, scenario)
            eventLog?.scenarioLoaded(name: loaded.name, rules: loaded.rules, merchants: loaded.merchants)
            return .json(layers.setup.chaosJSON)
        }
    }
}
