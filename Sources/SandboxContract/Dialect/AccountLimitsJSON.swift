import SandboxBank
package import SandboxSupport

// An account's limits as the admin API takes them (`PUT /sandbox/merchants/{login}`,
// `PUT /sandbox/prism-merchants/{id}`): one reader, so every API's admin says the same.

extension Account.Limits {
    /// Applies `{"transaction", "daily", "monthly"}` (decimal amounts; null removes one; absent
    /// ones stay); returns what is wrong with the first bad member, in the admin API's words.
    package mutating func apply(_ json: JSON) -> String? {
        guard let object = json.objectValue else { return "limits: expected an object" }
        for (key, path) in [("transaction", \Account.Limits.transaction), ("daily", \.daily), ("monthly", \.monthly)] {
            guard let value = object[key] else { continue }
            if value.isNull { self[keyPath: path] = nil; continue }
            guard let money = value.stringValue.flatMap({ Money($0) }) ?? value.numberText.flatMap({ Money($0) }) else {
                return "limits.\(key): expected a decimal amount or null"
            }
            self[keyPath: path] = money
        }
        return nil
    }
}
