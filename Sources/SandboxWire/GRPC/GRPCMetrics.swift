import Synchronization

/// gRPC calls answered, by method and status code, in Prometheus text format (beside
/// ``HTTPMetrics``, which counts the same requests by route and HTTP status).
///
/// Like HTTPMetrics it takes no lock: the methods are fixed when it is made (the server's
/// declared methods, plus `unknown` for paths no method has), each with one relaxed atomic
/// counter per status code.
///
/// ```swift
/// var text = ""
/// grpc.metrics.render(into: &text)
/// // cashout_sandbox_grpc_requests_total{method="/grpc.health.v1.Health/Check",code="OK"} 3
/// ```
package final class GRPCMetrics: Sendable {
    private final class MethodCounters: Sendable {
        let codes: InlineArray<17, Atomic<UInt64>> = InlineArray { _ in Atomic(0) }
    }

    /// The label of calls to paths that are no declared method.
    static let unknownMethod = "unknown"

    /// The method paths, in order; the last is ``unknownMethod``.
    package let methods: [String]
    private let index: [String: Int]
    private let counters: [MethodCounters]

    /// Counters for `methods` (`/package.Service/Method`) and for unknown ones.
    init(methods: [String]) {
        self.methods = methods + [Self.unknownMethod]
        var index: [String: Int] = [:]
        for (position, method) in self.methods.enumerated() { index[method] = position }
        self.index = index
        counters = self.methods.map { _ in MethodCounters() }
    }

    /// Counts one call of `method` (nil or undeclared: `unknown`) that ended with `code`.
    package func record(method: String?, code: GRPCStatus.Code) {
        let position = method.flatMap { index[$0] } ?? methods.count - 1
        counters[position].codes[code.rawValue].wrappingAdd(1, ordering: .relaxed)
    }

    /// The count of `method`'s calls that ended with `code`.
    package func count(method: String, code: GRPCStatus.Code) -> UInt64 {
        guard let position = index[method] else { return 0 }
        return counters[position].codes[code.rawValue].load(ordering: .relaxed)
    }

    /// Appends `cashout_sandbox_grpc_requests_total` with its HELP and TYPE lines; series that
    /// never counted anything are left out.
    package func render(into text: inout String) {
        HTTPMetrics.family("cashout_sandbox_grpc_requests_total", "counter",
                           "gRPC calls answered, by method and status code.", into: &text)
        for (method, counter) in zip(methods, counters) {
            for code in GRPCStatus.Code.allCases {
                let count = counter.codes[code.rawValue].load(ordering: .relaxed)
                guard count > 0 else { continue }
                text += "cashout_sandbox_grpc_requests_total{method=\"\(HTTPMetrics.escape(method))\",code=\"\(code.name)\"} \(count)\n"
            }
        }
    }
}
