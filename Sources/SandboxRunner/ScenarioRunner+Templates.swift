import SandboxSupport
import SandboxContract
import CashoutSandbox
import FoundationEssentials

// Templates in a step's strings: `{{base_url}}`, `{{REF.cashout_id}}`, `{{REF.external_id}}` and
// the values `save` (and a login's `as`) kept. A file's references to names no earlier step gave
// are refused when it is loaded (ScenarioLoader+References); what is left to find here is a
// template of steps made in code, or a saved name that was never saved.

extension ScenarioRunner {
    /// Expands `{{base_url}}`, `{{REF.cashout_id}}`, `{{REF.external_id}}` and saved `{{name}}`s.
    func expand(_ text: String) -> String {
        guard text.contains("{{") else { return text }
        var result = text.replacing("{{base_url}}", with: sandbox.baseURL.absoluteString)
        for (name, reference) in references {
            result = result.replacing("{{\(name).cashout_id}}", with: String(reference.cashoutID))
                .replacing("{{\(name).external_id}}", with: reference.externalID)
        }
        for (name, value) in saved { result = result.replacing("{{\(name)}}", with: value) }
        return result
    }

    func expand(_ json: JSON) -> JSON {
        switch json {
        case .string(let text): .string(expand(text))
        case .array(let elements): .array(elements.map(expand))
        case .object(let members): .object(members.mapValues(expand))
        default: json
        }
    }

    /// Why `step` cannot run, if one of its templates names nothing: the template, and what is known.
    func templateFailure(in step: Step) -> String? {
        guard let unknown = unresolvedTemplate(in: step) else { return nil }
        let known = ["{{base_url}}"] + references.keys.sorted().flatMap { ["{{\($0).cashout_id}}", "{{\($0).external_id}}"] }
            + saved.keys.sorted().map { "{{\($0)}}" }
        return "unknown template \(unknown): known so far are \(known.joined(separator: ", ")) "
            + "(name cashouts with \"as\", values with \"save\")"
    }

    /// The first `{{...}}` of the step's strings that nothing fills in, if any.
    private func unresolvedTemplate(in step: Step) -> String? {
        var texts: [String] = []
        func collect(_ json: JSON) {
            switch json {
            case .string(let text): texts.append(text)
            case .array(let elements): elements.forEach(collect)
            case .object(let members): members.values.forEach(collect)
            default: break
            }
        }
        switch step {
        case .request(let request, let expect, _):
            texts += [request.path, request.body ?? ""] + request.headers.map(\.value)
            request.json.map(collect)
            expect?.json.map(collect)
            expect?.jsonContains.map(collect)
        case .createCashout(let fields, _, _, let expect):
            fields.values.forEach(collect)
            expect?.json.map(collect)
            expect?.jsonContains.map(collect)
        case .expectWebhooks(_, _, _, let fields, _):
            texts += fields.values
        case .expectRequests(let verification):
            collect(verification)
        case .dialect(let step):
            collect(step.body)
            step.ownExpect.map(collect)
            step.expect?.json.map(collect)
            step.expect?.jsonContains.map(collect)
        default:
            break
        }
        for text in texts {
            let expanded = expand(text)
            if let start = expanded.firstRange(of: "{{"), let end = expanded[start.upperBound...].firstRange(of: "}}") {
                return String(expanded[start.lowerBound ..< end.upperBound])
            }
        }
        return nil
    }
}
