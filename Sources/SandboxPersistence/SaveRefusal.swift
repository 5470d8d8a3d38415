/// A change the journal could not save (Running it, "When the disk fails"): nothing was changed,
/// and it can be asked again later. The journal says so; each layer answers it in its own format
/// (the HTTP APIs a 503 with `Retry-After`, gRPC and Connect calls `UNAVAILABLE`).
package struct SaveRefusal: Error, Sendable, CustomStringConvertible {
    /// Why the journal could not write (a ``JournalError``'s text: the call, the file, errno's name).
    package let reason: String

    package init(_ error: some Error) { reason = "\(error)" }

    /// What a refused change is told.
    package var message: String { "the change could not be saved: \(reason); nothing was changed, try again later" }

    /// How long to wait before asking again, in seconds: the journal tries to write each second.
    package static let retryAfterSeconds = 1

    package var description: String { message }

    /// A gate's failure as a refusal (a journal's gate fails with nothing else).
    static func of(_ failure: any Error & Sendable) -> SaveRefusal {
        failure as? SaveRefusal ?? SaveRefusal(failure)
    }
}
