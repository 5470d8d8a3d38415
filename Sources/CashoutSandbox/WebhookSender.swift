import SandboxBank
import SandboxCrypto
import SandboxD24
import SandboxHTTP
import Synchronization

/// Delivers the bank's notifications in the D24 wire format: to the sandbox's own sink directly
/// (no socket, no event loop waiting on itself), anywhere else with the HTTP client.
final class WebhookSender: Sendable {
    private struct Links {
        var bank: Bank?
        /// `http://127.0.0.1:PORT/sandbox/sink/` and the like, for each address the server is on.
        var sinkPrefixes: [String] = []
    }

    private let links = Mutex(Links())
    private let sinks: SinkStore
    private let timeout: Mutex<Duration>
    private let keys = D24SigningKeys()

    init(sinks: SinkStore, timeout: Duration = .seconds(5)) {
        self.sinks = sinks
        self.timeout = Mutex(timeout)
    }

    /// Connects the sender to its bank and its server's addresses (after both exist).
    func attach(bank: Bank, addresses: [SocketAddress]) {
        let hosts = addresses.flatMap { address -> [String] in
            let loopback = address.host == "127.0.0.1" || address.host == "::1" || address.host == "0.0.0.0" || address.host == "::"
            return loopback ? ["127.0.0.1:\(address.port)", "localhost:\(address.port)", "[::1]:\(address.port)"] : ["\(address)"]
        }
        links.withLock { $0 = Links(bank: bank, sinkPrefixes: hosts.map { "http://\($0)/sandbox/sink/" }) }
    }

    /// Changes how long a delivery may take (a scenario's `webhooks.timeout`).
    func setTimeout(_ duration: Duration) {
        timeout.withLock { $0 = duration }
    }

    /// Drops the reference to the bank (which holds this sender): call when stopping.
    func detach() {
        links.withLock { $0 = Links() }
    }

    func send(_ notification: StatusNotification) -> DeliveryOutcome {
        let (bank, prefixes) = links.withLock { ($0.bank, $0.sinkPrefixes) }
        guard let url = notification.url, let bank, let merchant = bank.merchant(login: notification.merchant) else {
            return DeliveryOutcome(error: "not sent: no URL or merchant")
        }
        let key = keys.key(for: merchant)
        let contentType = "application/x-www-form-urlencoded"
        // Scheme and host compare without case, as URLs do; anything else is sent over HTTP.
        if let prefix = prefixes.first(where: { Self.hasPrefixIgnoringASCIICase(url, $0) }),
           case let name = String(url.dropFirst(prefix.count).prefix { $0 != "?" && $0 != "/" }), !name.isEmpty {
            let path = String(url.dropFirst(prefix.count - "/sandbox/sink/".count))
            let status = sinks.receive(name, at: bank.clock.now, method: "POST", path: path, contentType: contentType,
                                       content: .rendered { D24Notification.formBody(notification, key: key) })
            return DeliveryOutcome(status: status)
        }
        let body = D24Notification.formBody(notification, key: key)
        do {
            let response = try HTTPClient.send(method: "POST", url: url, headers: ["Content-Type": contentType],
                                               body: Array(body.utf8), timeout: timeout.withLock { $0 })
            return DeliveryOutcome(status: response.status, body: String(response.bodyText.prefix(500)))
        } catch {
            return DeliveryOutcome(error: "\(error)")
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
