/// The word a user probably meant, for "did you mean" hints: as swift-argument-parser does, a
/// candidate fewer than 4 edits away (the closest), or else the only one the word begins.
enum Suggestion {
    /// The closest of `candidates` to `word`, if one is close enough.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let near = candidates.map { ($0, editDistance(word, $0)) }.filter { $0.1 < 4 }
        if let best = near.min(by: { $0.1 < $1.1 }) { return best.0 }
        let letters = word.drop { $0 == "-" }
        let extending = candidates.filter { $0.hasPrefix(word) }
        return letters.count >= 2 && extending.count == 1 ? extending[0] : nil
    }

    /// `"; did you mean 'X'?"`, or nothing when no candidate is close.
    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The Levenshtein distance: insertions, deletions and substitutions of characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let b = Array(b)
        var previous = Array(0 ... b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
