import Foundation
import Testing
@testable import SandboxWire

@Suite struct GRPCReflectionTests {
    let server = TestProtos.server()
    let descriptors = ProtoRegistry([ProtoFile.descriptorSubset])

    private func request(_ field: String, _ value: ProtoValue, package: String = "grpc.reflection.v1") -> [UInt8] {
        var request = server.registry.message("\(package).ServerReflectionRequest")
        request["host"] = "localhost"
        request[field] = value
        return request.encoded()
    }

    /// Sends `requests` on one stream, split at `split` bytes, and returns the responses.
    private func exchange(_ requests: [[UInt8]], package: String = "grpc.reflection.v1", chunk: Int = .max) throws
        -> (responses: [ProtoMessage], trailers: HTTPHeaders?) {
        let handler = try #require(server.streamOpener(grpcRequest("/\(package).ServerReflection/ServerReflectionInfo", messages: [])))
        let collector = StreamCollector()
        let bytes = requests.flatMap(GRPCDeframer.frame)
        var start = 0
        while start < bytes.count {
            handler.receive(Array(bytes[start ..< min(bytes.count, start + chunk)]), writer: collector.writer)
            start += chunk
        }
        handler.end(writer: collector.writer)
        let responses = try collector.messages.map { try server.registry.decode("\(package).ServerReflectionResponse", from: $0) }
        return (responses, collector.trailers)
    }

    private func fileNames(_ response: ProtoMessage) throws -> [String] {
        try response.message("file_descriptor_response")?.list("file_descriptor_proto").map { value in
            guard case .bytes(let bytes) = value else { return "" }
            return try descriptors.decode("google.protobuf.FileDescriptorProto", from: bytes).string("name")
        } ?? []
    }

    @Test func listsEveryService() throws {
        let (responses, trailers) = try exchange([request("list_services", "")])
        #expect(trailers?["grpc-status"] == "0")
        let names = responses.first?.message("list_services_response")?.messages("service").map { $0.string("name") }
        #expect(names == ["test.Payouts", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"])
        #expect(responses.first?.string("valid_host") == "localhost")
        #expect(responses.first?.message("original_request")?.oneofCase("message_request") == "list_services")
    }

    @Test func answersEachRequestAsItArrivesOnOneStream() throws {
        let requests = [request("list_services", ""), request("file_containing_symbol", "test.Payouts.Get"),
                        request("file_by_filename", "test/common.proto"), request("file_by_filename", "nope.proto")]
        for chunk in [1, 7, Int.max] {
            let (responses, trailers) = try exchange(requests, chunk: chunk)
            #expect(responses.count == 4)
            #expect(trailers?["grpc-status"] == "0")
            // The file comes with its import; the import, asked for later, is sent again (asked for).
            #expect(try fileNames(responses[1]) == ["test/payouts.proto", "test/common.proto"])
            #expect(try fileNames(responses[2]) == ["test/common.proto"])
            let error = responses[3].message("error_response")
            #expect(error?.int("error_code") == 5 && error?.string("error_message") == "file not found: nope.proto")
        }
    }

    @Test func findsFilesBySymbol() throws {
        let symbols = ["test.Payouts", "test.Payouts.Get", "test.GetRequest", "test.GetRequest.amount", "test.Status", "test.SUCCESS",
                       "test.common.Money", "grpc.health.v1.HealthCheckResponse.ServingStatus", "grpc.health.v1.Health"]
        let (responses, _) = try exchange(symbols.map { request("file_containing_symbol", .string($0)) })
        let first = try responses.map { try fileNames($0).first }
        #expect(first == ["test/payouts.proto", "test/payouts.proto", "test/payouts.proto", "test/payouts.proto", "test/payouts.proto",
                          "test/payouts.proto", "test/common.proto", "grpc/health/v1/health.proto", "grpc/health/v1/health.proto"])
        let (missing, _) = try exchange([request("file_containing_symbol", "test.Nope")])
        #expect(missing.first?.message("error_response")?.string("error_message") == "symbol not found: test.Nope")
    }

    @Test func servedDescriptorsDecodeToTheDeclaredNames() throws {
        let (responses, _) = try exchange([request("file_by_filename", "grpc/health/v1/health.proto")])
        guard case .bytes(let bytes)? = responses.first?.message("file_descriptor_response")?.list("file_descriptor_proto").first else {
            Issue.record("no descriptor")
            return
        }
        let file = try descriptors.decode("google.protobuf.FileDescriptorProto", from: bytes)
        #expect(file.string("package") == "grpc.health.v1" && file.string("syntax") == "proto3")
        #expect(file.messages("message_type").map { $0.string("name") } == ["HealthCheckRequest", "HealthCheckResponse"])
        let nested = file.messages("message_type")[1].messages("enum_type").first
        #expect(nested?.string("name") == "ServingStatus" && nested?.messages("value").count == 4)
        let methods = file.messages("service").first?.messages("method") ?? []
        #expect(methods.map { $0.string("name") } == ["Check", "Watch"])
        #expect(methods[1].bool("server_streaming") && !methods[1].bool("client_streaming"))
        #expect(methods[0].string("output_type") == ".grpc.health.v1.HealthCheckResponse")
    }

    @Test func extensionQueriesAndEmptyRequests() throws {
        var extensionRequest = server.registry.message("grpc.reflection.v1.ExtensionRequest")
        extensionRequest["containing_type"] = "test.GetRequest"
        extensionRequest["extension_number"] = 100
        let (responses, _) = try exchange([request("file_containing_extension", .message(extensionRequest)),
                                          request("all_extension_numbers_of_type", "test.GetRequest"),
                                          request("all_extension_numbers_of_type", "test.Nope"),
                                          server.registry.message("grpc.reflection.v1.ServerReflectionRequest").encoded()])
        #expect(responses[0].message("error_response")?.int("error_code") == 5)
        #expect(responses[1].message("all_extension_numbers_response")?.string("base_type_name") == "test.GetRequest")
        #expect(responses[1].message("all_extension_numbers_response")?.list("extension_number") == [])
        #expect(responses[2].message("error_response")?.string("error_message") == "type not found: test.Nope")
        #expect(responses[3].message("error_response")?.int("error_code") == 3)
    }

    @Test func v1alphaToo() throws {
        let (responses,
             trailers) = try exchange([request("list_services", "", package: "grpc.reflection.v1alpha")], package: "grpc.reflection.v1alpha")
        #expect(responses.first?.message("list_services_response")?.messages("service").count == 4)
        #expect(trailers?["grpc-status"] == "0")
    }

    @Test func aBrokenRequestStreamEndsTheCall() throws {
        let (_, trailers) = try exchange([[0x3A, 0x09]])  // list_services with a length past the end
        #expect(trailers?["grpc-status"] == "13")
        #expect(trailers?["grpc-message"].map(GRPCStatus.percentDecoded)?.hasPrefix("could not decode request message") == true)
    }

    @Test func readFromAWholeBodyThroughTheRouter() throws {
        let router = TestProtos.router(server)
        let response = router.respond(to: grpcRequest("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                                                      messages: [request("list_services", ""),
                                                                 request("file_by_filename", "test/common.proto")])).resolved
        var deframer = GRPCDeframer()
        #expect(try deframer.append(response.body).count == 2)
        #expect(response.trailers?["grpc-status"] == "0")
        #expect(server.metrics.count(method: "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", code: .ok) == 1)
    }

    @Test func protoSourcesKeptBesideTheSchemas() throws {
        // The .proto files CI compiles with protoc: same package and message names as the schemas.
        let root = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        for file in [GRPCHealth.file] + GRPCReflection.files {
            let path = "/\(root)/Sources/SandboxWire/GRPC/Protos/\(file.name)"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("package \(file.package);"))
            for message in file.messages { #expect(text.contains("message \(message.name) {")) }
            for service in file.services { #expect(text.contains("service \(service.name) {")) }
        }
    }
}

@Suite struct GRPCDescriptorTests {
    /// protoc's FileDescriptorProto for grpc/health/v1/health.proto (as grpcio-tools embeds it),
    /// without the file options the sandbox's copy leaves out.
    @Test func healthDescriptorIsByteForByteProtocs() {
        func text(_ string: String) -> [UInt8] { Array(string.utf8) }
        var expected = text("\n\u{1B}grpc/health/v1/health.proto\u{12}\u{0E}grpc.health.v1\".\n\u{12}HealthCheckRequest\u{12}\u{18}\n")
        expected += text("\u{07}service\u{18}\u{01} \u{01}(\tR\u{07}service\"") + [0xB1, 0x01]
        expected += text("\n\u{13}HealthCheckResponse\u{12}I\n\u{06}status\u{18}\u{01} "
                         + "\u{01}(\u{0E}21.grpc.health.v1.HealthCheckResponse.ServingStatusR\u{06}status\"O\n")
        expected += text("\rServingStatus\u{12}\u{0B}\n\u{07}UNKNOWN\u{10}\u{00}\u{12}\u{0B}\n\u{07}SERVING\u{10}\u{01}"
                         + "\u{12}\u{0F}\n\u{0B}NOT_SERVING\u{10}\u{02}")
        expected += text("\u{12}\u{13}\n\u{0F}SERVICE_UNKNOWN\u{10}\u{03}2") + [0xAE, 0x01]
        expected += text("\n\u{06}Health\u{12}P\n\u{05}Check\u{12}\".grpc.health.v1.HealthCheckRequest\u{1A}#.grpc.health.v1.HealthCheckResponse")
        expected += text("\u{12}R\n\u{05}Watch\u{12}\".grpc.health.v1.HealthCheckRequest\u{1A}#.grpc.health.v1.HealthCheckResponse0\u{01}")
        expected += text("b\u{06}proto3")
        #expect(GRPCHealth.file.descriptorBytes == expected)
    }
}
