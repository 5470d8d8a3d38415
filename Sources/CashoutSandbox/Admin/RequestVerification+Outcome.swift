import SandboxWire
import SandboxSupport
package import SandboxContract

// Deciding a verification (RequestVerification, in SandboxContract with the scenario files'
// matchers) over the request log.

extension RequestVerification {
    /// What the verification found: `satisfied` or not with what was counted and the near misses,
    /// or `unknowable` when the log no longer holds what would decide it.
    package enum Outcome {
        case satisfied(count: Int, matched: [Int])
        case notSatisfied(count: Int, matched: [Int], message: String, nearMisses: [(entry: Int, differences: [String])])
        case unknowable(String)
    }

    /// Decides the verification over `requestLog`'s entries.
    package func outcome(in requestLog: RequestLog) -> Outcome {
        guard requestLog.capacity > 0 else {
            return .unknowable("the request journal keeps no request (serve --request-journal 0): nothing can be verified")
        }
        let (entries, lost) = requestLog.all()
        let subjects = entries.map(requestLog.subject)
        let unseen = lost == 0 ? nil : "\(lost) requests were pushed out of the request journal since it was last cleared (it keeps "
            + "\(requestLog.capacity): serve --request-journal N keeps more; DELETE /sandbox/requests at the start of a test starts it afresh)"
        switch kind {
        case .count(let pattern, let count):
            let matched = zip(entries, subjects).filter { pattern.differences($1).isEmpty }.map(\.0.id)
            let n = matched.count
            let holds: Bool?  // nil: the requests pushed out decide
            switch count {
            case .exactly(let wanted): holds = n > wanted ? false : (unseen == nil ? n == wanted : nil)
            case .atLeast(let wanted): holds = n >= wanted ? true : (unseen == nil ? false : nil)
            case .atMost(let wanted): holds = n > wanted ? false : (unseen == nil ? true : nil)
            }
            guard let holds else { return .unknowable("\(n) of the requests kept match, and \(unseen!)") }
            if holds { return .satisfied(count: n, matched: matched) }
            let misses = n == 0 ? Self.nearMisses(pattern, entries, subjects) : []
            return .notSatisfied(count: n, matched: matched, message: "expected \(count.words) \(count.wanted == 1 ? "request" : "requests") "
                                     + "matching \(Self.summary(pattern)), got \(n)", nearMisses: misses)
        case .sequence(let patterns):
            var matched: [Int] = [], next = 0
            for (entry, subject) in zip(entries, subjects) where next < patterns.count && patterns[next].differences(subject).isEmpty {
                matched.append(entry.id)
                next += 1
            }
            if next == patterns.count { return .satisfied(count: next, matched: matched) }
            if let unseen { return .unknowable("the sequence is not among the requests kept, and \(unseen)") }
            let after = matched.last.map { " after request \($0)" } ?? ""
            let rest = zip(entries, subjects).filter { $0.0.id > (matched.last ?? 0) }
            return .notSatisfied(count: next, matched: matched,
                                 message: "expected the requests in order; request \(next + 1) of the sequence, "
                                     + "\(Self.summary(patterns[next])), did not come\(after)",
                                 nearMisses: Self.nearMisses(patterns[next], rest.map(\.0), rest.map(\.1)))
        }
    }

    /// How many near misses an answer lists at most.
    static let nearMissLimit = 5

    /// The requests closest to matching, fewest differences first (then newest): WireMock's near
    /// misses. A request differing in every part the pattern tests is no near miss.
    private static func nearMisses(_ pattern: RequestPattern, _ entries: [RequestLog.Entry],
                                   _ subjects: [RequestPattern.Subject]) -> [(entry: Int, differences: [String])] {
        let parts = (pattern.method == nil ? 0 : 1) + (pattern.path == nil ? 0 : 1) + (pattern.dialect == nil ? 0 : 1)
            + pattern.headers.count + pattern.body.count
        let scored = zip(entries, subjects).map { (entry: $0.id, differences: pattern.differences($1)) }
            .filter { !$0.differences.isEmpty && $0.differences.count < max(parts, 2) }
        return Array(scored.sorted { ($0.differences.count, -$0.entry) < ($1.differences.count, -$1.entry) }.prefix(nearMissLimit))
    }
}
