import SandboxSupport
// A timeline's `rejection_code` is one that an API its rule can reach answers (`RejectionCodes`,
// declared by each dialect): D24 answers the codes of its list, a processor a word code. A rule
// reaches the dialects its `dialect` matcher matches whose payouts have every field its `when`
// tests; the default timeline reaches them all.

extension ScenarioLoader {
    /// The dialects (by name) a rule with `when` can reach; every dialect for the default timeline (nil).
    static func reach(_ when: [String: Matcher]?, _ vocabulary: ScenarioVocabulary) -> [String] {
        vocabulary.dialects.keys.sorted().filter { name in
            guard let when else { return true }
            let terms = vocabulary.dialects[name]!
            return when.allSatisfy { field, matcher in
                switch field {
                case "dialect": matcher.matches(name)
                case "merchant": true
                default: terms.ruleFields.contains(field)
                }
            }
        }
    }

    /// Refuses `code` (at `node`) unless one of `dialects` answers it, naming what each answers
    /// and the listed codes nearest it. Nothing is checked when no dialect is reached.
    static func checkRejectionCode(_ code: String, at node: ScenarioNode, reach dialects: [String],
                                   _ vocabulary: ScenarioVocabulary) throws(ScenarioError) {
        let codes = dialects.compactMap { vocabulary.dialects[$0]?.rejectionCodes }
        guard !codes.isEmpty, !codes.contains(where: { $0.knows(code) }) else { return }
        var answers: [(dialects: [String], summary: String)] = []
        for (name, codes) in zip(dialects, codes) {
            if let index = answers.firstIndex(where: { $0.summary == codes.summary }) {
                answers[index].dialects.append(name)
            } else {
                answers.append(([name], codes.summary))
            }
        }
        let said = answers.map { "\($0.dialects.joined(separator: " and ")): \($0.summary)" }.joined(separator: "; ")
        let nearest = codes.flatMap { $0.nearest(to: code) }.prefix(3).map { "\($0.code) (\($0.name))" }
        let hint = nearest.isEmpty ? "" : "; nearest: \(nearest.joined(separator: ", "))"
        let subject = dialects.count == 1 ? "the API it reaches" : "an API it reaches"
        throw node.fail("expected a rejection code that \(subject) answers (\(said)), got \(node.value.serializedString())\(hint)")
    }
}
