import SandboxHTTP
import SandboxProtobuf

/// What a unary handler answers: a response message or a status, with metadata, now or later.
///
/// ```swift
/// return .message(response)
/// return .failure(GRPCStatus(.notFound, "no payout \(id)"))
/// return .deferred { answer in journal.append(record) { _ in answer(.message(response)) } }
/// ```
public struct GRPCReply: Sendable {
    enum Outcome: Sendable {
        case message(ProtoMessage)
        case failure(GRPCStatus)
        case deferred(@Sendable (@escaping @Sendable (GRPCReply) -> Void) -> Void)
    }

    var outcome: Outcome
    /// Response header metadata (sent before the message).
    public var headers: GRPCMetadata = [:]
    /// Trailer metadata (sent with the status).
    public var trailers: GRPCMetadata = [:]
    /// Why a refused call was refused, for the request journal and the event log (never sent):
    /// the response carries it (``HTTPResponse/diagnosis``).
    public var diagnosis: Diagnosis?

    /// A successful answer: `message`, of the method's output type.
    public static func message(_ message: ProtoMessage, headers: GRPCMetadata = [:], trailers: GRPCMetadata = [:]) -> GRPCReply {
        GRPCReply(outcome: .message(message), headers: headers, trailers: trailers)
    }

    /// A failed call: `status` (not OK), sent trailers-only with `trailers`.
    public static func failure(_ status: GRPCStatus, trailers: GRPCMetadata = [:]) -> GRPCReply {
        GRPCReply(outcome: .failure(status), trailers: trailers)
    }

    /// An answer given later: `start` runs at once and must not block; what it (or what it
    /// starts) passes to its argument, once, from any thread, is the answer. If the call's
    /// grpc-timeout passes first, the client gets DEADLINE_EXCEEDED and this answer is dropped.
    public static func deferred(_ start: @escaping @Sendable (@escaping @Sendable (GRPCReply) -> Void) -> Void) -> GRPCReply {
        GRPCReply(outcome: .deferred(start))
    }

    /// Whether the answer comes later.
    public var isDeferred: Bool {
        if case .deferred = outcome { return true }
        return false
    }

    /// Passes the final answer (deferred ones started, nested ones too) to `answer`.
    func resolve(_ answer: @escaping @Sendable (GRPCReply) -> Void) {
        guard case .deferred(let start) = outcome else { return answer(self) }
        start { $0.resolve(answer) }
    }
}
