package import SandboxBank
package import SandboxSupport

/// A JSON value of a scenario file with the path that led to it, so every refusal can say where
/// it is. Dialects read their own sections with it (`ScenarioVocabulary.accountSections`).
package struct ScenarioNode: Sendable {
    package let value: JSON
    package let path: String
    let file: String

    /// `value` found at `path` (`body.amount`) of `file` (what messages name it by).
    package init(value: JSON, path: String, file: String) {
        self.value = value
        self.path = path
        self.file = file
    }

    package func fail(_ expected: String) -> ScenarioError {
        ScenarioError(file: file, path: path, expected: expected)
    }

    /// `fail`, with the value found when it is a single one, so that a typo shows beside what was
    /// expected: `expected a duration such as "30s", "1h5m" or "2d", got "5 s"`.
    func failShowingValue(_ expected: String) -> ScenarioError {
        switch value {
        case .string, .number, .bool: fail("\(expected), got \(value.serializedString())")
        default: fail(expected)
        }
    }

    package func child(_ key: String, _ value: JSON) -> ScenarioNode {
        ScenarioNode(value: value, path: path.isEmpty ? key : path + "." + key, file: file)
    }

    /// The members of an object; a key outside `allowed` is an error (a typo never passes silently).
    package func object(allowed: [String]) throws(ScenarioError) -> [String: ScenarioNode] {
        guard case .object(let members) = value else { throw fail("expected an object") }
        let (nodes, unknown) = split(members, allowed: allowed)
        if let first = unknown.first { throw unknownKey(first, allowed: allowed) }
        return nodes
    }

    /// `members`' nodes of the keys in `allowed`, and the other keys in order (sorted only when
    /// there are some: a start reads the built-in scenarios' objects, which have none).
    func split(_ members: [String: JSON], allowed: [String]) -> (nodes: [String: ScenarioNode], unknown: [String]) {
        var nodes = [String: ScenarioNode](minimumCapacity: members.count), unknown: [String] = []
        for (key, member) in members {
            if allowed.contains(key) { nodes[key] = child(key, member) } else { unknown.append(key) }
        }
        return (nodes, unknown.count > 1 ? unknown.sorted() : unknown)
    }

    /// The refusal of a key outside `allowed`, with the allowed key it probably meant.
    func unknownKey(_ key: String, allowed: [String]) -> ScenarioError {
        child(key, .null).fail("unknown key (\(Self.didYouMean(key, among: allowed))expected one of: \(allowed.joined(separator: ", ")))")
    }

    /// `did you mean "country"? ` when a candidate is close to `key`, else nothing.
    static func didYouMean(_ key: String, among candidates: [String]) -> String {
        Suggestion.closest(to: key, among: candidates).map { "did you mean \"\($0)\"? " } ?? ""
    }

    package func array() throws(ScenarioError) -> [ScenarioNode] {
        guard case .array(let elements) = value else { throw fail("expected an array") }
        return elements.enumerated().map { ScenarioNode(value: $1, path: "\(path)[\($0)]", file: file) }
    }

    package func string() throws(ScenarioError) -> String {
        guard case .string(let text) = value else { throw fail("expected a string") }
        return text
    }

    /// A string, or a number as its text.
    package func text() throws(ScenarioError) -> String {
        switch value {
        case .string(let text), .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        default: throw fail("expected a string or a number")
        }
    }

    package func integer(_ range: ClosedRange<Int>) throws(ScenarioError) -> Int {
        guard case .number(let text) = value, let number = Int(text), range.contains(number) else {
            throw failShowingValue("expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A chance: a number from 0 to 1 (faults' and chaos rules' `rate`).
    func rate() throws(ScenarioError) -> Double {
        guard case .number(let text) = value, let number = Double(text), (0 ... 1).contains(number) else {
            throw failShowingValue("expected a number from 0 to 1")
        }
        return number
    }

    package func bool() throws(ScenarioError) -> Bool {
        guard case .bool(let flag) = value else { throw fail("expected true or false") }
        return flag
    }

    /// A decimal amount, as a string (`"5000.00"`) or a number.
    package func money() throws(ScenarioError) -> Money {
        guard let text = try? text(), let money = Money(text) else {
            throw failShowingValue("expected an amount with at most two decimals, such as \"5000.00\"")
        }
        return money
    }

    /// A duration such as `"30s"`, `"1h5m"` or `"2d"`.
    func duration() throws(ScenarioError) -> Duration {
        guard case .string(let text) = value, let duration = DurationText.parse(text) else {
            throw failShowingValue("expected a duration such as \"30s\", \"1h5m\" or \"2d\"")
        }
        return duration
    }

    /// A timeline delay: a duration, business days (`"2bd"`), or `{"min": "5m", "max": "30m"}`.
    func delay() throws(ScenarioError) -> TimelineStepSpec.Delay {
        if case .string(let text) = value, text.hasSuffix("bd"), let days = Int(text.dropLast(2)), (0 ... 3650).contains(days) {
            return .businessDays(days)
        }
        if case .object = value {
            let range = try object(allowed: ScenarioFormat.Keys.delayRange)
            guard let min = range["min"], let max = range["max"] else { throw fail("expected both \"min\" and \"max\"") }
            let (low, high) = (try min.duration(), try max.duration())
            guard low <= high else { throw fail("expected \"min\" not after \"max\"") }
            return .range(min: low, max: high)
        }
        guard case .string = value else {
            throw failShowingValue("expected a delay: a duration such as \"5m\", business days such as \"2bd\", or {\"min\",\"max\"}")
        }
        return .fixed(try duration())
    }

    /// A status a timeline reaches, by the sandbox's name (`PayoutStatus.names`), or PROCESSING:
    /// another name of DELIVERED, the one other APIs use for "sent to the bank".
    func status() throws(ScenarioError) -> PayoutStatus {
        guard case .string(let name) = value, let status = name == "PROCESSING" ? .delivered : PayoutStatus(name: name) else {
            throw failShowingValue("expected a status: \(ScenarioNode.statusNames)")
        }
        return status
    }

    /// "PENDING, ON_HOLD, ... or CANCELLED", for messages.
    static let statusNames = PayoutStatus.names.dropLast().joined(separator: ", ") + " or " + PayoutStatus.names.last!
}

// The parts of an account every dialect's section can share.
extension ScenarioNode {
    /// `{"USD": "5000.00"}`: one settlement currency and its amount.
    package func balance() throws(ScenarioError) -> (currency: String, amount: Money) {
        guard case .object(let members) = value, members.count == 1, let (currency, amount) = members.first,
              currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw fail("expected one settlement currency and its amount, such as {\"USD\": \"5000.00\"}")
        }
        return (currency, try child(currency, amount).money())
    }

    /// `{"transaction", "daily", "monthly"}`, each optional.
    package func limits() throws(ScenarioError) -> Account.Limits {
        let entries = try object(allowed: ScenarioFormat.Keys.limits)
        return Account.Limits(transaction: try entries["transaction"]?.money(), daily: try entries["daily"]?.money(),
                              monthly: try entries["monthly"]?.money())
    }

    /// `{"BR": "10.00", ...}`: an amount per country.
    package func amountsByCountry() throws(ScenarioError) -> [String: Money] {
        guard case .object(let members) = value else { throw fail("expected an object of country: amount") }
        var amounts: [String: Money] = [:]
        for country in members.keys.sorted() { amounts[country] = try child(country, members[country]!).money() }
        return amounts
    }

    /// A rejection's code: a whole number in `range`, or a text code (APIs whose codes are words)
    /// that is not all digits.
    func reasonCode(_ range: ClosedRange<Int> = 100 ... 99999) throws(ScenarioError) -> String {
        if case .string(let text) = value, text.utf8.contains(where: { !(UInt8(ascii: "0") ... UInt8(ascii: "9")).contains($0) }) {
            return text
        }
        return String(try integer(range))
    }

    /// A string that is not empty.
    package func nonEmptyString() throws(ScenarioError) -> String {
        let text = try string()
        guard !text.isEmpty else { throw fail("expected a non-empty string") }
        return text
    }
}
