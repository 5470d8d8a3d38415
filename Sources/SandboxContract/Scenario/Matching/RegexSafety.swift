/// Spots the patterns that make a backtracking regex engine take exponential time: a repeated
/// group that itself repeats or alternates, such as `(a+)+`, `(a*)*`, `(a|aa)+` or `(\d?){2,}`.
/// Swift's `Regex` backtracks and has no time limit, and a scenario's rules run on every create,
/// so such a pattern in a scenario would let one cashout stall the server. They are refused when
/// the scenario is loaded; the same match can be written without nesting (`a+`, `[ab]+`).
enum RegexSafety {
    static func hasNestedRepetition(_ pattern: String) -> Bool {
        let chars = Array(pattern)
        // Per open group: whether something inside repeats or alternates.
        var frames = [false]
        var i = 0
        func repeats(at index: Int) -> Bool {
            index < chars.count && "*+?{".contains(chars[index])
        }
        while i < chars.count {
            switch chars[i] {
            case "\\":
                i += 2
                if repeats(at: i) { frames[frames.count - 1] = true }
                continue
            case "[":
                i += 1
                if i < chars.count, chars[i] == "^" { i += 1 }
                if i < chars.count, chars[i] == "]" { i += 1 }
                while i < chars.count, chars[i] != "]" { i += chars[i] == "\\" ? 2 : 1 }
                i += 1
                if repeats(at: i) { frames[frames.count - 1] = true }
                continue
            case "(":
                frames.append(false)
                i += 1
                if i < chars.count, chars[i] == "?" { i += 1 }  // (?: (?= (?<name> ...: not a quantifier
                continue
            case "|":
                frames[frames.count - 1] = true
            case ")":
                let inner = frames.count > 1 ? frames.removeLast() : false
                let repeated = repeats(at: i + 1)
                if repeated && inner { return true }
                if repeated || inner { frames[frames.count - 1] = true }
            default:
                if repeats(at: i + 1) { frames[frames.count - 1] = true }
            }
            i += 1
        }
        return false
    }
}
