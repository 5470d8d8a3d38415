import SandboxJSON
import SandboxProtobuf
import Testing

/// `ProtoRegistry.jsonSchemas`: the JSON Schemas of proto3 JSON, made from the declarations.
@Suite struct JSONSchemaTests {
    private let schemas = Sample.registry.jsonSchemas(reachableFrom: ["sample.Everything"], refPrefix: "#/s/")

    @Test func describesTheMessageAndEverythingItReachesByFullName() {
        #expect(Set(schemas.keys) == ["sample.Everything", "sample.Everything.Inner", "sample.Status", "sample.Everything.Level"])
        let properties = schemas["sample.Everything"]?["properties"]?.objectValue ?? [:]
        #expect(Set(properties.keys) == Set(Sample.everything.fields.map(\.jsonName)))
        #expect(schemas["sample.Status"]?["enum"] == ["STATUS_UNSPECIFIED", "PENDING", "SUCCESS", "NEGATIVE"])
    }

    @Test func mapsEachTypeAsProto3JSONWritesIt() {
        func property(_ name: String) -> JSON? { schemas["sample.Everything"]?["properties"]?[name] }
        #expect(property("anInt64")?["type"] == "string" && property("anInt64")?["pattern"] == "^-?[0-9]+$")
        #expect(property("aUint64")?["pattern"] == "^[0-9]+$")
        #expect(property("anInt64")?["description"] == "`an_int64` = 3; int64, written as a decimal string")
        #expect(property("anInt32")?["type"] == "integer" && property("anInt32")?["minimum"] == -2_147_483_648)
        #expect(property("aUint32")?["minimum"] == 0 && property("aUint32")?["maximum"] == 4_294_967_295)
        #expect(property("aBool")?["type"] == "boolean")
        #expect(property("someBytes")?["contentEncoding"] == "base64")
        #expect(property("aDouble")?["anyOf"] == [["type": "number"], ["enum": ["NaN", "Infinity", "-Infinity"]]])
        #expect(property("status")?["$ref"] == "#/s/sample.Status")
        #expect(property("inner")?["$ref"] == "#/s/sample.Everything.Inner")
        #expect(property("levels")?["type"] == "array" && property("levels")?["items"] == ["$ref": "#/s/sample.Everything.Level"])
        #expect(property("nickname")?["description"] == "`nickname` = 18, optional")
        #expect(property("card")?["description"] == "`card` = 20, oneof `method`")
    }

    @Test func documentsOneofsAndBoundsAMessageThatIsOneOneofAlone() {
        #expect(schemas["sample.Everything"]?["description"] == "`sample.Everything`. oneof `method`: at most one of `card`, `iban`.")
        #expect(schemas["sample.Everything"]?["maxProperties"] == nil)  // it has other fields
        let method = MessageSchema("sample.Method", [FieldSchema(1, "card", .string, oneof: "kind"), FieldSchema(2, "iban", .string, oneof: "kind")])
        let registry = ProtoRegistry([ProtoFile(name: "m.proto", package: "sample", messages: [method])])
        #expect(registry.jsonSchemas(reachableFrom: ["sample.Method"], refPrefix: "#/")["sample.Method"]?["maxProperties"] == 1)
    }

    /// What the writer writes fits the schema: every member a property, of the type it says.
    @Test func aWrittenMessageFitsItsSchema() throws {
        var message = Sample.full
        message["levels"] = ["HIGH", "LOW"]  // an unknown number stays a number, which the schema does not describe
        message["child"] = .message(message)
        try fits(message.json(), "sample.Everything")
    }

    private func fits(_ value: JSON, _ name: String) throws {
        let schema = try #require(schemas[name])
        if let names = schema["enum"]?.arrayValue {
            #expect(names.contains(value), "\(value) is not a value of \(name)")
            return
        }
        for (member, element) in value.objectValue ?? [:] {
            let property = try #require(schema["properties"]?[member], "\(name) has no property \(member)")
            try fits(element, property: property)
        }
    }

    private func fits(_ value: JSON, property: JSON) throws {
        if let reference = property["$ref"]?.stringValue { return try fits(value, String(reference.dropFirst("#/s/".count))) }
        if property["anyOf"] != nil {
            #expect(value.numberText != nil || value.stringValue != nil)
            return
        }
        switch (property["type"]?.stringValue, value) {
        case ("array", .array(let elements)): for element in elements { try fits(element, property: try #require(property["items"])) }
        case ("string", .string), ("boolean", .bool), ("integer", .number): break
        default: Issue.record("\(value) is not of \(property)")
        }
    }
}
