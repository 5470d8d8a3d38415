@testable import SandboxSupport
@testable import SandboxWire
import Testing

/// `ProtoRegistry.jsonSchemas`: the JSON Schemas of proto3 JSON as the reader takes it, made from the declarations.
@Suite struct JSONSchemaTests {
    private let schemas = Sample.registry.jsonSchemas(reachableFrom: ["sample.Everything"], refPrefix: "#/s/")

    /// A property's schema when given (not null).
    private func given(_ name: String, in message: String = "sample.Everything") -> JSON? {
        schemas[message]?["properties"]?[name]?["anyOf"]?[0]
    }

    @Test func describesTheMessageAndEverythingItReachesByFullName() {
        #expect(Set(schemas.keys) == ["sample.Everything", "sample.Everything.Inner", "sample.Status", "sample.Everything.Level"])
        let properties = schemas["sample.Everything"]?["properties"]?.objectValue ?? [:]
        #expect(Set(properties.keys) == Set(Sample.everything.fields.flatMap { [$0.jsonName, $0.name] }))
        #expect(schemas["sample.Status"]?["anyOf"]?[0]?["enum"] == ["STATUS_UNSPECIFIED", "PENDING", "SUCCESS", "NEGATIVE"])
        #expect(schemas["sample.Status"]?["anyOf"]?[1] == ["type": "integer", "minimum": -2_147_483_648, "maximum": 2_147_483_647])
    }

    @Test func mapsEachTypeAsProto3JSONReadsIt() {
        let int64 = given("anInt64")
        #expect(int64?["anyOf"]?[0]?["type"] == "integer" && int64?["anyOf"]?[0]?["maximum"] == 9_223_372_036_854_775_807)
        #expect(int64?["anyOf"]?[1] == ["type": "string", "pattern": "^-?[0-9]{1,18}$"])
        #expect(given("aUint64")?["anyOf"]?[1]?["pattern"] == "^[0-9]{1,19}$")
        #expect(schemas["sample.Everything"]?["properties"]?["anInt64"]?["description"] == "`an_int64` = 3; int64, written as a decimal string")
        #expect(given("anInt32")?["anyOf"]?[0]?["minimum"] == -2_147_483_648)
        #expect(given("aUint32")?["anyOf"]?[0]?["minimum"] == 0 && given("aUint32")?["anyOf"]?[0]?["maximum"] == 4_294_967_295)
        #expect(given("aBool")?["type"] == "boolean")
        #expect(given("someBytes")?["contentEncoding"] == "base64")
        #expect(given("aDouble")?["anyOf"] == [["type": "number"], ["enum": ["NaN", "Infinity", "-Infinity"]]])
        #expect(given("status")?["$ref"] == "#/s/sample.Status")
        #expect(given("inner")?["$ref"] == "#/s/sample.Everything.Inner")
        #expect(given("levels")?["type"] == "array" && given("levels")?["items"] == ["$ref": "#/s/sample.Everything.Level"])
        #expect(schemas["sample.Everything"]?["properties"]?["nickname"]?["description"] == "`nickname` = 18, optional")
        #expect(schemas["sample.Everything"]?["properties"]?["card"]?["description"] == "`card` = 20, oneof `method`")
    }

    /// Any field may be null (not set), and named as the .proto does instead of its JSON name, not both.
    @Test func takesNullAndTheProtoNamesOnce() {
        let everything = schemas["sample.Everything"]
        #expect(everything?["properties"]?["an_int64"] == everything?["properties"]?["anInt64"])
        #expect(everything?["properties"]?["anInt64"]?["anyOf"]?[1] == ["type": "null"])
        #expect(everything?["properties"]?["status"] != nil && everything?["properties"]?["Status"] == nil)  // one name
    }

    @Test func documentsOneofsAndTheNames() {
        #expect(schemas["sample.Everything"]?["description"] == """
            `sample.Everything`. oneof `method`: at most one of `card`, `iban` not null. \
            A field is named by its JSON name or its .proto name, not both.
            """)
    }

    /// What a method's handler refuses as missing: given by either name, not null, not its zero value.
    @Test func aRequiredFieldIsGivenNotNullNorItsZeroValue() throws {
        let required = try #require(Sample.registry.required("an_int64", in: Sample.everything))
        let positive: JSON = ["anyOf": [["type": "integer", "minimum": 1], ["type": "string", "pattern": "^0*[1-9][0-9]*$"]],
                              "not": ["type": "null"]]
        #expect(required == ["anyOf": [["required": ["anInt64"], "properties": ["anInt64": positive]],
                                       ["required": ["an_int64"], "properties": ["an_int64": positive]]]])
        let status = Sample.registry.required("status", in: Sample.everything)
        #expect(status?["anyOf"]?[0]?["properties"]?["status"]?["not"] == ["enum": [.null, 0, "STATUS_UNSPECIFIED"]])
        #expect(Sample.registry.required("a_string", in: Sample.everything)?["anyOf"]?[0]?["properties"]?["aString"]?["minLength"] == 1)
        #expect(Sample.registry.required("no_such_field", in: Sample.everything) == nil)
    }

    /// What the writer writes fits the schema: every member a property, of the type it says.
    @Test func aWrittenMessageFitsItsSchema() throws {
        var message = Sample.full
        message["levels"] = ["HIGH", "LOW"]
        message["child"] = .message(message)
        try fits(message.json(), "sample.Everything")
    }

    private func fits(_ value: JSON, _ name: String) throws {
        let schema = try #require(schemas[name])
        if let names = schema["anyOf"]?[0]?["enum"]?.arrayValue {
            #expect(names.contains(value) || value.integerValue != nil, "\(value) is not a value of \(name)")
            return
        }
        for (member, element) in value.objectValue ?? [:] {
            let property = try #require(schema["properties"]?[member]?["anyOf"]?[0], "\(name) has no property \(member)")
            try fits(element, property: property)
        }
    }

    private func fits(_ value: JSON, property: JSON) throws {
        if let reference = property["$ref"]?.stringValue { return try fits(value, String(reference.dropFirst("#/s/".count))) }
        if let choices = property["anyOf"]?.arrayValue {
            #expect(choices.contains { choice in
                switch (choice["type"]?.stringValue, value) {
                case ("integer", .number), ("number", .number), ("string", .string): true
                case (nil, .string(let text)): choice["enum"]?.arrayValue?.contains(.string(text)) == true
                default: false
                }
            }, "\(value) is none of \(choices)")
            return
        }
        switch (property["type"]?.stringValue, value) {
        case ("array", .array(let elements)): for element in elements { try fits(element, property: try #require(property["items"])) }
        case ("string", .string), ("boolean", .bool), ("integer", .number): break
        default: Issue.record("\(value) is not of \(property)")
        }
    }
}
