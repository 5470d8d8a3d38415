import Dispatch

/// What a response can be held for until it lets the response go: a journal's sync, for an
/// answer that reports a change (see ``HTTPResponse/held(by:until:)``). Tickets are counts that
/// only grow: a gate that lets a ticket go lets every lower one go.
///
/// The server keeps a held response on its event loop, with no thread waiting and no callback of
/// its own, and sends it once the gate lets its ticket go: each loop asks the gate to wake it for
/// the lowest ticket it holds, sends what that let go, and asks again for the rest, so a sync
/// that lets many answers go wakes each loop once. A server's held responses are meant to share
/// one gate (the sandbox's journal): those of another gate wait until the first one's are let go.
package protocol ResponseGate: AnyObject, Sendable {
    /// Whether `ticket` is let go; any thread, often.
    func state(of ticket: Int) -> ResponseGateState
    /// Calls `wake` once, on any thread, when `ticket`'s state is no longer `.held` (at once if
    /// it is not). `answers`: about how many clients wait on it.
    func whenLetGo(_ ticket: Int, answers: Int, _ wake: @escaping @Sendable () -> Void)
}

/// What a gate says of a ticket.
package enum ResponseGateState: Sendable {
    /// The response waits.
    case held
    /// The held response goes.
    case open
    /// It cannot go: what it reports failed (a change that could not be saved, say). The hold's
    /// `refusedAs` makes the answer that goes instead, in the request's own format.
    case failed(any Error & Sendable)
}

/// A held response's gate and ticket.
struct ResponseHold: Sendable {
    let gate: any ResponseGate
    let ticket: Int
    /// The answer to the gate's failure, in this response's own format (an HTTP 503, a gRPC status).
    let refusedAs: @Sendable (any Error & Sendable) -> HTTPResponse

    /// What to send for `response` if its gate lets it go now (it, no longer held, or the gate's
    /// failure answer); nil while it is held.
    func release(_ response: HTTPResponse) -> HTTPResponse? {
        switch gate.state(of: ticket) {
        case .held: return nil
        case .failed(let failure): return refusedAs(failure)
        case .open:
            var released = response
            released.hold = nil
            return released
        }
    }

    /// `release`, waiting for the gate on the calling thread (never an event loop's).
    func wait(_ response: HTTPResponse) -> HTTPResponse {
        while true {
            if let released = release(response) { return released }
            let letGo = DispatchSemaphore(value: 0)
            gate.whenLetGo(ticket, answers: 1) { letGo.signal() }
            letGo.wait()
        }
    }
}

extension HTTPResponse {
    /// This response, sent once `gate` lets `ticket` go (or, should the gate fail, `refusedAs`'s
    /// answer to its failure instead). It is made: what maps it (``map(_:_:)``) sees it at once,
    /// as it will leave unless the gate fails. A response produced later is held once produced.
    ///
    /// ```swift
    /// return response.held(by: journal, until: journal.counts.appended) { Router.error(503, "\($0)") }
    /// ```
    package func held(by gate: any ResponseGate, until ticket: Int,
                      refusedAs: @escaping @Sendable (any Error & Sendable) -> HTTPResponse) -> HTTPResponse {
        map(ResponseHold(gate: gate, ticket: ticket, refusedAs: refusedAs)) { hold, produced in
            var response = produced
            response.hold = hold
            return response
        }
    }

    /// Whether a gate holds this response (``held(by:until:)``).
    var isHeld: Bool { hold != nil }
}
