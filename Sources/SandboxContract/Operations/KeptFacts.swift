import SandboxSupport

/// A request's facts as its readers share them, made for each request by the pipeline
/// (`RequestContext.facts`) and kept with its log entry: what the request asked, made once (by a
/// fault's look before it is handled, else by the log's first reader), and with its answer's part,
/// added once, by the first reader after it was answered (the clock's waits, the report, the
/// timeline). The Architecture guide, "A request is read once".
package final class KeptFacts: Sendable {
    private let asked = SetOnce<Boxed<RequestFacts?>>()
    private let answered = SetOnce<Boxed<RequestFacts?>>()

    package init() {}

    /// Whether what the request asked was made (by a fault's look, or a reader of the log).
    var madeAsked: Bool { asked.load() != nil }

    /// What the request asked (``APIContract/facts(of:bank:)``), made by `ask` for the first reader.
    package func asked(_ ask: () -> RequestFacts?) -> RequestFacts? {
        if let made = asked.load() { return made.value }
        return asked.storeIfNil(Boxed(ask())).value
    }

    /// The facts with their answer's part, added by `answer` for the first reader (what it asked made by `ask`).
    package func answered(asked ask: () -> RequestFacts?, by answer: (RequestFacts) -> RequestFacts) -> RequestFacts? {
        if let made = answered.load() { return made.value }
        return answered.storeIfNil(Boxed(asked(ask).map(answer))).value
    }
}
