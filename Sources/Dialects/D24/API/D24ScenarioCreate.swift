package import SandboxBank
package import SandboxContract
import SandboxWire
package import SandboxSupport

extension D24Dialect {
    /// The valid cashout of `country` (`D24Example`) as JSON fields; none for a country without one.
    static func exampleFields(country: String) -> [String: JSON] {
        Dictionary(uniqueKeysWithValues: (D24Example.createFields(country: country) ?? []).map { ($0.name, JSON.string($0.value)) })
    }

    /// A signed `POST /v3/cashout`: the step's fields over its country's example (BR when the
    /// step names no country), the merchant's `login` and `pass`, the reference as `external_id`
    /// unless the fields give one, and `notification_url` unless they give one. The body is
    /// serialised once with a marker where the reference goes, and each create splices its
    /// reference in.
    package func scenarioCreate(fields given: [String: JSON], account: Account, notificationURL: String) -> ScenarioCreate? {
        let merchant = D24Merchant(account)
        var fields = Self.exampleFields(country: given["country"].map { $0.stringValue ?? "" } ?? "BR")
        fields.merge(given) { $1 }
        fields["login"] = .string(merchant.login)
        fields["pass"] = .string(merchant.pass)
        if fields["notification_url"] == nil { fields["notification_url"] = .string(notificationURL) }
        let fixed = fields["external_id"].flatMap { $0.stringValue ?? $0.numberText }
        let marker = JSON.string("\u{FFFE}external-id\u{FFFE}")
        if fields["external_id"] == nil { fields["external_id"] = marker }
        let template = JSON.object(fields).serialized()
        let key = keys.key(for: merchant)
        let parts = template.firstRange(of: marker.serialized()).map { (template[..<$0.lowerBound], template[$0.upperBound...]) }
        return ScenarioCreate(fixedReference: fixed, request: { reference in
            let body = parts.map { head, tail in  // the marker (a JSON string, quotes and all) replaced by the reference
                var body: [UInt8] = []
                body.reserveCapacity(template.count + reference.utf8.count)
                body += head
                JSON.string(reference).write(into: &body)
                body += tail
                return body
            } ?? template
            return HTTPRequest(method: "POST", target: "/v3/cashout",
                               headers: ["Content-Type": "application/json", "Payload-Signature": D24Signature.payload(of: body, key: key)],
                               body: body)
        }, payoutID: { response in
            (try? JSON.parse(response.body))?["cashout_id"]?.stringValue.flatMap { Int($0) }
        })
    }
}
