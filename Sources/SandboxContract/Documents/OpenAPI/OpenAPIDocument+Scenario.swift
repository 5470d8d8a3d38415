import SandboxSupport

// `POST /sandbox/scenario`'s body is a scenario file: its schema is the scenario format's, as
// `cashout-sandbox schema` prints it (scenarios/schema.json, from ScenarioFormat's declarations),
// in the vocabularies of the APIs served. The document embeds it so that it stands alone: the
// file's schema as the component `Scenario`, each of its definitions (`$defs`) as a component
// `Scenario.NAME`, references rewritten to them.

extension OpenAPIDocument {
    /// The component of a whole scenario file, `POST /sandbox/scenario`'s body.
    static let scenarioSchema = "Scenario"

    /// The scenario format in the vocabularies of `apis`: `Scenario` and its definitions, `Scenario.NAME`.
    static func scenarioSchemas(_ apis: [APIDocsFragment]) -> [String: JSON] {
        let vocabulary = apis.reduce(ScenarioVocabulary()) { $0.merging($1.scenarioVocabulary) }
        guard case .object(var file) = embedded(ScenarioFormat.schema(vocabulary).json) else { return [:] }
        let definitions = file.removeValue(forKey: "$defs")?.objectValue ?? [:]
        file["$schema"] = nil
        file["$id"] = nil
        var schemas = [scenarioSchema: JSON.object(file)]
        for (name, definition) in definitions { schemas["\(scenarioSchema).\(name)"] = definition }
        return schemas
    }

    /// `schema` with each reference into the file's definitions (`#/$defs/NAME...`) made one into
    /// the document's components (`#/components/schemas/Scenario.NAME...`).
    private static func embedded(_ schema: JSON) -> JSON {
        switch schema {
        case .object(let members):
            var rewritten = members.mapValues(embedded)
            if case .string(let target)? = members["$ref"], target.hasPrefix("#/$defs/") {
                rewritten["$ref"] = .string("#/components/schemas/\(scenarioSchema)." + target.dropFirst("#/$defs/".count))
            }
            return .object(rewritten)
        case .array(let elements): return .array(elements.map(embedded))
        default: return schema
        }
    }
}
