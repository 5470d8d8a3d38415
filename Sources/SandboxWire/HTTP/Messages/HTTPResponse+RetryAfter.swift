extension HTTPResponse {
    /// The wait the answer asks for before its request is sent again: `grpc-retry-pushback-ms` (gRPC's retry design, A6;
    /// in trailers, or a trailers-only answer's headers), else `Retry-After` in seconds (RFC 9110, section 10.2.3; a date
    /// is not read); nil when it asks for none.
    package var retryAfter: Duration? {
        if let pushback = (trailers?["grpc-retry-pushback-ms"] ?? headers["grpc-retry-pushback-ms"]).flatMap({ Int64($0) }), pushback >= 0 {
            return .milliseconds(pushback)
        }
        return headers["Retry-After"].flatMap { Int64($0) }.flatMap { $0 >= 0 ? .seconds($0) : nil }
    }
}
