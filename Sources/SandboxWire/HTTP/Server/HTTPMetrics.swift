import SandboxSupport
import Synchronization

// Prometheus text exposition format 0.0.4:
// https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format
//
// Counting is on the request path of every event loop, so it takes no lock: each route has its own
// block of relaxed atomic counters (one add for the status, one for the duration bucket, one for
// the sum). Buckets are stored per bucket and made cumulative when rendered, and `_count` is their
// total, so `le="+Inf"` and `_count` agree in every scrape even while requests are being counted.

/// Requests answered by route and status, and how long they took, in Prometheus text format.
///
/// Give it to ``HTTPServer/Configuration/metrics`` with the router's ``Router/routeNames``; the
/// server records every answer, including the requests its parser refuses (as `unmatched`).
///
/// ```swift
/// let metrics = HTTPMetrics(routes: router.routeNames)
/// configuration.metrics = metrics
/// // later, in a handler:
/// var text = ""
/// metrics.render(into: &text)  // cashout_sandbox_http_requests_total{route="GET /x",status="200"} 3 ...
/// ```
package final class HTTPMetrics: Sendable {
    /// Upper bounds of the duration histogram's buckets, in seconds (`+Inf` comes after them).
    static let bucketBounds = ["0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5",
                                      "1", "2.5", "5", "10"]
    private static let bucketNanoseconds: [Int64] = [500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000,
                                                     50_000_000, 100_000_000, 250_000_000, 500_000_000, 1_000_000_000,
                                                     2_500_000_000, 5_000_000_000, 10_000_000_000]

    /// One route's counters. Statuses are slots 100-599; slot 0 is "no answer" (the connection was
    /// closed instead, as a fault does), and holds anything out of range.
    private final class RouteCounters: Sendable {
        let statuses: InlineArray<600, Atomic<UInt64>> = InlineArray { _ in Atomic(0) }
        let buckets: InlineArray<15, Atomic<UInt64>> = InlineArray { _ in Atomic(0) }  // 14 bounds, then +Inf
        let nanoseconds = Atomic<UInt64>(0)
    }

    /// A route's counters, made by its first answer: most routes of a sandbox are never called, and
    /// a hundred routes' blocks (5 KB each) took longer to make and to free than the rest of a start.
    private final class RouteSlot: Sendable {
        let counters = SetOnce<RouteCounters>()

        /// The route's counters, made now if it has none yet.
        var made: RouteCounters {
            counters.load() ?? counters.storeIfNil(RouteCounters())
        }
    }

    /// The route names, by number; 0 is `unmatched`.
    let routes: [String]
    private let counters: [RouteSlot]

    /// Counters for `routes` (``Router/routeNames``: number 0 is `unmatched`).
    package init(routes: [String]) {
        self.routes = routes.isEmpty ? ["unmatched"] : routes
        counters = self.routes.map { _ in RouteSlot() }
    }

    /// Counts one answer. `nanoseconds` nil: counted by status only (a request the parser refused
    /// before any handler ran has no duration worth a bucket).
    package func record(route: Int, status: Int, nanoseconds: Int64?) {
        let route = (counters.indices.contains(route) ? counters[route] : counters[0]).made
        route.statuses[(100 ... 599).contains(status) ? status : 0].wrappingAdd(1, ordering: .relaxed)
        guard let nanoseconds else { return }
        var bucket = 0
        while bucket < Self.bucketNanoseconds.count, nanoseconds > Self.bucketNanoseconds[bucket] { bucket += 1 }
        route.buckets[bucket].wrappingAdd(1, ordering: .relaxed)
        route.nanoseconds.wrappingAdd(UInt64(max(0, nanoseconds)), ordering: .relaxed)
    }

    /// Appends `cashout_sandbox_http_requests_total` and `cashout_sandbox_http_request_duration_seconds`
    /// with their HELP and TYPE lines; series that never counted anything are left out.
    package func render(into text: inout String) {
        Self.family("cashout_sandbox_http_requests_total", "counter",
                    "HTTP requests answered, by route pattern and status (status 0: closed without an answer).", into: &text)
        for (name, slot) in zip(routes, counters) {
            guard let route = slot.counters.load() else { continue }  // never answered
            for status in 0 ..< 600 {
                let count = route.statuses[status].load(ordering: .relaxed)
                guard count > 0 else { continue }
                text += "cashout_sandbox_http_requests_total{route=\"\(Self.escape(name))\",status=\"\(status)\"} \(count)\n"
            }
        }
        Self.family("cashout_sandbox_http_request_duration_seconds", "histogram",
                    "Time from a whole request to its response, by route pattern.", into: &text)
        for (name, slot) in zip(routes, counters) {
            guard let route = slot.counters.load() else { continue }  // never answered
            var cumulative: UInt64 = 0
            var lines = ""
            let label = Self.escape(name)
            for bucket in 0 ..< 15 {
                cumulative += route.buckets[bucket].load(ordering: .relaxed)
                let bound = bucket < Self.bucketBounds.count ? Self.bucketBounds[bucket] : "+Inf"
                lines += "cashout_sandbox_http_request_duration_seconds_bucket{route=\"\(label)\",le=\"\(bound)\"} \(cumulative)\n"
            }
            guard cumulative > 0 else { continue }
            text += lines
            text += "cashout_sandbox_http_request_duration_seconds_sum{route=\"\(label)\"} "
                + Self.seconds(route.nanoseconds.load(ordering: .relaxed)) + "\n"
            text += "cashout_sandbox_http_request_duration_seconds_count{route=\"\(label)\"} \(cumulative)\n"
        }
    }

    /// Appends a metric family's `# HELP` and `# TYPE` lines (`type`: counter, gauge, histogram).
    package static func family(_ name: String, _ type: String, _ help: String, into text: inout String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    /// `0.000123456` for 123,456 ns: seconds with nine decimals, no exponent.
    static func seconds(_ nanoseconds: UInt64) -> String {
        let fraction = String(nanoseconds % 1_000_000_000)
        return "\(nanoseconds / 1_000_000_000)." + String(repeating: "0", count: 9 - fraction.count) + fraction
    }

    /// A label value as the format wants it: backslash, double quote and line feed escaped.
    package static func escape(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
