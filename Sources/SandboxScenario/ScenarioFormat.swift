import SandboxJSON

/// The scenario format, declared once (`KeySpec`): the keys the loader allows and what each takes,
/// and the JSON Schema `cashout-sandbox schema` prints (scenarios/schema.json).
public enum ScenarioFormat {
    /// The JSON Schema (draft 2020-12) of scenario files in `vocabulary`'s dialects.
    public static func schema(_ vocabulary: ScenarioVocabulary) -> KeySpec {
        KeySpec()
            .with("$schema", "https://json-schema.org/draft/2020-12/schema")
            .with("$id", "https://cashout-sandbox.local/scenario.schema.json")
            .with("title", "CashoutSandbox scenario")
            .with("description", .string("""
                A scenario file (scenarios/*.json): D24 merchants, Mannco users, the bank's rules and default timeline, HTTP faults, \
                the webhook policy, and the steps that make a file a test. Mirrors the loader \
                (Sources/SandboxScenario/ScenarioLoader*.swift, with the dialects' parts: Sources/Dialects/D24, Sources/Dialects/Mannco), \
                which refuses unknown keys.
                """))
            .with("type", "object")
            .with("properties", named: topLevel)
            .with("additionalProperties", false)
            .with("dependentRequired", ["expect_failure": ["steps"], "needs_app": ["steps"], "explore": ["steps"]])
            .with("$defs", named: definitions)
    }
}
