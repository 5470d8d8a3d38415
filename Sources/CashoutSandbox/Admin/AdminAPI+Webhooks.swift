import SandboxBank
import SandboxHTTP
import SandboxJSON

// The notification journal (every attempt), redelivery, and the built-in sink.

extension AdminAPI {
    func registerWebhooks(in router: inout Router) {
        router.add("GET /sandbox/webhooks") { request in
            let payoutID = request.query("cashout_id").flatMap { Int($0) }
            return .json(["webhooks": .array(bank.notifications(payoutID: payoutID).map { AdminJSON.notification($0, words: statusWords) })])
        }
        router.add("POST /sandbox/webhooks/{id}/redeliver") { redeliver($0) }
        router.add("GET /sandbox/sink/{name}") { request in
            let name = request.parameters["name"] ?? ""
            return .json([
                "name": .string(name),
                "answers": .array(sinks.answers(name).map { .number($0) }),
                "requests": .array(sinks.received(name).map { received in
                    ["at": .string(received.at.iso8601), "method": .string(received.method), "path": .string(received.path),
                     "content_type": AdminJSON.optional(received.contentType),
                     "headers": .object(Dictionary(received.headers.map { ($0.name.lowercased(), JSON.string($0.value)) },
                                                   uniquingKeysWith: { first, _ in first })),
                     "body": .string(received.body),
                     "form": .object(Dictionary((FormURLEncoding.decode(received.body.utf8) ?? []).map { ($0.name, JSON.string($0.value)) },
                                                uniquingKeysWith: { $1 })),
                     "answered": .number(received.answered)]
                }),
            ])
        }
        router.add("PUT /sandbox/sink/{name}") { request in
            guard let answers = Self.object(request)?["answers"]?.arrayValue,
                  let statuses = Optional(answers.compactMap { $0.numberText.flatMap { Int($0) } }),
                  statuses.count == answers.count, statuses.allSatisfy({ (200 ... 599).contains($0) }) else {
                return Router.error(400, "expected {\"answers\": [500, 500, 200]}: HTTP statuses 200 to 599, one per request")
            }
            sinks.script(request.parameters["name"] ?? "", answers: statuses)
            return HTTPResponse(status: 204)
        }
        router.add("DELETE /sandbox/sink/{name}") { request in
            sinks.clear(request.parameters["name"] ?? "")
            return HTTPResponse(status: 204)
        }
        router.add("POST /sandbox/sink/{name}") { request in
            let status = sinks.receive(request.parameters["name"] ?? "", at: bank.clock.now, method: request.method,
                                       path: String(request.path), headers: request.headers,
                                       body: String(decoding: request.body, as: UTF8.self))
            return .json(["received": true], status: status)
        }
    }

    /// Answers once the attempt is recorded, holding no thread while the receiver takes its time.
    private func redeliver(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.parameters["id"].flatMap({ Int($0) }), let existing = bank.notification(id: id) else {
            return Router.error(404, "no webhook with id \(request.parameters["id"] ?? "")")
        }
        guard existing.url != nil else { return Router.error(409, "webhook \(existing.id) has no notification URL") }
        return .deferred { answer in
            bank.redeliver(notificationID: id) { redelivered in
                answer(redelivered.map { .json(AdminJSON.notification($0, words: statusWords)) } ?? Router.error(409, "webhook \(id) is gone: the sandbox was reset or restored"))
            }
        }
    }
}
