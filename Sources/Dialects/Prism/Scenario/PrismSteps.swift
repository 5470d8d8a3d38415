import SandboxBank
import SandboxContract
import SandboxWire
import SandboxSupport

// PayoutService's scenario step: one unary call, made in process as a Connect client would
// (POST /types.PayoutService/<Method>, application/json, the metadata as headers).
//   {"grpc_call": {"method": "Create", "merchant": ID, "metadata": {"x-api-key": …}, "message": {…proto3 JSON…}},
//    "as": "p1", "expect": {"status": "OK", "fields": {…}, "error": "exact grpc-message"}}
// The metadata is the merchant's credentials (x-connector sandbox, x-auth header-key, x-api-key,
// and x-merchant-id for another than DefaultMerchantId) with the step's on top: a null drops one.
// Without `expect` the call must end OK. `as` names the payout of the answer's connector_payout_id.

enum PrismSteps {
    static let action = "grpc_call"

    /// The unary methods of `types.PayoutService` a step may call, by name.
    static let methods = PrismOperation.methods.compactMap(\.grpcMethod)

    static let checks: [String: ScenarioVocabulary.StepCheck] = [
        action: { node throws(ScenarioError) in
            let fields = try node.object(allowed: callFormat.keys)
            guard let method = fields["method"] else { throw node.fail("expected \"method\": one of \(methods.joined(separator: ", "))") }
            if operation(named: try method.string()) == nil {
                throw method.fail("expected a method of \(PrismProtos.serviceName): \(methods.joined(separator: ", ")) "
                                      + "(or \"\(PrismProtos.serviceName)/Create\"...)")
            }
            _ = try fields["merchant"]?.nonEmptyString()
            if let metadata = fields["metadata"] {
                guard case .object(let members) = metadata.value else {
                    throw metadata.fail("expected an object of metadata name: value (null drops one)")
                }
                for key in members.keys.sorted() {
                    let value = metadata.child(key, members[key]!)
                    if key.isEmpty || key != key.lowercased() { throw value.fail("expected a lowercase metadata name") }
                    if case .null = value.value { continue }
                    _ = try value.string()
                }
            }
            if let message = fields["message"], message.value.objectValue == nil {
                throw message.fail("expected an object: the request message in proto3 JSON")
            }
        },
    ]

    static let expectChecks: [String: ScenarioVocabulary.StepCheck] = [
        action: { node throws(ScenarioError) in
            let fields = try node.object(allowed: expectationFormat.keys)
            if let status = fields["status"], case let name = try status.string(), !GRPCStatus.Code.allCases.contains(where: { $0.name == name }) {
                throw status.fail("expected a gRPC status: \(GRPCStatus.Code.allCases.map(\.name).joined(separator: ", "))")
            }
            if let expected = fields["fields"], expected.value.objectValue == nil {
                throw expected.fail("expected an object: fields of the response (proto field names or lowerCamelCase)")
            }
            _ = try fields["error"]?.string()
        },
    ]

    /// The method of `Create` or `types.PayoutService/Create` (a leading `/` allowed); nil for another.
    static func operation(named text: String) -> APIOperation? {
        var name = text.hasPrefix("/") ? String(text.dropFirst()) : text
        if name.hasPrefix(PrismProtos.serviceName + "/") { name = String(name.dropFirst(PrismProtos.serviceName.count + 1)) }
        return PrismOperation.methods.first { $0.grpcMethod == name }
    }

    /// The code of a gRPC name (`NOT_FOUND`) or of Connect's (`not_found`).
    static func code(_ name: String) -> GRPCStatus.Code? {
        GRPCStatus.Code.allCases.first { $0.name == name || $0.connectName == name }
    }

    static func perform(_ step: Step.DialectStep, in run: inout some ScenarioRun) -> String? {
        guard case .object(let body) = step.body, let method = body["method"]?.stringValue.flatMap(operation(named:)) else {
            return "\(step.action): expected an object with \"method\""
        }
        let subject = "\(action) \(method.grpcMethod ?? method.id)" + (step.name.map { " \($0)" } ?? "")
        let merchantID = body["merchant"]?.stringValue ?? PrismMerchant.defaultID
        guard let merchant = run.bank.account(id: merchantID).flatMap(PrismMerchant.init(owned:)) else {
            return "\(subject): no PayoutService merchant \"\(merchantID)\" (define one in \"\(PrismMerchant.section)\")"
        }
        var metadata: [String: String] = [PrismCaller.Header.connector: "sandbox", PrismCaller.Header.auth: "header-key",
                                          PrismCaller.Header.apiKey: merchant.apiKey]
        if merchantID != PrismMerchant.defaultID { metadata[PrismCaller.Header.merchantID] = merchantID }
        for (key, value) in body["metadata"]?.objectValue ?? [:] { metadata[key] = value.stringValue }
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        for key in metadata.keys.sorted() { headers.add(key, metadata[key]!) }
        let message = body["message"] ?? .object([:])
        let request = HTTPRequest(method: "POST", target: method.grpcPath ?? "", headers: headers, body: message.serialized())
        let (response, problem) = run.send(request, expect: Step.Expectation(), action: subject)
        if let problem { return problem }
        guard let response else { return "\(subject): expected an answer, the connection closed without one" }
        let answer = try? JSON.parse(response.body)

        let expect = step.ownExpect?.objectValue ?? [:]
        let wanted = expect["status"]?.stringValue.flatMap(code) ?? .ok
        let got: GRPCStatus.Code? = response.status == 200 ? .ok : answer?["code"]?.stringValue.flatMap(code)
        let errorText = response.status == 200 ? "" : answer?["message"]?.stringValue ?? ""
        guard let got else { return "\(subject): expected status \(wanted.name), got HTTP \(response.status) without a Connect code" }
        if got != wanted {
            return "\(subject): expected status \(wanted.name), got \(got.name)" + (errorText.isEmpty ? "" : " (\(errorText))")
        }
        if let error = expect["error"]?.stringValue, error != errorText {
            return "\(subject): expected error \"\(error)\", got \"\(errorText)\""
        }
        if let fields = expect["fields"], got == .ok {
            let have = answer ?? .object([:])
            if let mismatch = difference(have, camelCased(fields), path: "") {
                return "\(subject): expected \(mismatch)"
            }
        }
        if got == .ok, let name = step.name {
            guard let id = answer?["connectorPayoutId"]?.stringValue else {
                return "\(subject): expected a connectorPayoutId to name \"\(name)\", got none"
            }
            guard let payoutID = Int(id) else {  // CreateRecipient's rcp_…, EnrollDisburseAccount's pm_…
                return "\(subject): \"as\" names payouts, and \(id) is not one: write the id it answers where later steps need it"
            }
            let reference = answer?["merchantPayoutId"]?.stringValue ?? message["merchant_payout_id"]?.stringValue
                ?? message["merchantPayoutId"]?.stringValue ?? id
            run.name(name, payoutID: payoutID, reference: reference)
        }
        return nil
    }

    /// `expected`'s keys in proto3 JSON's lowerCamelCase (`connector_payout_id` → `connectorPayoutId`).
    static func camelCased(_ expected: JSON) -> JSON {
        switch expected {
        case .object(let members):
            var out: [String: JSON] = [:]
            for (key, value) in members {
                let parts = key.split(separator: "_", omittingEmptySubsequences: true)
                let camel = parts.enumerated().map { $0 == 0 ? String($1) : $1.prefix(1).uppercased() + $1.dropFirst() }.joined()
                out[camel.isEmpty ? key : camel] = camelCased(value)
            }
            return .object(out)
        case .array(let elements): return .array(elements.map(camelCased))
        default: return expected
        }
    }

    /// Where `actual` lacks what `expected` holds (objects: a subset; scalars by text, as proto3
    /// JSON writes 64-bit integers as strings), in a failure's words; nil when it holds.
    static func difference(_ actual: JSON, _ expected: JSON, path: String) -> String? {
        switch expected {
        case .object(let members):
            for key in members.keys.sorted() {
                let at = path.isEmpty ? key : "\(path).\(key)"
                guard let value = actual.objectValue?[key] else { return "\(at) \(members[key]!.serializedString()), got nothing" }
                if let problem = difference(value, members[key]!, path: at) { return problem }
            }
            return nil
        case .array(let elements):
            guard let have = actual.arrayValue, have.count == elements.count else {
                return "\(path) \(expected.serializedString()), got \(actual.serializedString())"
            }
            for (index, element) in elements.enumerated() {
                if let problem = difference(have[index], element, path: "\(path)[\(index)]") { return problem }
            }
            return nil
        default:
            return scalarText(actual) == scalarText(expected) ? nil : "\(path) \(expected.serializedString()), got \(actual.serializedString())"
        }
    }

    private static func scalarText(_ json: JSON) -> String {
        json.stringValue ?? json.numberText ?? json.serializedString()
    }
}
