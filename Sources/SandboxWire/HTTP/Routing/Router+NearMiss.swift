import SandboxSupport
import Synchronization

// Near misses, as WireMock's near-miss report names them: a 404 or 405 names the route the
// request most likely meant. The distance is an edit distance over path segments (a `{param}`
// segment matches any non-empty one; letters compare without case, so `/v3/Cashout` is a near
// miss at distance 0), plus one when the method differs. A 404 names a route only when the path
// is close (a typo, a plural, a version), so that a path from elsewhere gets no puzzling hint;
// a 405 always names one of the path's own routes, the method closest to the one sent. A read
// (GET, HEAD) is pointed to a method that reads: GET, else POST (how RPC-style APIs query: D24's
// `POST /v3/cashout/status`), never first to one that changes what is there (its `PUT`).
// Routes are parsed once, by the first 404 (not when added: a start need not pay for it), and
// most are ruled out by their length alone: a 404 costs a few microseconds, not a walk through
// every pattern.

extension Router {
    /// The routes as near misses compare them, made from a router's `routeNames` by its first 404
    /// and kept. A router gets a new one with each route it adds (a one-word object: adding a
    /// route copies no list of names).
    final class NearMissCandidates: Sendable {
        private final class Made: Sendable {
            let candidates: [NearMissCandidate]

            init(_ candidates: [NearMissCandidate]) {
                self.candidates = candidates
            }
        }

        private let made = SetOnce<Made>()

        /// The candidates of `routeNames` (the router's, as it was when this was made): not
        /// unmatched, not HEAD.
        func of(_ routeNames: [String]) -> [NearMissCandidate] {
            if let made = made.load() { return made.candidates }
            return made.storeIfNil(Made(routeNames.compactMap(NearMissCandidate.init))).candidates
        }
    }

    /// A route as near misses compare it.
    struct NearMissCandidate: Sendable {
        let name: String
        let method: Substring
        /// Lowercased; a parameter is `{`.
        let segments: [[UInt8]]
        /// The path's length when it has no parameter: what no edit distance can be below the difference to.
        let length: Int?

        init?(_ name: String) {
            guard let space = name.firstIndex(of: " ") else { return nil }
            method = name[..<space]
            guard method != "HEAD" else { return nil }  // GET routes' twins
            self.name = name
            let pattern = name[name.index(after: space)...]
            segments = Router.split(pattern).map { $0.first == "{" ? [UInt8(ascii: "{")] : Array($0.lowercased().utf8) }
            length = pattern.contains("{") ? nil : pattern.utf8.count
        }
    }

    /// The route among `candidates` that a request for `method` and `path` most likely meant; nil
    /// when none is close enough to help.
    static func nearMiss(method: String, path: Substring, candidates: [NearMissCandidate]) -> String? {
        let parts = split(path).map { Array($0.lowercased().utf8) }
        let length = path.utf8.count
        let limit = max(1, min(4, length / 5))
        var best: (name: String, score: (Int, Int))?
        for candidate in candidates {
            if let other = candidate.length, abs(other - length) > limit { continue }
            guard abs(candidate.segments.count - parts.count) <= limit else { continue }
            let distance = distance(parts, candidate.segments, limit: limit)
            guard distance <= limit else { continue }
            let score = (distance + (candidate.method == method ? 0 : 1), methodRank(sent: method, candidate.method))
            if best == nil || score < best!.score { best = (candidate.name, score) }
        }
        return best?.name
    }

    /// Of the routes of one path (a 405's), the one whose method is closest to `method`: a
    /// method that reads for a read, then the fewest letters apart.
    static func closestMethod(_ method: String, among routes: [String]) -> String? {
        let sent = Array(method.utf8)
        func score(_ route: String) -> (Int, Int) {
            let other = Router.method(of: route)
            return (methodRank(sent: method, other), EditDistance.between(sent, Array(other.utf8)))
        }
        return routes.sorted().min { score($0) < score($1) }
    }

    /// How well a route's method serves a request sent with `sent`: 0 the same; for a read
    /// (GET, HEAD), 1 GET or POST (which queries in RPC-style APIs) and 2 a method that changes
    /// what is there; else 1.
    private static func methodRank(sent: String, _ method: Substring) -> Int {
        if method == sent { return 0 }
        guard sent == "GET" || sent == "HEAD" else { return 1 }
        return method == "GET" || method == "POST" ? 1 : 2
    }

    /// `" (did you mean GET /x?)"` for a near miss, else nothing: what an error's message ends with.
    static func hint(_ nearMiss: String?) -> String {
        nearMiss.map { " (did you mean \($0)?)" } ?? ""
    }

    /// Segment edit distance: substituting one segment for another costs their letters' edit
    /// distance (none for a parameter), inserting or deleting one its length and slash. Past
    /// `limit`, answers `limit + 1`.
    private static func distance(_ path: [[UInt8]], _ pattern: [[UInt8]], limit: Int) -> Int {
        func weight(_ segment: [UInt8]) -> Int { segment == [UInt8(ascii: "{")] ? 2 : segment.count + 1 }
        return EditDistance.rows(pattern.count) { previous, current in
            previous[0] = 0
            for (j, segment) in pattern.enumerated() { previous[j + 1] = previous[j] + weight(segment) }
            for part in path {
                current[0] = previous[0] + part.count + 1
                var smallest = current[0]
                for (j, segment) in pattern.enumerated() {
                    let substitution = segment == [UInt8(ascii: "{")] ? (part.isEmpty ? 1 : 0) : EditDistance.between(part, segment, limit: limit)
                    current[j + 1] = min(previous[j] + substitution, previous[j + 1] + part.count + 1, current[j] + weight(segment))
                    smallest = min(smallest, current[j + 1])
                }
                guard smallest <= limit else { return limit + 1 }
                swap(&previous, &current)
            }
            return previous[pattern.count]
        }
    }
}
