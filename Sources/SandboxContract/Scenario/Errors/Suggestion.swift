import SandboxWire

/// The word a user probably meant, for "did you mean" hints of the command line and of scenario
/// files: the only candidate the word begins (`--sce`: `--scenario`), else as swift-argument-parser
/// does the closest fewer than 4 edits away, and no more edits than half the word (a short word
/// 3 edits from a candidate is another word: `file` is not a typo of `name`).
///
/// ```swift
/// Suggestion.closest(to: "--prot", among: ["--port", "--host"])   // "--port"
/// ```
package enum Suggestion {
    /// The closest of `candidates` to `word`, if one is close enough.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        let extending = candidates.filter { $0.hasPrefix(word) }
        if word.drop(while: { $0 == "-" }).count >= 2, extending.count == 1 { return extending[0] }
        return candidates.map { ($0, EditDistance.between(Array(word), Array($0), limit: 3)) }
            .filter { $0.1 < 4 && $0.1 * 2 <= word.count }.min { $0.1 < $1.1 }?.0
    }
}
