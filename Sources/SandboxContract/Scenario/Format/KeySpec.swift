package import SandboxSupport

/// One key (or value) of the scenario format, declared as data: its type, its enum or range, its
/// description, the keys of an object in order. The loader reads its checks from these
/// declarations (`ScenarioFormat`), and `cashout-sandbox schema` prints them as a JSON Schema
/// (draft 2020-12: https://json-schema.org/draft/2020-12/json-schema-validation, "A Vocabulary for
/// Structural Validation"). What JSON Schema cannot say (a date's calendar, `min` not after `max`)
/// stays code in the loader.
///
/// ```swift
/// let clock = KeySpec.object("The virtual clock.", [
///     ("mode", .string("real or manual.", enum: ["real", "manual"])),
///     ("start", .string("The start time, UTC.", pattern: "^[0-9]{4}-...Z$")),
/// ])
/// clock.keys             // ["mode", "start"]: what the loader allows, in the order its messages list them
/// clock.schemaText       // {"description": ..., "type": "object", "properties": {...}, "additionalProperties": false}
/// ```
package struct KeySpec: Sendable {
    /// A keyword's value: JSON as written, a schema, schemas, or schemas by name (`properties`).
    indirect enum Value: Sendable {
        case json(JSON)
        case spec(KeySpec)
        case specs([KeySpec])
        case named([(String, KeySpec)])
    }

    /// The keywords, in the order the schema prints them.
    var keywords: [(String, Value)] = []
    /// `false`, the schema no value meets (a key that must be absent), when set.
    var refusesAll = false

    /// The schema no value meets: `"properties": {"key": false}` says `key` must be absent.
    package static var absent: KeySpec {
        var spec = KeySpec()
        spec.refusesAll = true
        return spec
    }

    /// A schema of `description` alone (any value), to which keywords are added.
    package init(_ description: String? = nil) {
        if let description { keywords.append(("description", .json(.string(description)))) }
    }

    // MARK: - Reading a declaration

    /// The value of `keyword`, as JSON (nil when absent or a schema).
    subscript(keyword: String) -> JSON? {
        for (name, value) in keywords where name == keyword { if case .json(let json) = value { return json } }
        return nil
    }

    /// The schema under `keyword` (`items`, `not`...).
    package func spec(_ keyword: String) -> KeySpec? {
        for (name, value) in keywords where name == keyword { if case .spec(let spec) = value { return spec } }
        return nil
    }

    /// An object's property names, in the order they are declared: the keys the loader allows.
    package var keys: [String] { properties.map(\.0) }

    /// An object's properties, in the order they are declared.
    var properties: [(String, KeySpec)] {
        for (name, value) in keywords where name == "properties" { if case .named(let members) = value { return members } }
        return []
    }

    /// The property `key`'s declaration.
    package func property(_ key: String) -> KeySpec? { properties.first { $0.0 == key }?.1 }

    /// An integer's `minimum ... maximum`.
    package var range: ClosedRange<Int> {
        let low = self["minimum"]?.numberText.flatMap { Int($0) } ?? Int.min
        let high = self["maximum"]?.numberText.flatMap { Int($0) } ?? Int.max
        return low ... high
    }

    /// A string's `enum`.
    var enumStrings: [String] { self["enum"]?.arrayValue?.compactMap(\.stringValue) ?? [] }

    // MARK: - Building one

    /// This schema with `keyword` set to `value` (replacing an earlier one).
    package func with(_ keyword: String, _ value: JSON) -> KeySpec { setting(keyword, .json(value)) }
    package func with(_ keyword: String, _ spec: KeySpec) -> KeySpec { setting(keyword, .spec(spec)) }
    package func with(_ keyword: String, _ specs: [KeySpec]) -> KeySpec { setting(keyword, .specs(specs)) }
    package func with(_ keyword: String, named members: [(String, KeySpec)]) -> KeySpec { setting(keyword, .named(members)) }

    func setting(_ keyword: String, _ value: Value) -> KeySpec {
        var copy = self
        if let index = copy.keywords.firstIndex(where: { $0.0 == keyword }) {
            copy.keywords[index].1 = value
        } else {
            copy.keywords.append((keyword, value))
        }
        return copy
    }

    /// This schema with `description` (first, as schemas print it).
    func described(_ description: String) -> KeySpec {
        var copy = self
        copy.keywords.removeAll { $0.0 == "description" }
        copy.keywords.insert(("description", .json(.string(description))), at: 0)
        return copy
    }

    /// This object with `members` added after its properties.
    func adding(_ members: [(String, KeySpec)]) -> KeySpec { with("properties", named: properties + members) }

    package static func string(_ description: String? = nil, enum values: [String]? = nil, pattern: String? = nil, minLength: Int? = nil,
                              format: String? = nil) -> KeySpec {
        var spec = KeySpec(description).with("type", "string")
        if let values { spec = spec.with("enum", .array(values.map { .string($0) })) }
        if let pattern { spec = spec.with("pattern", .string(pattern)) }
        if let minLength { spec = spec.with("minLength", .number(minLength)) }
        if let format { spec = spec.with("format", .string(format)) }
        return spec
    }

    package static func integer(_ description: String? = nil, _ range: ClosedRange<Int>? = nil) -> KeySpec {
        var spec = KeySpec(description).with("type", "integer")
        if let range { spec = spec.with("minimum", .number(range.lowerBound)).with("maximum", .number(range.upperBound)) }
        return spec
    }

    package static func integer(_ range: ClosedRange<Int>) -> KeySpec { integer(nil, range) }

    package static func number(_ description: String? = nil) -> KeySpec { KeySpec(description).with("type", "number") }

    package static func boolean(_ description: String? = nil) -> KeySpec { KeySpec(description).with("type", "boolean") }

    /// An object of these properties, in this order; any other key is refused unless `closed` is false.
    package static func object(_ description: String? = nil, _ properties: [(String, KeySpec)], required: [String] = [],
                              closed: Bool = true) -> KeySpec {
        var spec = KeySpec(description).with("type", "object").with("properties", named: properties)
        if !required.isEmpty { spec = spec.with("required", .array(required.map { .string($0) })) }
        if closed { spec = spec.with("additionalProperties", false) }
        return spec
    }

    package static func object(_ properties: [(String, KeySpec)], required: [String] = [], closed: Bool = true) -> KeySpec {
        object(nil, properties, required: required, closed: closed)
    }

    package static func array(_ description: String? = nil, of items: KeySpec) -> KeySpec {
        KeySpec(description).with("type", "array").with("items", items)
    }

    /// A value as the definition `name` declares it (`#/$defs/name`).
    package static func ref(_ name: String, _ description: String? = nil) -> KeySpec { KeySpec(description).with("$ref", .string("#/$defs/\(name)")) }

    /// One or more of `choices`; none (no API gives one) takes nothing, as `"not": {}` (JSON Schema
    /// refuses an empty `anyOf` or `oneOf`).
    static func anyOf(_ description: String? = nil, _ choices: [KeySpec]) -> KeySpec {
        choices.isEmpty ? KeySpec(description).with("not", KeySpec()) : KeySpec(description).with("anyOf", choices)
    }
    /// Exactly one of `choices`; none takes nothing, as `anyOf`.
    package static func oneOf(_ description: String? = nil, _ choices: [KeySpec]) -> KeySpec {
        choices.isEmpty ? KeySpec(description).with("not", KeySpec()) : KeySpec(description).with("oneOf", choices)
    }
    static func anyOf(_ choices: [KeySpec]) -> KeySpec { anyOf(nil, choices) }
    static func oneOf(_ choices: [KeySpec]) -> KeySpec { oneOf(nil, choices) }

    /// Exactly `value`.
    static func const(_ value: JSON, _ description: String? = nil) -> KeySpec { KeySpec(description).with("const", value) }

    /// One of `values`.
    static func oneOf(values: [JSON], _ description: String? = nil) -> KeySpec { KeySpec(description).with("enum", .array(values)) }

    /// An object that has `key` (for `oneOf`, `anyOf`, `dependentSchemas`...).
    package static func requiring(_ keys: String...) -> KeySpec { KeySpec().with("required", .array(keys.map { .string($0) })) }

    // MARK: - Printing

    /// As JSON (members unordered): for embedding the schema in another document, such as the
    /// OpenAPI document's components.
    package var json: JSON {
        refusesAll ? .bool(false) : .object(Dictionary(keywords.map { ($0.0, Self.json($0.1)) }, uniquingKeysWith: { $1 }))
    }

    static func json(_ value: Value) -> JSON {
        switch value {
        case .json(let json): json
        case .spec(let spec): spec.json
        case .specs(let specs): .array(specs.map(\.json))
        case .named(let members): .object(Dictionary(members.map { ($0.0, $0.1.json) }, uniquingKeysWith: { $1 }))
        }
    }


    /// As JSON Schema text: two-space indentation, keywords and properties in their declared order.
    package var schemaText: String {
        var out = ""
        Self.write(.object(self), indent: 0, into: &out)
        return out
    }

    /// A value being printed: in order, unlike `JSON`'s objects.
    indirect enum Printed {
        case object(KeySpec)
        case members([(String, Printed)])
        case list([Printed])
        case json(JSON)
    }

    static func printed(_ value: Value) -> Printed {
        switch value {
        case .json(let json): .json(json)
        case .spec(let spec): .object(spec)
        case .specs(let specs): .list(specs.map { .object($0) })
        case .named(let members): .members(members.map { ($0.0, .object($0.1)) })
        }
    }

    static func write(_ value: Printed, indent: Int, into out: inout String) {
        let pad = String(repeating: "  ", count: indent + 1)
        let close = String(repeating: "  ", count: indent)
        switch value {
        case .object(let spec) where spec.refusesAll:
            out += "false"
        case .object(let spec):
            write(.members(spec.keywords.map { ($0.0, printed($0.1)) }), indent: indent, into: &out)
        case .members(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (index, (key, member)) in members.enumerated() {
                out += pad + JSON.string(key).serializedString() + ": "
                write(member, indent: indent + 1, into: &out)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += close + "}"
        case .list(let elements):
            guard !elements.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (index, element) in elements.enumerated() {
                out += pad
                write(element, indent: indent + 1, into: &out)
                out += index == elements.count - 1 ? "\n" : ",\n"
            }
            out += close + "]"
        case .json(.array(let elements)):
            write(.list(elements.map { .json($0) }), indent: indent, into: &out)
        case .json(.object(let members)):
            write(.members(members.keys.sorted().map { ($0, .json(members[$0]!)) }), indent: indent, into: &out)
        case .json(let json):
            out += json.serializedString()
        }
    }
}
