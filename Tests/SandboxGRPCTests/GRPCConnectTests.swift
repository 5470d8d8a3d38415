import Testing
@testable import SandboxWire
@testable import SandboxSupport

/// A Connect unary call (https://connectrpc.com/docs/protocol/#unary-request), over HTTP/1.1.
private func connect(_ path: String, _ body: String, contentType: String = "application/json",
                     headers: HTTPHeaders = [:]) -> HTTPResponse {
    var all: HTTPHeaders = ["content-type": contentType]
    for (name, value) in headers { all.add(name, value) }
    let request = HTTPRequest(method: "POST", target: path, version: .http1_1, headers: all, body: Array(body.utf8))
    return TestProtos.router(TestProtos.server()).respond(to: request).resolved
}

@Suite struct GRPCConnectTests {
    @Test func aUnaryCallInJSONIsAnsweredInJSON() throws {
        let response = connect("/test.Payouts/Get", #"{"id": "p-1", "amount": {"minorAmount": "1000", "currency": "USD"}}"#,
                               headers: ["x-user": "ana", "x-trace-bin": "AQI"])
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.bodyText == #"{"id":"p-1","status":"SUCCESS"}"#)
        #expect(response.headers["x-user-seen"] == "ana")
        #expect(response.headers["trailer-x-trace-bin"] == "AQI", "trailer metadata as trailer- headers, -bin in base64")
        #expect(grpcStatus(response).code == nil, "no gRPC trailers on a Connect answer")
    }

    @Test func proto3FieldNamesEnumsByNumberAndAnEmptyBodyAreAccepted() {
        #expect(connect("/test.Payouts/Get", #"{"id": "p-2", "delay_ms": 0}"#).bodyText == #"{"id":"p-2","status":"SUCCESS"}"#)
        #expect(connect("/test.Payouts/Get", "").bodyText == #"{"status":"SUCCESS"}"#)
    }

    @Test(arguments: ["application/json", "Application/JSON; charset=utf-8", " application/json ;charset=utf-8", "application/json\t"])
    func theMediaTypeIsReadWithoutCaseParametersOrBlanks(contentType: String) {
        #expect(connect("/test.Payouts/Get", #"{"id": "p-4"}"#, contentType: contentType).bodyText == #"{"id":"p-4","status":"SUCCESS"}"#)
    }

    @Test(arguments: ["application/jsonx", "application/json+x", "text/json", "application/ json", ""])
    func anotherMediaTypeIsNotConnect(contentType: String) {
        #expect(connect("/test.Payouts/Get", #"{"id": "p-4"}"#, contentType: contentType).status == 415)
    }

    @Test func aBinaryCallInApplicationProto() throws {
        let response = connect("/test.Payouts/Get", String(decoding: TestProtos.getRequest("p-3"), as: UTF8.self),
                               contentType: "application/proto")
        #expect(response.status == 200 && response.headers["content-type"] == "application/proto")
        let decoded = try TestProtos.server().registry.decode("test.GetResponse", from: response.body)
        #expect(decoded.string("id") == "p-3" && decoded.enumName("status") == "SUCCESS")
    }

    @Test func errorsAreConnectCodesWithTheirHTTPStatus() {
        let cases: [(String, String, Int, String)] = [
            ("/test.Payouts/Get", #"{"id": "missing"}"#, 404, #"{"code":"not_found","message":"no payout \"missing\" 100% ✓"}"#),
            ("/test.Payouts/Get", #"{"id": "boom"}"#, 500, #"{"code":"unknown","message":"the handler broke"}"#),
            ("/test.Payouts/Get", #"{"nope": 1}"#, 400,
             #"{"code":"invalid_argument","message":"could not decode request message: nope: unknown field"}"#),
            ("/test.Payouts/Unhandled", "{}", 501,
             #"{"code":"unimplemented","message":"/test.Payouts/Unhandled is not served as a Connect unary call"}"#),
            ("/test.Payouts/Wrong", #"{"id": "x"}"#, 500,
             #"{"code":"internal","message":"the handler answered a test.GetRequest, the method returns test.GetResponse"}"#),
        ]
        for (path, body, status, expected) in cases {
            let response = connect(path, body)
            #expect(response.status == status, "\(path) \(body)")
            #expect(response.bodyText == expected, "\(path) \(body)")
            #expect(response.headers["content-type"] == "application/json")
        }
    }

    @Test func aSlowAnswerIsAnsweredWhenReady() {
        #expect(connect("/test.Payouts/Slow", #"{"id": "later", "delayMs": 20}"#).bodyText == #"{"id":"later"}"#)
    }

    @Test func everyCodeHasConnectsNameAndStatus() {
        let expected: [GRPCStatus.Code: (String, Int)] = [
            .cancelled: ("canceled", 499), .unknown: ("unknown", 500), .invalidArgument: ("invalid_argument", 400),
            .deadlineExceeded: ("deadline_exceeded", 504), .notFound: ("not_found", 404), .alreadyExists: ("already_exists", 409),
            .permissionDenied: ("permission_denied", 403), .resourceExhausted: ("resource_exhausted", 429),
            .failedPrecondition: ("failed_precondition", 400), .aborted: ("aborted", 409), .outOfRange: ("out_of_range", 400),
            .unimplemented: ("unimplemented", 501), .internal: ("internal", 500), .unavailable: ("unavailable", 503),
            .dataLoss: ("data_loss", 500), .unauthenticated: ("unauthenticated", 401),
        ]
        for (code, (name, status)) in expected {
            #expect(code.connectName == name && code.connectHTTPStatus == status, "\(code)")
        }
    }

    @Test func connectCallsAreCountedByMethodAndCode() {
        let server = TestProtos.server()
        let router = TestProtos.router(server)
        for id in ["a", "missing"] {
            _ = router.respond(to: HTTPRequest(method: "POST", target: "/test.Payouts/Get", headers: ["content-type": "application/json"],
                                               body: Array(#"{"id":"\#(id)"}"#.utf8))).resolved
        }
        #expect(server.metrics.count(method: "/test.Payouts/Get", code: .ok) == 1)
        #expect(server.metrics.count(method: "/test.Payouts/Get", code: .notFound) == 1)
    }
}
