import SandboxContract

extension Suggestion {
    /// `"; did you mean 'X'?"`, or nothing when no candidate is close.
    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}
