@testable import CashoutSandbox
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing
import Foundation

/// What the dashboard shows of PayoutService payouts, read where the page reads it, over a real
/// socket: the admin API's records in PayoutService's words (`api_status`, the same as the API's
/// own answers at every stage), its forced outcomes as PayoutService reports them, its merchants
/// (`GET /sandbox/prism-merchants`), and the page's PayoutService part, whose Details card reads
/// the fields a payout records.
@Suite struct PrismDashboardTests {
    /// A call as the dashboard's form makes it: Connect JSON over HTTP/1.1 with the default
    /// merchant's metadata.
    private static func connect(_ sandbox: Sandbox, _ method: String, _ body: String) throws -> (response: HTTPResponse, json: JSON) {
        let headers: HTTPHeaders = ["Content-Type": "application/json", "x-connector": "sandbox", "x-auth": "header-key",
                                    "x-api-key": DefaultMerchant.apiKey, "x-merchant-id": DefaultMerchant.id]
        let response = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/types.PayoutService/\(method)", headers: headers,
                                         body: Array(body.utf8))
        try #require(response.status == 200, "\(method): \(response.status) \(response.bodyText)")
        return (response, try JSON.parse(response.body))
    }

    private static func admin(_ sandbox: Sandbox, _ path: String, method: String = "GET", body: String = "") throws -> JSON {
        let response = try TestHTTP.send(method: method, url: "\(sandbox.baseURL)\(path)",
                                         headers: body.isEmpty ? [:] : ["Content-Type": "application/json"], body: Array(body.utf8))
        try #require(response.status == 200, "\(method) \(path): \(response.status) \(response.bodyText)")
        return try JSON.parse(response.body)
    }

    private static func words(_ entries: JSON?) -> [String] { (entries?.arrayValue ?? []).map { $0["api_status"]?.stringValue ?? "-" } }

    /// A payout that succeeds, then is returned (the magic name REVERSE): at each stage the admin
    /// API's `api_status` (list and record) is what Get answers; the history, the scheduled steps
    /// (a rejection after success is a return: REVERSED) and the webhooks carry the words too,
    /// each webhook's the `payout_status` its receiver got.
    @Test func theAdminAPISaysWhatPayoutServiceSaysAtEveryStage() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let created = try Self.connect(sandbox, "Create", """
            {"merchant_payout_id":"dash-1","amount":{"minor_amount":1000,"currency":"USD"},"webhook_url":"\(sandbox.baseURL)/sandbox/sink/dash",
             "payout_method_data":{"card":{"card_number":{"value":"4111111111111111"},"card_holder_name":{"value":"REVERSE Ana"}}}}
            """).json
        let id = try #require(created["connectorPayoutId"]?.stringValue)
        let first = try Self.admin(sandbox, "/sandbox/cashouts/\(id)")
        #expect(Self.words(first["scheduled"]) == ["INITIATED", "SUCCESS", "REVERSED"])
        #expect(first["scheduled"]?.arrayValue?.compactMap { $0["status"]?.stringValue } == ["DELIVERED", "COMPLETED", "REJECTED"])
        var seen: [String] = []
        for step in [Duration.zero, .seconds(5), .seconds(10), .seconds(2 * 24 * 3600)] {
            sandbox.advance(by: step)
            let own = try #require(Self.connect(sandbox, "Get", #"{"connector_payout_id":"\#(id)"}"#).json["payoutStatus"]?.stringValue)
            let record = try Self.admin(sandbox, "/sandbox/cashouts/\(id)")
            let listed = try Self.admin(sandbox, "/sandbox/cashouts?merchant=\(DefaultMerchant.id)")["cashouts"]?.arrayValue?.first
            #expect(record["api_status"]?.stringValue == own && listed?["api_status"]?.stringValue == own, "Get says \(own): \(record)")
            seen.append(own)
        }
        #expect(seen == ["PENDING", "INITIATED", "SUCCESS", "REVERSED"])
        let record = try Self.admin(sandbox, "/sandbox/cashouts/\(id)")
        #expect(Self.words(record["history"]) == seen)
        #expect(record["status"] == "REJECTED" && record["returned_after_completion"] == true)
        let sent = try Self.admin(sandbox, "/sandbox/sink/dash")["requests"]?.arrayValue ?? []
        let received = try sent.map { try JSON.parse(Array(($0["body"]?.stringValue ?? "").utf8))["payout_status"]?.stringValue ?? "" }
        #expect(received == ["INITIATED", "SUCCESS", "REVERSED"])
        #expect(Self.words(record["webhooks"]) == received)
        #expect(Self.words(try Self.admin(sandbox, "/sandbox/webhooks?cashout_id=\(id)")["webhooks"]) == received)
    }

    /// The dashboard's buttons on a PayoutService payout: reject and late reject send no code (its
    /// part says so), and the dialect gives PayoutService's connector error, which Get answers
    /// too; a CreateLink payout awaiting its recipient may be cancelled.
    @Test func forcedOutcomesAreReportedInPayoutServicesTerms() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        func create(_ id: String, _ method: String = "Create") throws -> String {
            let card = method == "Create" ? #","payout_method_data":{"card":{"card_number":{"value":"4111111111111111"}}}"# : ""
            let body = #"{"merchant_payout_id":"\#(id)","amount":{"minor_amount":2500,"currency":"USD"}\#(card)}"#
            return try #require(Self.connect(sandbox, method, body).json["connectorPayoutId"]?.stringValue)
        }
        func force(_ id: String, _ action: String) throws -> JSON {
            try Self.admin(sandbox, "/sandbox/cashouts/\(id)/actions", method: "POST", body: #"{"action":"\#(action)"}"#)
        }
        for (name, actions, word, code, message) in [
            ("failed", ["deliver", "reject"], "FAILED", "payout_rejected", "The payout was rejected by the bank"),
            ("reversed", ["deliver", "complete", "reject"], "REVERSED", "payout_reversed", "The payout was returned after it had succeeded"),
        ] {
            let id = try create(name)
            var record = JSON.null
            for action in actions { record = try force(id, action) }
            #expect(record["api_status"]?.stringValue == word && record["rejection_code"]?.stringValue == code
                && record["rejection_reason"]?.stringValue == message, "\(name): \(record)")
            let got = try Self.connect(sandbox, "Get", #"{"connector_payout_id":"\#(id)"}"#).json
            #expect(got["payoutStatus"]?.stringValue == word && got["error"]?["connectorDetails"]?["code"]?.stringValue == code
                && got["error"]?["connectorDetails"]?["message"]?.stringValue == message, "\(name): Get answers \(got)")
        }
        let linked = try create("linked", "CreateLink")
        #expect(try Self.admin(sandbox, "/sandbox/cashouts/\(linked)")["api_status"] == "REQUIRES_PAYOUT_METHOD_DATA")
        #expect(try force(linked, "cancel")["api_status"] == "CANCELLED")
        #expect(try Self.connect(sandbox, "Get", #"{"connector_payout_id":"\#(linked)"}"#).json["payoutStatus"] == "CANCELLED")
    }

    /// The page carries PayoutService's form (in the `#/new` view, beside the others), its view and
    /// link; the admin API lists its merchants with the metadata their calls need; and every field
    /// the Details card reads (`f["..."]` in its script) is one a Create or a CreateLink records.
    @Test func thePageHasPayoutServicesPartAndReadsFieldsItsPayoutsHave() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let page = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/").bodyText
        for piece in [#"<form id="prism-new-form""#, #"id="nav-payoutservice""#, #"<section id="view-payoutservice""#,
                      #"<select name="rpc" id="prism-new-rpc" "#
                      + #"data-testid="prism-new-rpc"><option>Create</option><option>CreateLink</option></select>"#] {
            #expect(page.contains(piece), "the page has no \(piece)")
        }
        let newView = try #require(page.range(of: #"<section id="view-new""#))
        let newViewEnd = try #require(page[newView.upperBound...].range(of: "</section>"))
        #expect(page[newView.upperBound ..< newViewEnd.lowerBound].contains(#"<form id="prism-new-form""#))

        let merchants = try Self.admin(sandbox, "/sandbox/prism-merchants")["merchants"]
        #expect(merchants == [["merchant_id": "DefaultMerchantId", "api_key": "sandbox_prism_key", "key1": .null, "api_secret": .null,
                               "currency": "USD", "balance": "1000000.00",
                               "limits": ["transaction": .null, "daily": .null, "monthly": .null], "require_auth": true,
                               "recipients": [:], "payout_methods": [:]]])

        let script = try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/dashboard.js").bodyText
        let part = try #require(script.range(of: "apis.prism = ").map { script[$0.lowerBound...] })
        let read = Set(part.matches(of: try Regex(#"\bf\["([a-z_]+)"\]"#)).compactMap { $0.output[1].substring.map(String.init) })
        #expect(read.count >= 10, "\(read.sorted())")
        _ = try Self.connect(sandbox, "EnrollDisburseAccount", #"{"payout_method_data":{"sepa":{"iban":{"value":"DE89370400440532013000"}}}}"#)
        let made = [
            try Self.connect(sandbox, "Create", """
                {"merchant_payout_id":"f-1","amount":{"minor_amount":100,"currency":"USD"},"destination_currency":"USD","priority":"INSTANT",
                 "payout_method_data":{"card":{"card_number":{"value":"4111111111111111"},"card_holder_name":{"value":"Ana"}}}}
                """).json,
            try Self.connect(sandbox, "Create",
                             #"{"merchant_payout_id":"f-2","amount":{"minor_amount":100,"currency":"USD"},"#
                             + #""connector_payout_method_id":"pm_000001"}"#).json,
            try Self.connect(sandbox, "CreateLink", #"{"merchant_payout_id":"f-3","amount":{"minor_amount":100,"currency":"USD"}}"#).json,
        ]
        var recorded: Set<String> = []
        for answer in made {
            let id = try #require(answer["connectorPayoutId"]?.stringValue)
            recorded.formUnion(try Self.admin(sandbox, "/sandbox/cashouts/\(id)")["fields"]?.objectValue?.keys ?? [:].keys)
        }
        #expect(read.subtracting(recorded).sorted() == [], "the Details card reads fields no payout has")
    }
}
