package import SandboxWire
import SandboxSupport

/// A request's facts as its readers share them, kept beside its decoded body
/// (`DecodedBody.derived`) by the first reader: what the request asked, made once (by a fault's
/// look before it is handled, else by the log's first reader), and with its answer's part, added
/// once, by the first reader after it was answered (the clock's waits, the report, the timeline).
/// The Architecture guide, "A request is read once".
package final class KeptFacts: Sendable {
    /// What the request asked (``APIContract/facts(of:bank:)``).
    package let asked: RequestFacts?
    private let answered = SetOnce<Boxed<RequestFacts?>>()

    private init(_ asked: RequestFacts?) {
        self.asked = asked
    }

    /// `request`'s kept facts, made by `ask` for the first reader (for each reader, of a request
    /// that carries no decoded body).
    package static func of(_ request: HTTPRequest, ask: () -> RequestFacts?) -> KeptFacts {
        guard let decoded = request.decoded else { return KeptFacts(ask()) }
        if let kept = decoded.derived.load() as? KeptFacts { return kept }
        let made = KeptFacts(ask())
        return decoded.derived.storeIfNil(made) as? KeptFacts ?? made
    }

    /// The facts with their answer's part, added by `answer` for the first reader.
    package func answered(by answer: (RequestFacts) -> RequestFacts) -> RequestFacts? {
        if let made = answered.load() { return made.value }
        return answered.storeIfNil(Boxed(asked.map(answer))).value
    }
}
