import SandboxSupport
/// The errors of one scenario file, gathered as reading goes on past each one, as a compiler
/// reports every error of a file in one run: a part that fails (a rule, a step, an account, a
/// top-level section) is left out and the next is read. Stops gathering at `cap`.
///
/// ```swift
/// var errors = ScenarioErrors()
/// let rules = try node.array().compactMap { rule in errors.recover { () throws(ScenarioError) in try readRule(rule) } }
/// try errors.throwIfAny()
/// ```
struct ScenarioErrors {
    /// How many errors one file reports at most.
    static let cap = 50

    private(set) var all: [ScenarioError] = []

    /// `read`'s value, or nil when it failed: its error is kept (up to `cap`; past it `read` is
    /// not run) and the caller goes on with the next part.
    mutating func recover<T>(_ read: () throws(ScenarioError) -> T) -> T? {
        guard all.count < Self.cap else { return nil }
        do throws(ScenarioError) {
            return try read()
        } catch {
            all.append(error)
            return nil
        }
    }

    /// The first error, carrying the others (`ScenarioError.more`), if any was kept.
    func throwIfAny() throws(ScenarioError) {
        guard var first = all.first else { return }
        first.more = Array(all.dropFirst())
        first.truncated = all.count >= Self.cap
        throw first
    }

    /// Each element of the array at `node` that `read` reads; the others' errors are kept.
    mutating func each<T>(_ node: ScenarioNode, _ read: (ScenarioNode) throws(ScenarioError) -> T) -> [T] {
        guard let elements = recover({ () throws(ScenarioError) in try node.array() }) else { return [] }
        return elements.compactMap { element in recover { () throws(ScenarioError) in try read(element) } }
    }
}

extension ScenarioNode {
    /// `object(allowed:)` that keeps going past unknown keys: each is an error in `errors`, and
    /// the known ones are read. nil (an error too) when the value is not an object.
    func object(allowed: [String], errors: inout ScenarioErrors) -> [String: ScenarioNode]? {
        guard case .object(let members) = value else {
            errors.recover { () throws(ScenarioError) in throw fail("expected an object") }
            return nil
        }
        let (nodes, unknown) = split(members, allowed: allowed)
        for key in unknown { errors.recover { () throws(ScenarioError) in throw unknownKey(key, allowed: allowed) } }
        return nodes
    }
}
