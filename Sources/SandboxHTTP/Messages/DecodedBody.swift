import SandboxJSON
import Synchronization

/// A request's body decoded once, by whichever reader comes first (a scenario's fault, or the
/// handler), and kept with the request for every later one: the handler, the request log and
/// what reads the log (the report, the timeline, the clock's waits). Architecture guide, "A request
/// is read once". Each request is made with one (``HTTPRequest/decoded``), which its copies share.
package final class DecodedBody: Sendable {
    @usableFromInline struct State {
        /// The body as JSON (a gRPC message as its proto3 JSON); nil until read, `.some(nil)` when it is not JSON.
        @usableFromInline var json: JSON??
        /// The body as its handler reads it, when that is not JSON (a gRPC message, D24's members).
        @usableFromInline var message: (any DecodedMessage)?
        @usableFromInline var decodes = 0
        /// What its readers made of it (a logged request's facts), once.
        @usableFromInline var derived: (any Sendable)?

        @usableFromInline init() {}
    }

    @usableFromInline let state = Mutex(State())

    package init() {}

    /// How many times the body's bytes were decoded: 1 once any reader read it.
    package var decodes: Int { state.withLock { $0.decodes } }

    /// The body as JSON, decoded by `decode` for the first reader and then kept.
    package func json(_ decode: () -> JSON?) -> JSON? {
        state.withLock { state in
            if let json = state.json { return json }
            if let json = state.message?.jsonView {  // made from the message, not from the bytes again
                state.json = .some(json)
                return json
            }
            let json = decode()
            state.json = .some(json)
            state.decodes += 1
            return json
        }
    }

    /// The body as its handler reads it (a gRPC message, D24's members), decoded by `decode` for the first reader
    /// and then kept: made by `fromJSON` instead when a reader of JSON came first. Inlinable, so that each caller's
    /// types are known where it is compiled (a generic call looks up its closures' types at run time, on every request).
    @inlinable
    package func message<Message: DecodedMessage, Failure: Error>(_ decode: () throws(Failure) -> Message,
                                                                 fromJSON: ((JSON?) -> Message)? = nil) throws(Failure) -> Message {
        try state.withLock { state throws(Failure) in
            if let message = state.message as? Message { return message }
            if let fromJSON, let json = state.json {
                let message = fromJSON(json)
                state.message = message
                return message
            }
            let message = try decode()
            state.message = message
            state.decodes += 1
            return message
        }
    }
}

extension DecodedBody {
    /// What the request's readers make of it (the request log's facts: `RequestLog.facts`), made by `make` for
    /// the first one and then kept: kept here, not in the log's entry, so that an entry no one reads costs nothing more.
    /// `make` runs outside the lock (it reads the body through this same value); two readers at once may both make
    /// it, and the first kept is what every later one gets.
    package func derived<Value: Sendable>(_ make: () -> Value) -> Value {
        if let made = state.withLock({ $0.derived as? Value }) { return made }
        let made = make()
        return state.withLock { state in
            if let kept = state.derived as? Value { return kept }
            state.derived = made
            return made
        }
    }
}

/// A body as a handler reads it, when that is not JSON: what a reader of JSON gets instead, made from it
/// rather than from the bytes again (nil: the bytes are read for it).
package protocol DecodedMessage: Sendable {
    var jsonView: JSON? { get }
}

extension HTTPRequest {
    /// Its body parsed as JSON (nil when it is not JSON): once for every reader when it carries a ``DecodedBody``.
    package var jsonBody: JSON? {
        guard let decoded else { return try? JSON.parse(body) }
        return decoded.json { try? JSON.parse(body) }
    }
}
