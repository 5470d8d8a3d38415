import SandboxJSON

// A step names a cashout with `as`; a later step refers to it by an `expect_...` step's `ref` or
// by `{{NAME.cashout_id}}` / `{{NAME.external_id}}` in its strings. A reference to a name no
// earlier step gave is refused when the file is loaded, so `validate` finds it and `test`
// refuses the file before running anything, with the same message.

extension ScenarioLoader {
    /// What `{{NAME.FIELD}}` can take from a named cashout.
    static let templateFields = ["cashout_id", "external_id"]

    /// Reads the steps, refusing a reference to a name that no earlier step gave.
    /// Steps that fail are left out, their errors kept in `errors`; the names they give still
    /// count, so one error does not make every later reference one too.
    static func readSteps(_ node: ScenarioNode, _ vocabulary: ScenarioVocabulary, errors: inout ScenarioErrors) -> [Step] {
        var named: [String] = []  // `as` names, in the order given
        var saved: Set<String> = []  // `save` names after `request`, which templates may use too
        var steps: [Step] = []
        for stepNode in errors.recover({ () throws(ScenarioError) in try node.array() }) ?? [] {
            let step = errors.recover { () throws(ScenarioError) -> Step in
                let step = try readStep(stepNode, vocabulary)
                if case .object(let fields) = stepNode.value { try checkReferences(stepNode, fields, named: named, saved: saved) }
                return step
            }
            if let step { steps.append(step) }
            guard case .object(let fields) = stepNode.value else { continue }
            if case .string(let name)? = fields["as"], !named.contains(name) { named.append(name) }
            if case .object(let members)? = fields["save"] { saved.formUnion(members.keys) }
        }
        return steps
    }

    private static func checkReferences(_ step: ScenarioNode, _ fields: [String: JSON], named: [String], saved: Set<String>) throws(ScenarioError) {
        let soFar = named.isEmpty ? "none named so far" : "named so far: \(named.joined(separator: ", "))"
        for key in fields.keys.sorted() where !["as", "save", "comment"].contains(key) {
            let node = step.child(key, fields[key]!)
            if key.hasPrefix("expect_"), case .object(let members) = node.value, case .string(let ref)? = members["ref"], !named.contains(ref) {
                throw node.child("ref", .string(ref)).fail("expected the \"as\" of an earlier step, got \"\(ref)\" (\(soFar))")
            }
            for text in strings(in: node) {
                guard case .string(let value) = text.value else { continue }
                for (template, name, field) in templates(in: value) where !saved.contains("\(name).\(field)") {
                    if !templateFields.contains(field), named.contains(name) {
                        let fields = templateFields.map { "{{\(name).\($0)}}" }.joined(separator: " or ")
                        throw text.fail("expected \(fields), got \(template)")
                    }
                    if templateFields.contains(field), !named.contains(name) {
                        throw text.fail("expected {{NAME.\(field)}} with NAME the \"as\" of an earlier step, got \(template) (\(soFar))")
                    }
                }
            }
        }
    }

    /// Every string under `node`, with its path; object members in key order.
    private static func strings(in node: ScenarioNode) -> [ScenarioNode] {
        switch node.value {
        case .string: [node]
        case .array(let elements):
            elements.indices.flatMap { strings(in: ScenarioNode(value: elements[$0], path: "\(node.path)[\($0)]", file: node.file)) }
        case .object(let members): members.keys.sorted().flatMap { strings(in: node.child($0, members[$0]!)) }
        default: []
        }
    }

    /// The `{{NAME.FIELD}}` in `text` (`{{c1.cashout_id}}`, and mistakes such as `{{c1.id}}`).
    private static func templates(in text: String) -> [(template: String, name: String, field: String)] {
        var found: [(String, String, String)] = []
        var rest = text[...]
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            let inside = rest[open.upperBound ..< close.lowerBound]
            if let dot = inside.lastIndex(of: ".") {
                found.append(("{{\(inside)}}", String(inside[..<dot]), String(inside[inside.index(after: dot)...])))
            }
            rest = rest[close.upperBound...]
        }
        return found
    }
}
