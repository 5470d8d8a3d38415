package import SandboxBank
package import SandboxContract
import SandboxWire
import Synchronization
import SandboxSupport

/// Delivers the bank's notifications, each in its payout's dialect's wire format: to the sandbox's own sink directly
/// (no socket, no event loop waiting on itself, in the order they are sent), anywhere else with
/// the HTTP client on a `DeliveryPool` thread, so that many are on their way at once.
package final class WebhookSender: Sendable {
    private struct Links {
        /// Whether it delivers: from when the server listens (`attach(addresses:)`) until `stop()`.
        var open = false
        /// `http://127.0.0.1:PORT/sandbox/sink/` and the like, for each address the server is on.
        var sinkPrefixes: [String] = []
        /// How many of them came from `Host` headers (see `learn(host:)`).
        var learned = 0
        /// Where each URL seen so far leads (a run sends to few URLs, many times).
        var routes: [String: Route] = [:]
        /// The URL routed last, compared before hashing it: a run sends to the same one again and again.
        var last: (url: String, route: Route)?
    }

    /// Where a notification URL leads.
    private enum Route {
        /// One of the sandbox's own sinks: its name and the request path.
        case sink(name: String, path: String)
        case remote
    }

    private let links = Mutex(Links())
    private let sinks: SinkStore
    private let timeout: Mutex<Duration>
    /// The dialects in the order they read a received request (by name: the same every run); a
    /// notification's is found among these few by its name, without hashing it.
    private let readers: [(name: String, dialect: any Dialect)]
    private let counts: WebhookCounts
    private let pool: DeliveryPool

    /// A sender that delivers to `sinks` in process, and counts its attempts in `counts`. It
    /// holds no bank: the bank hands itself to each delivery (`send(_:bank:done:)`).
    init(dialects: [String: any Dialect], sinks: SinkStore, timeout: Duration, concurrency: Int, counts: WebhookCounts) {
        readers = dialects.keys.sorted().map { ($0, dialects[$0]!) }
        self.sinks = sinks
        self.timeout = Mutex(timeout)
        self.counts = counts
        pool = DeliveryPool(limit: concurrency)
    }

    /// How the sinks read what they receive as `bank`'s notifications (`SinkStore.read(with:)`):
    /// holding the bank weakly, since the bank holds this sender (through its delivery callback)
    /// and the sender the sinks.
    func reader(of bank: Bank) -> @Sendable (ReceivedRequest) -> ReceivedNotification? {
        { [weak self, weak bank] request in
            guard let self, let bank else { return nil }
            return self.read(request, bank: bank)
        }
    }

    /// Opens the sender once its server listens, with the addresses it listens on: a URL that
    /// starts with one of them is one of the sandbox's own sinks. This one cannot be passed to
    /// `init`: the server starts last (it needs the finished router, which needs the bank, which
    /// needs this sender), and its addresses (a free port, with port 0) exist only once it binds.
    /// Until then the sender delivers nothing, as after `stop()`.
    func attach(addresses: [SocketAddress]) {
        let hosts = addresses.flatMap { address -> [String] in
            let loopback = address.host == "127.0.0.1" || address.host == "::1" || address.host == "0.0.0.0" || address.host == "::"
            return loopback ? ["127.0.0.1:\(address.port)", "localhost:\(address.port)", "[::1]:\(address.port)"] : ["\(address)"]
        }
        links.withLock { $0 = Links(open: true, sinkPrefixes: hosts.map { "http://\($0)/sandbox/sink/" }) }
    }

    /// Counts `host`, a `Host` header the sandbox was reached by, as one of its own addresses, so
    /// sink URLs built from it are delivered in process. Behind `docker run -p 9000:8080` or a QA
    /// host name, the dashboard and the Postman environment name the sandbox `localhost:9000` or
    /// `qa-box:8080`, which it could not reach by itself. At most 16 are kept.
    func learn(host: String) {
        // A host name or address with its port: letters, digits, `-._:[]` (nothing that could end the URL's authority).
        guard !host.isEmpty, host.utf8.count <= 255,
              host.unicodeScalars.allSatisfy({
                  $0.isASCII && ($0.properties.isAlphabetic || ("0" ... "9").contains($0) || "-._:[]".unicodeScalars.contains($0))
              })
        else { return }
        let prefix = "http://\(host)/sandbox/sink/"
        links.withLock { links in
            guard links.learned < 16,
                  !links.sinkPrefixes.contains(where: { Self.hasPrefixIgnoringASCIICase($0, prefix) && $0.count == prefix.count })
            else { return }
            links.sinkPrefixes.append(prefix)
            links.learned += 1
            (links.routes, links.last) = ([:], nil)  // a URL routed as remote may be one of ours now
        }
    }

    /// Changes how long a delivery may take (a scenario's `webhooks.timeout`).
    func setTimeout(_ duration: Duration) {
        timeout.withLock { $0 = duration }
    }

    /// Stops delivering (every later attempt is not sent) and reading: call when stopping.
    package func stop() {
        links.withLock { $0 = Links() }
    }

    /// Delivers `notification` of `bank` (the bank's `Deliver`): returns the outcome at once for the sink;
    /// anywhere else it returns nil and calls `done` with the outcome from a pool thread.
    package func send(_ notification: StatusNotification, bank: Bank, done: @escaping @Sendable (DeliveryOutcome) -> Void) -> DeliveryOutcome? {
        guard let url = notification.url, let route = route(url), let rendered = render(notification, bank: bank) else {
            counts.count(.notSent)
            return DeliveryOutcome(error: notification.forged ? "not sent: its API signs nothing to forge" : "not sent: no URL or merchant")
        }
        if case .sink(let name, let path) = route {
            // Rendered when read.
            let answer = sinks.receive(name, at: bank.clock.now, method: "POST", path: path, contentType: rendered.contentType,
                                       content: .rendered(rendered.body, headers: rendered.headers),
                                       about: (notification.payoutID, notification.status))
            let outcome = DeliveryOutcome(status: answer.status, body: answer.body?.serializedString())
            counts.count(outcome.succeeded ? .delivered : .httpError)
            return outcome
        }
        pool.run {
            let body = rendered.body()
            done(self.post(body, headers: rendered.headers(body), contentType: rendered.contentType, to: url))
        }
        return nil
    }

    /// `notification` as its payout's dialect sends it (a forged copy signed with a wrong key);
    /// nil when the dialect or the account is gone, or the dialect signs nothing to forge.
    func render(_ notification: StatusNotification, bank: Bank) -> RenderedNotification? {
        guard let dialect = readers.first(where: { $0.name == notification.dialect })?.dialect else { return nil }
        return notification.forged ? dialect.forgedNotification(notification, bank: bank) : dialect.notification(notification, bank: bank)
    }

    /// Reads a request a sink received as one of `bank`'s notifications: the first dialect
    /// that knows its format says what it is.
    package func read(_ request: ReceivedRequest, bank: Bank) -> ReceivedNotification? {
        guard links.withLock({ $0.open }) else { return nil }
        return readers.lazy.compactMap { $0.dialect.readNotification(request, bank: bank) }.first
    }

    /// Posts a notification to a receiver and waits for its answer, at most the timeout.
    private func post(_ body: String, headers extra: HTTPHeaders, contentType: String, to url: String) -> DeliveryOutcome {
        var headers: HTTPHeaders = ["Content-Type": contentType]
        for field in extra { headers.add(field.name, field.value) }
        do throws(HTTPClientError) {
            let response = try HTTPClient.send(method: "POST", url: url, headers: headers,
                                               body: Array(body.utf8), timeout: timeout.withLock { $0 })
            let outcome = DeliveryOutcome(status: response.status, body: String(response.bodyText.prefix(500)))
            counts.count(outcome.succeeded ? .delivered : .httpError)
            return outcome
        } catch {
            switch error {
            case .timedOut: counts.count(.timeout)
            case .invalidURL, .invalidHeader: counts.count(.notSent)  // e.g. https: the client speaks plain HTTP
            case .cannotResolve, .connectionFailed, .refused, .malformedResponse: counts.count(.connectionError)
            }
            return DeliveryOutcome(error: "\(error)")
        }
    }

    /// Whether `url` leads to one of the sandbox's own sinks (delivered in process), as a delivery
    /// to it would be routed.
    func isOwnSink(_ url: String) -> Bool {
        if case .sink? = route(url) { return true }
        return false
    }

    /// Where `url` leads: one of the sandbox's own sinks when it starts with one of its addresses
    /// (scheme and host compared without case, as URLs do), anywhere else over HTTP; nil while
    /// the sender is not open.
    private func route(_ url: String) -> Route? {
        links.withLock { links in
            guard links.open else { return nil }
            if let last = links.last, last.url == url { return last.route }
            if let known = links.routes[url] {
                links.last = (url, known)
                return known
            }
            var route = Route.remote
            if let prefix = links.sinkPrefixes.first(where: { Self.hasPrefixIgnoringASCIICase(url, $0) }),
               case let name = String(url.dropFirst(prefix.count).prefix { $0 != "?" && $0 != "/" }), !name.isEmpty {
                route = .sink(name: name, path: String(url.dropFirst(prefix.count - "/sandbox/sink/".count)))
            }
            if links.routes.count > 10_000 { links.routes.removeAll() }  // every payout its own URL: keep it bounded
            links.routes[url] = route
            links.last = (url, route)
            return route
        }
    }

    private static func hasPrefixIgnoringASCIICase(_ text: String, _ prefix: String) -> Bool {
        func lower(_ byte: UInt8) -> UInt8 { (0x41 ... 0x5A).contains(byte) ? byte | 0x20 : byte }
        var remaining = text.utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = remaining.next(), lower(byte) == lower(expected) else { return false }
        }
        return true
    }
}
