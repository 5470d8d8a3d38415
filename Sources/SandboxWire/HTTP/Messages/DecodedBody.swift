public import SandboxSupport
public import Synchronization

/// A request's body decoded once, by whichever reader comes first (a scenario's fault, or the
/// handler), and kept with the request for every later one: the handler, the request log and
/// what reads the log (the report, the timeline, the clock's waits). Architecture guide, "A request
/// is read once". Each request is made with one (``HTTPRequest/decoded``), which its copies share.
///
/// Without a lock: each form is kept in a reference set once (`SetOnce`), so a read on
/// the request's path is a load, not a lock taken and given back (a signed D24 status query lost an
/// eighth of its throughput to a `Mutex` here). Two readers at once may both decode; the first
/// kept is what every later reader gets.
@usableFromInline package final class DecodedBody: Sendable {
    /// The body as JSON (a gRPC message as its proto3 JSON); its value nil when it is not JSON.
    @usableFromInline let json = SetOnce<Boxed<JSON?>>()
    /// The body as its handler reads it, when that is not JSON (a gRPC message).
    @usableFromInline let message = SetOnce<Boxed<any DecodedMessage>>()
    @usableFromInline let decoded = Atomic<Int>(0)

    package init() {}

    /// How many times the body's bytes were decoded: 1 once any reader read it.
    var decodes: Int { decoded.load(ordering: .relaxed) }

    /// The body as JSON if a reader decoded it already: `.some(nil)` when it is not JSON, nil when no one read it yet.
    package var jsonIfRead: JSON?? { json.load().map(\.value) }

    /// The body as JSON, decoded by `decode` for the first reader and then kept.
    package func json(_ decode: () -> JSON?) -> JSON? {
        if let kept = json.load() { return kept.value }
        if let view = message.load()?.value.jsonView {  // made from the message, not from the bytes again
            return json.storeIfNil(Boxed(view)).value
        }
        let read = decode()
        decoded.add(1, ordering: .relaxed)
        return json.storeIfNil(Boxed(read)).value
    }

    /// The body as its handler reads it (a gRPC message), decoded by `decode` for the first reader and then kept.
    /// Inlinable, so that each caller's types are known where it is compiled (a generic call looks up its closures'
    /// types at run time, on every request).
    @inlinable
    package func message<Message: DecodedMessage, Failure: Error>(_ decode: () throws(Failure) -> Message) throws(Failure) -> Message {
        if let kept = message.load()?.value as? Message { return kept }
        let read = try decode()
        decoded.add(1, ordering: .relaxed)
        return message.storeIfNil(Boxed(read)).value as? Message ?? read
    }
}

/// A body as a handler reads it, when that is not JSON: what a reader of JSON gets instead, made from it
/// rather than from the bytes again (nil: the bytes are read for it).
@usableFromInline package protocol DecodedMessage: Sendable {
    var jsonView: JSON? { get }
}

extension HTTPRequest {
    /// Its body parsed as JSON (nil when it is not JSON): once for every reader when it carries a ``DecodedBody``.
    package var jsonBody: JSON? {
        guard let decoded else { return try? JSON.parse(body) }
        return decoded.json { try? JSON.parse(body) }
    }
}
