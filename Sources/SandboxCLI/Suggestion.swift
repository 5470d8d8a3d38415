import SandboxHTTP

/// The word a user probably meant, for "did you mean" hints: the only candidate the word begins
/// (`--sce`: `--scenario`), else as swift-argument-parser does the closest fewer than 4 edits away.
enum Suggestion {
    /// The closest of `candidates` to `word`, if one is close enough.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let extending = candidates.filter { $0.hasPrefix(word) }
        if word.drop(while: { $0 == "-" }).count >= 2, extending.count == 1 { return extending[0] }
        return candidates.map { ($0, EditDistance.between(Array(word), Array($0), limit: 3)) }.filter { $0.1 < 4 }.min { $0.1 < $1.1 }?.0
    }

    /// `"; did you mean 'X'?"`, or nothing when no candidate is close.
    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}
