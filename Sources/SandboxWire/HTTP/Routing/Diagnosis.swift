package import SandboxSupport

/// Why the sandbox refused a request, written for the person who sent it: the check that failed,
/// one sentence naming it and its likely cause, and what was compared, in full (a sandbox's
/// secrets are there to be read).
///
/// It travels beside a response (``HTTPResponse/diagnosis``) and is never sent: the API's answer
/// stays byte for byte the provider's, while the request log and the event log show why.
///
/// ```swift
/// var response = D24Error.invalidSignature.response
/// response.diagnosis = Diagnosis("signature_mismatch", "Payload-Signature is uppercase hex: send it in lowercase",
///                                ["likely_cause": "uppercase_hex"])
/// ```
package struct Diagnosis: Sendable, Equatable {
    /// The check that failed, a word such as `unknown_login` or `signature_mismatch`.
    package var check: String
    /// One sentence: what failed and the likely cause.
    package var message: String
    /// What the check compared: `expected_signature`, `received_signature`, `likely_cause`...
    package var details: [String: JSON]

    /// A diagnosis of `check`.
    package init(_ check: String, _ message: String, _ details: [String: JSON] = [:]) {
        self.check = check
        self.message = message
        self.details = details
    }

    /// `{"check": …, "message": …, …details}`: as the request log shows it.
    package var json: JSON {
        var object = details
        object["check"] = .string(check)
        object["message"] = .string(message)
        return .object(object)
    }
}

/// Which of a scenario's faults (its place in `faults`) gave an answer, its kind's name as the scenario spells it (the
/// contract's `FaultKind`, which makes and reads it), and whether the handler had seen the request (a
/// `drop_after_commit`, a committed `truncate`) or not (an `error`, a `close`).
package struct InjectedFault: Sendable, Equatable {
    package let index: Int
    package let kindName: String
    package let handled: Bool

    package init(index: Int, kindName: String, handled: Bool) {
        self.index = index
        self.kindName = kindName
        self.handled = handled
    }
}

extension HTTPResponse {
    /// What the sandbox knows about an answer beyond its bytes (never sent), and where a fault cuts
    /// it off: one reference, so that a response without any costs a pointer.
    final class Notes: Sendable {
        let diagnosis: Diagnosis?
        let nearMiss: String?
        let fault: InjectedFault?
        let cut: Int?
        let lost: HTTPResponse?

        init(diagnosis: Diagnosis?, nearMiss: String?, fault: InjectedFault?, cut: Int?, lost: HTTPResponse? = nil) {
            self.diagnosis = diagnosis
            self.nearMiss = nearMiss
            self.fault = fault
            self.cut = cut
            self.lost = lost
        }
    }

    /// Why the request was refused, when a check of its credentials failed (never sent).
    package var diagnosis: Diagnosis? {
        get { notes?.diagnosis }
        set { notes = Notes(diagnosis: newValue, nearMiss: nearMiss, fault: fault, cut: cutAfter, lost: lostAnswer) }
    }

    /// On a 404 or 405 of the ``Router``: the route the request most likely meant,
    /// `"DELETE /v3/cashout/cancel"` (never sent but in the error's message).
    package var nearMiss: String? {
        get { notes?.nearMiss }
        set { notes = Notes(diagnosis: diagnosis, nearMiss: newValue, fault: fault, cut: cutAfter, lost: lostAnswer) }
    }

    /// The scenario's fault that gave this answer instead of the handler's, if any (never sent).
    package var fault: InjectedFault? {
        get { notes?.fault }
        set { notes = Notes(diagnosis: diagnosis, nearMiss: nearMiss, fault: newValue, cut: cutAfter, lost: lostAnswer) }
    }

    /// What the handler answered before a fault lost it (`drop_after_commit`), never sent nor shown: what the request
    /// committed, for a wait that names the payout it made when its API's create carries no reference (Mannco's).
    package var lostAnswer: HTTPResponse? { notes?.lost }

    /// This answer lost, as a fault loses it: the connection closes unanswered, and `answer` is kept as ``lostAnswer``.
    package static func lost(_ answer: HTTPResponse, fault: InjectedFault) -> HTTPResponse {
        var lost = HTTPResponse.closeWithoutAnswer
        lost.notes = Notes(diagnosis: nil, nearMiss: nil, fault: fault, cut: nil, lost: answer)
        return lost
    }

    /// How many bytes of the body are sent before the answer is cut off (a `truncate` fault, as a
    /// failing proxy cuts it: ``cutOff(after:)``); nil for the whole answer.
    package var cutAfter: Int? { notes?.cut }

    /// This answer's head as it is, its body's first `count` bytes (at most all of it), and then no
    /// more: over HTTP/1.1 the connection closes, its `Content-Length` still the whole body's; over
    /// HTTP/2 the stream is reset (RST_STREAM `INTERNAL_ERROR`, no trailers), and the connection's
    /// other streams go on (the PayoutService guide, "What a client sees of each fault").
    ///
    /// ```swift
    /// let cut = handler(request).cutOff(after: 10)  // the head, 10 bytes of the body, then EOF
    /// ```
    package func cutOff(after count: Int) -> HTTPResponse {
        var cut = self
        cut.notes = Notes(diagnosis: diagnosis, nearMiss: nearMiss, fault: fault, cut: min(max(count, 0), body.count), lost: lostAnswer)
        return cut
    }

    /// A scenario's fault answered (an error, a closed connection) before any handler saw the
    /// request: its API neither made nor refused anything.
    package var unhandled: Bool { fault.map { !$0.handled } ?? false }
}
