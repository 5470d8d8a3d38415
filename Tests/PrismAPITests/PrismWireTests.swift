import Testing
@testable import SandboxSupport
@testable import SandboxPrism
@testable import SandboxWire

// What Prism's own clients see: the descriptors protoc makes of Protos/, and a Create request's
// bytes as protobuf's Python runtime encodes them (both in Fixtures/, from Fixtures/regenerate.py).

@Suite struct PrismDescriptorTests {
    /// Fixtures/prism.pb is protoc's FileDescriptorSet of the four .proto files (regenerate with
    /// `python3 Tests/PrismAPITests/Fixtures/regenerate.py`); each FileDescriptorProto in it must
    /// equal the schema's `descriptorBytes`, which is what reflection serves.
    @Test func descriptorsAreByteForByteProtocs() throws {
        var reader = ProtobufReader(try PrismFixtures.bytes("prism.pb"))
        var protocs: [String: [UInt8]] = [:]
        let descriptors = ProtoRegistry([ProtoFile.descriptorSubset])
        while let (number, wireType) = try reader.nextTag() {
            guard number == 1, wireType == .lengthDelimited else {
                try reader.skip(wireType, field: number)
                continue
            }
            let bytes = Array(try reader.readLengthDelimited())  // FileDescriptorSet.file
            protocs[try descriptors.decode("google.protobuf.FileDescriptorProto", from: bytes).string("name")] = bytes
        }
        #expect(Set(protocs.keys) == Set(PrismProtos.files.map(\.name)))
        for file in PrismProtos.files {
            let expected = try #require(protocs[file.name], "protoc made no \(file.name)")
            let ours = file.descriptorBytes
            let firstDifference = zip(ours, expected).enumerated().first { $1.0 != $1.1 }?.offset ?? min(ours.count, expected.count)
            let identical = ours == expected
            #expect(identical, "\(file.name): \(ours.count) bytes, protoc's \(expected.count), first difference at byte \(firstDifference)")
            guard !identical else { continue }
            // Name what differs, declaration by declaration, rather than dump the bytes.
            let mine = try descriptors.decode("google.protobuf.FileDescriptorProto", from: ours)
            let theirs = try descriptors.decode("google.protobuf.FileDescriptorProto", from: expected)
            #expect(mine.strings("dependency") == theirs.strings("dependency"))
            for part in ["message_type", "enum_type", "service"] {
                #expect(mine.messages(part).map { $0.string("name") } == theirs.messages(part).map { $0.string("name") }, "\(part) in \(file.name)")
                for (a, b) in zip(mine.messages(part), theirs.messages(part)) where a != b {
                    Issue.record("\(file.name): \(a.string("name")) is \(a.json().serializedString()), protoc's \(b.json().serializedString())")
                }
            }
        }
    }
}

@Suite struct PrismRoundTripTests {
    let registry = ProtoRegistry(PrismProtos.files)

    /// A populated Create request: JSON -> message -> bytes -> message -> JSON, and the bytes are
    /// the ones protobuf's Python runtime writes for the same JSON.
    @Test func createRequestRoundTrips() throws {
        let text = try PrismFixtures.bytes("create-request.json")
        let json = try JSON.parse(text)
        let request = try registry.decode("types.PayoutServiceCreateRequest", json: json)
        #expect(request.string("merchant_payout_id") == "po_sandbox_0001")
        #expect(request.message("amount")?.int("minor_amount") == 125_050)
        #expect(request.message("amount")?.enumName("currency") == "EUR")
        #expect(request.enumNumber("destination_currency") == 45)
        let method = try #require(request.message("payout_method_data"))
        #expect(method.oneofCase("payout_method_data") == "sepa")
        #expect(method.message("sepa")?.enumName("bank_name") == "Ing")
        #expect(method.message("sepa")?.message("iban")?.string("value") == "DE89370400440532013000")
        #expect(request.message("address")?.message("billing_address")?.message("line1")?.string("value") == "Friedrichstraße 43")
        #expect(request.has("priority") && request.enumNumber("priority") == 0)  // optional: a zero value is kept
        #expect(request.message("browser_info")?.has("java_enabled") == true)
        #expect(request.message("browser_info")?.int("time_zone_offset_minutes") == -120)
        #expect(request.has("access_token") && !request.has("connector_quote_id"))

        let bytes = request.encoded()
        #expect(bytes == (try PrismFixtures.bytes("create-request.bin")))
        let decoded = try registry.decode("types.PayoutServiceCreateRequest", from: bytes)
        #expect(decoded == request)
        #expect(decoded.unknownFields.isEmpty)
        #expect(decoded.json() == json)
        #expect(try registry.decode("types.PayoutServiceCreateRequest", jsonText: decoded.json().serialized()) == request)
    }

    @Test func aResponseWritesItsStatusByName() throws {
        var response = registry.message("types.PayoutServiceGetResponse")
        response["merchant_payout_id"] = "po_1"
        response["payout_status"] = "REQUIRES_FULFILLMENT"
        response["status_code"] = 200
        var error = registry.message("types.ErrorInfo")
        var details = registry.message("types.ConnectorErrorDetails")
        details["code"] = "R01"
        error["connector_details"] = .message(details)
        response["error"] = .message(error)
        let decoded = try registry.decode("types.PayoutServiceGetResponse", from: response.encoded())
        #expect(decoded.json() == ["merchantPayoutId": "po_1", "payoutStatus": "REQUIRES_FULFILLMENT", "error": ["connectorDetails": ["code": "R01"]],
                                   "statusCode": 200])
        #expect(decoded.enumNumber("payout_status") == 12)
    }
}
