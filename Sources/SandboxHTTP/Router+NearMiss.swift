// Near misses, as WireMock's near-miss report names them: a 404 or 405 names the route the
// request most likely meant. The distance is an edit distance over path segments (a `{param}`
// segment matches any non-empty one; letters compare without case, so `/v3/Cashout` is a near
// miss at distance 0), plus one when the method differs. A 404 names a route only when the path
// is close (a typo, a plural, a version), so that a path from elsewhere gets no puzzling hint;
// a 405 always names one of the path's own routes, the method closest to the one sent.

extension Router {
    /// The route, `"METHOD /pattern"` among `routes` (``routeNames``), that a request for `method`
    /// and `path` most likely meant; nil when none is close enough to help.
    static func nearMiss(method: String, path: Substring, routes: [String]) -> String? {
        let parts = split(path)
        let length = path.utf8.count
        let limit = max(1, min(4, length / 5))
        var best: (name: String, score: Int, pathDistance: Int)?
        for name in routes {
            guard let (routeMethod, pattern) = parse(name), routeMethod != "HEAD" else { continue }
            let pathDistance = distance(parts, split(pattern), limit: limit)
            guard pathDistance <= limit else { continue }
            let score = pathDistance + (routeMethod == method ? 0 : 1)
            if best == nil || score < best!.score { best = (name, score, pathDistance) }
        }
        return best?.name
    }

    /// Of the routes of one path (a 405's), the one whose method is closest to `method`.
    static func closestMethod(_ method: String, among routes: [String]) -> String? {
        let sent = Array(method.utf8)
        func distance(_ route: String) -> Int { edits(sent, Array(route.prefix { $0 != " " }.utf8)) }
        return routes.sorted().min { distance($0) < distance($1) }
    }

    /// `" (did you mean GET /x?)"` for a near miss, else nothing: what an error's message ends with.
    static func hint(_ nearMiss: String?) -> String {
        nearMiss.map { " (did you mean \($0)?)" } ?? ""
    }

    private static func parse(_ name: String) -> (method: Substring, pattern: Substring)? {
        guard let space = name.firstIndex(of: " ") else { return nil }  // "unmatched"
        return (name[..<space], name[name.index(after: space)...])
    }

    /// Segment edit distance: substituting one segment for another costs their letters' edit
    /// distance (none for a parameter), inserting or deleting one its length and slash. Stops
    /// counting past `limit` (answers `limit + 1`).
    private static func distance(_ path: [Substring], _ pattern: [Substring], limit: Int) -> Int {
        guard abs(path.count - pattern.count) <= limit else { return limit + 1 }
        let path = path.map { Array($0.lowercased().utf8) }
        let pattern = pattern.map { Array($0.utf8) }
        var previous = [0]
        for segment in pattern { previous.append(previous.last! + weight(segment)) }
        for part in path {
            var current = [previous[0] + part.count + 1]
            for (j, segment) in pattern.enumerated() {
                let isParameter = segment.first == UInt8(ascii: "{") && segment.last == UInt8(ascii: "}")
                let substitution = isParameter ? (part.isEmpty ? 1 : 0) : edits(part, segment.map(\.asciiLowercased))
                current.append(min(previous[j] + substitution, previous[j + 1] + part.count + 1, current[j] + weight(segment)))
            }
            guard current.min()! <= limit else { return limit + 1 }
            previous = current
        }
        return previous.last!
    }

    /// What inserting or deleting a pattern segment costs: a parameter counts as one letter.
    private static func weight(_ segment: [UInt8]) -> Int {
        segment.first == UInt8(ascii: "{") ? 2 : segment.count + 1
    }

    /// Levenshtein distance between two byte strings.
    private static func edits(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0 ... b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j] + (x == y ? 0 : 1), previous[j + 1] + 1, current[j] + 1))
            }
            previous = current
        }
        return previous.last!
    }
}
