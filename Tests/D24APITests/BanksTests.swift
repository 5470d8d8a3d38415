@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxD24
import Testing

let readOnlyUnauthorized = #"{"code":100,"description":"Invalid credentials"}"#

@Suite struct BanksTests {
    /// The bank list of a country, checked to be an array of `{"code":<integer>,"name":"..."}`.
    func banks(_ sandbox: Sandbox, _ country: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Int: String] {
        let response = try sandbox.get("/v3/banks?country=\(country)")
        try #require(response.status == 200, "\(country): \(response.status) \(response.bodyText)", sourceLocation: sourceLocation)
        #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
        let list = try #require(try JSON.parse(response.body).arrayValue, "not an array: \(response.bodyText)",
                                sourceLocation: sourceLocation)
        #expect(!list.isEmpty, sourceLocation: sourceLocation)
        var byCode: [Int: String] = [:]
        for entry in list {
            let object = try #require(entry.objectValue, "\(entry)", sourceLocation: sourceLocation)
            #expect(Set(object.keys) == ["code", "name"], "\(entry)", sourceLocation: sourceLocation)
            guard case .number(let text)? = object["code"], let code = Int(text) else {
                Issue.record("code is not an integer number: \(entry)", sourceLocation: sourceLocation)
                continue
            }
            let name = object["name"]?.stringValue
            #expect(name?.isEmpty == false, "\(entry)", sourceLocation: sourceLocation)
            #expect(byCode[code] == nil, "duplicate code \(code)", sourceLocation: sourceLocation)
            byCode[code] = name
        }
        return byCode
    }

    @Test func brazilListsItsBanksWithNumericCodes() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let list = try banks(sandbox, "BR")
        // Banco do Brasil 001, Santander 033, Banrisul 041, Caixa 104, Bradesco 237, Mercado Pago 323, Itaú 341.
        for code in [1, 33, 41, 104, 237, 323, 341] {
            #expect(list[code] != nil, "BR bank \(code) missing")
        }
    }

    @Test func chileAndEcuadorListTheirBanks() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let chile = try banks(sandbox, "CL")
        for code in [1, 9, 12, 14, 16, 37, 39, 504] { #expect(chile[code] != nil, "CL bank \(code) missing") }
        let ecuador = try banks(sandbox, "EC")
        for code in [10, 17, 24, 36, 37] { #expect(ecuador[code] != nil, "EC bank \(code) missing") }
        #expect(ecuador[341] == nil)
    }

    @Test(arguments: ["MX", "AR", "CO", "PE"])
    func otherFullyValidatedCountriesHaveBankLists(_ country: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        _ = try banks(sandbox, country)
    }

    @Test func aListedBankCodeIsAcceptedByCreate() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let list = try banks(sandbox, "BR")
        #expect(list[341] != nil)
        // Itaú accounts: up to 5 digits, optional dash, check digit.
        let body = createBody().replacingOccurrences(of: #""bank_code":"001","bank_account":"3423422-7""#,
                                                     with: #""bank_code":341,"bank_account":"12345-6""#)
        expectOK(try sandbox.create(body), #"{"cashout_id":"1000001"}"#)
    }

    @Test func anyMerchantsReadOnlyKeyWorks() throws {
        let sandbox = try startSandbox(merchants: [D24Merchant.sandboxDefault, otherMerchant])
        defer { sandbox.stop() }
        let mine = try sandbox.get("/v3/banks?country=BR")
        let theirs = try sandbox.get("/v3/banks?country=BR", authorization: "Bearer other_read_only")
        #expect(mine.status == 200)
        #expect(theirs.status == 200)
        #expect(mine.bodyText == theirs.bodyText)
    }

    @Test(arguments: [nil, "", "Bearer", "Bearer ", "Bearer wrong", "Bearer sandbox_secret", "Bearer sandbox_login",
                      "sandbox_read_only", "Basic sandbox_read_only", "Bearer SANDBOX_READ_ONLY", "Bearer sandbox_read_only_x"] as [String?])
    func wrongOrMissingKeyIs401(_ authorization: String?) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let response = try sandbox.get("/v3/banks?country=BR", authorization: authorization)
        #expect(response.status == 401)
        #expect(response.bodyText == readOnlyUnauthorized)
    }

    @Test(arguments: ["/v3/banks?country=ZZ", "/v3/banks?country=XX", "/v3/banks", "/v3/banks?country=", "/v3/banks?country=BRA",
                      "/v3/banks?pais=BR"])
    func unknownOrMissingCountryIs400WithAnEmptyBody(_ path: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let response = try sandbox.get(path)
        #expect(response.status == 400, "\(path): \(response.status) \(response.bodyText)")
        #expect(response.body.isEmpty, "\(path): \(response.bodyText)")
    }

    @Test func banksNeedNoSignature() throws {
        let sandbox = try startSandbox(merchants: [merchant(allowedIPs: ["10.9.9.9"])])
        defer { sandbox.stop() }
        // Read-only GETs use the Bearer key only; there is no body to sign.
        #expect(try sandbox.get("/v3/banks?country=BR").status == 200)
    }
}
