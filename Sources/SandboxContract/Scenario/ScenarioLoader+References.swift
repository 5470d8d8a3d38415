import SandboxSupport

// A step names a cashout with `as`; a later step refers to it by an `expect_...` step's `ref` or
// by `{{NAME.cashout_id}}` / `{{NAME.external_id}}` in its strings. A reference to a name no
// earlier step gave is refused when the file is loaded, so `validate` finds it and `test`
// refuses the file before running anything, with the same message.

extension ScenarioLoader {
    /// What `{{NAME.FIELD}}` can take from a named cashout.
    static let templateFields = ["cashout_id", "external_id"]

    /// Reads the steps, refusing a reference to a name that no earlier step gave, and what each
    /// names (`StepLinks`, in the same order). Steps that fail are left out, their errors kept in
    /// `errors`; the names they give still count, so one error does not make every later reference
    /// one too.
    static func readSteps(_ node: ScenarioNode, _ vocabulary: ScenarioVocabulary,
                          errors: inout ScenarioErrors) -> (steps: [Step], links: [StepLinks]) {
        var named: [String] = []  // `as` names, in the order given
        var saved: Set<String> = []  // `save` names after `request`, which templates may use too
        var values: Set<String> = []  // what `{{NAME}}` may use: saved names, and the `as` of a step naming a value
        var steps: [Step] = []
        var links: [StepLinks] = []
        for stepNode in errors.recover({ () throws(ScenarioError) in try node.array() }) ?? [] {
            let step = errors.recover { () throws(ScenarioError) -> Step in
                let step = try readStep(stepNode, vocabulary)
                if case .object(let fields) = stepNode.value { try checkReferences(stepNode, fields, named: named, saved: saved) }
                return step
            }
            guard case .object(let fields) = stepNode.value else { continue }
            if let step {
                steps.append(step)
                links.append(self.links(of: fields, vocabulary, named: named, values: values))
            }
            if case .string(let name)? = fields["as"], !named.contains(name) { named.append(name) }
            if case .object(let members)? = fields["save"] { saved.formUnion(members.keys) }
            values.formUnion(links.last.map(\.values) ?? [])
        }
        return (steps, links)
    }

    /// What a step (its `fields`, checked) names: its case, what it gives and what of earlier steps' it uses.
    private static func links(of fields: [String: JSON], _ vocabulary: ScenarioVocabulary, named: [String],
                              values: Set<String>) -> StepLinks {
        var links = StepLinks(caseName: fields["case"]?.stringValue)
        let action = fields.keys.first { !ScenarioFormat.stepModifiers.contains($0) } ?? ""
        if case .string(let name)? = fields["as"] {
            if vocabulary.valueNamingActions.contains(action) { links.values.append(name) } else { links.payout = name }
        }
        if case .object(let members)? = fields["save"] { links.values += members.keys.sorted() }
        func use(payout name: String) { if named.contains(name), !links.payoutsUsed.contains(name) { links.payoutsUsed.append(name) } }
        if case .object(let members)? = fields[action], case .string(let ref)? = members["ref"] { use(payout: ref) }
        for key in fields.keys.sorted() where !["as", "save", "case", "comment"].contains(key) {
            for text in strings(in: ScenarioNode(value: fields[key]!, path: key, file: "")) {
                guard case .string(let value) = text.value else { continue }
                for inside in templateNames(in: value) {
                    if values.contains(inside) {
                        if !links.valuesUsed.contains(inside) { links.valuesUsed.append(inside) }
                    } else if let dot = inside.lastIndex(of: "."), templateFields.contains(String(inside[inside.index(after: dot)...])) {
                        use(payout: String(inside[..<dot]))
                    }
                }
            }
        }
        return links
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
        templateNames(in: text).compactMap { inside in
            inside.lastIndex(of: ".").map { dot in ("{{\(inside)}}", String(inside[..<dot]), String(inside[inside.index(after: dot)...])) }
        }
    }

    /// What is inside each `{{...}}` of `text`, in order.
    private static func templateNames(in text: String) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            found.append(String(rest[open.upperBound ..< close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return found
    }
}
