@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxD24
import Testing

@Suite struct CreateTests {
    // MARK: Success

    @Test func createAnswersSequentialStringIDsStartingAt1000001() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let first = try sandbox.create(createBody(externalID: "o-1"))
        expectOK(first, #"{"cashout_id":"1000001"}"#)
        #expect(first.headers["Content-Type"]?.hasPrefix("application/json") == true)
        expectOK(try sandbox.create(createBody(externalID: "o-2")), #"{"cashout_id":"1000002"}"#)
        expectOK(try sandbox.create(createBody(externalID: "o-3")), #"{"cashout_id":"1000003"}"#)
    }

    @Test func newCashoutIsPendingAndDebitsTheConvertedAmount() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "o-1", amount: "100", currency: "BRL")
        expectOK(try sandbox.statusOf(id), pendingJSON)
        // 100 BRL = 17.00 USD at the sandbox FX table.
        #expect(try sandbox.balance() == "999983.00")
        _ = try sandbox.createOK(externalID: "o-2", amount: "100", currency: "USD")
        #expect(try sandbox.balance() == "999883.00")
    }

    @Test func amountAndBankCodeAcceptNumbersAndStrings() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectOK(try sandbox.create(createBody(externalID: "s-1", amount: #""100.00""#)), #"{"cashout_id":"1000001"}"#)
        expectOK(try sandbox.create(createBody(externalID: "s-2", amount: "100.5")), #"{"cashout_id":"1000002"}"#)
        expectOK(try sandbox.create(createBody(externalID: "s-3", amount: #""0.01""#)), #"{"cashout_id":"1000003"}"#)
        let numericBank = createBody(externalID: "s-4").replacingOccurrences(of: #""bank_code":"001""#, with: #""bank_code":1"#)
        expectOK(try sandbox.create(numericBank), #"{"cashout_id":"1000004"}"#)
        // 100 + 100.50 + 0.01 + 100 BRL, each converted on its own.
        let json = try sandbox.admin("GET", "/sandbox/cashouts")
        let amounts = json["cashouts"]?.arrayValue?.compactMap { $0["amount"]?.stringValue }.sorted()
        #expect(amounts == ["0.01", "100.00", "100.00", "100.50"])
    }

    @Test func notificationURLIsOptional() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        // createBody() has no notification_url.
        expectOK(try sandbox.create(createBody(externalID: "n-1")), #"{"cashout_id":"1000001"}"#)
        expectOK(try sandbox.create(createBody(externalID: "n-2", extra: #","notification_url":"http://127.0.0.1:9/hook""#)),
                 #"{"cashout_id":"1000002"}"#)
    }

    @Test func onHoldTrueCreatesAnOnHoldCashoutThatReservesTheBalance() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let held = try sandbox.createOK(externalID: "h-1", amount: "100", currency: "USD", extra: #","on_hold":true"#)
        expectOK(try sandbox.statusOf(held), onHoldJSON)
        #expect(try sandbox.balance() == "999900.00")
        let notHeld = try sandbox.createOK(externalID: "h-2", extra: #","on_hold":false"#)
        expectOK(try sandbox.statusOf(notHeld), pendingJSON)
        // An ON_HOLD cashout is not processed while time passes.
        try sandbox.advance("1h")
        expectOK(try sandbox.statusOf(held), onHoldJSON)
        expectOK(try sandbox.statusOf(notHeld), completedJSON)
    }

    @Test func usdPayoutToBrazilIsAccepted() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectOK(try sandbox.create(createBody(amount: "12.34", currency: "USD")), #"{"cashout_id":"1000001"}"#)
        #expect(try sandbox.balance() == "999987.66")
    }

    // MARK: External ID

    @Test func duplicateExternalIDIs511ForTheSameMerchantOnly() throws {
        let sandbox = try startSandbox(merchants: [D24Merchant.sandboxDefault, otherMerchant])
        defer { sandbox.stop() }
        _ = try sandbox.createOK(externalID: "dup-1")
        let again = try sandbox.create(createBody(externalID: "dup-1"))
        expectError(again, 511, "External ID already used")
        // Different amount or currency: still the same external_id.
        expectError(try sandbox.create(createBody(externalID: "dup-1", amount: "5", currency: "USD")), 511, "External ID already used")
        #expect(try sandbox.balance() == "999983.00")
        // Another merchant may use the same external_id.
        let other = try sandbox.create(createBody(externalID: "dup-1", login: "other_login", pass: "other_pass"),
                                       signature: .valid(secret: "other_secret"))
        expectOK(other, #"{"cashout_id":"1000002"}"#)
    }

    @Test func externalIDOfACancelledCashoutStaysUsed() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let id = try sandbox.createOK(externalID: "c-1")
        expectOK(try sandbox.cancel(#"{\#(credentials()),"cashout_id":\#(id),"external_id":"c-1"}"#), canceledJSON)
        expectError(try sandbox.create(createBody(externalID: "c-1")), 511, "External ID already used")
    }

    @Test func refusedCreationStoresNothingAndDoesNotUseTheExternalID() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.create(createBody(externalID: "r-1", amount: "0")), 300, "amount: Invalid or missing Amount")
        expectError(try sandbox.status(#"{\#(credentials()),"external_id":"r-1"}"#), 509, "Cashout not found with this ID")
        #expect(try sandbox.balance() == "1000000.00")
        expectOK(try sandbox.create(createBody(externalID: "r-1")), #"{"cashout_id":"1000001"}"#)
    }

    @Test func missingExternalIDIs300() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let body = createBody().replacingOccurrences(of: #""external_id":"o-1","#, with: "")
        expectError(try sandbox.create(body), 300, "externalId: Invalid or missing External ID")
    }

    // MARK: Field validation

    @Test(arguments: ["100.001", "0", "0.00", "-5", "-0.01", #""100.001""#, #""0""#, #""-5""#, #""abc""#, #""""#,
                      "null", "true", #""1e2""#, "[100]"])
    func invalidAmountIs300(_ amount: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.create(createBody(amount: amount)), 300, "amount: Invalid or missing Amount")
        #expect(try sandbox.balance() == "1000000.00")
    }

    @Test func missingAmountIs300() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let body = createBody().replacingOccurrences(of: #""amount":100,"#, with: "")
        expectError(try sandbox.create(body), 300, "amount: Invalid or missing Amount")
    }

    @Test func missingBankAccountIs300WithTheDocumentedMessage() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let body = createBody().replacingOccurrences(of: #""bank_account":"3423422-7","#, with: "")
        expectError(try sandbox.create(body), 300, "bankAccount: Invalid or missing Bank account")
    }

    @Test(arguments: ["999", "12345", "0"])
    func unknownBankCodeIs303(_ code: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let body = createBody().replacingOccurrences(of: #""bank_code":"001""#, with: #""bank_code":"\#(code)""#)
        expectError(try sandbox.create(body), 303, "Invalid bank code")
        #expect(try sandbox.balance() == "1000000.00")
    }

    @Test(arguments: ["ZZ", "XX"])
    func unavailableCountryIs518(_ country: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let body = createBody().replacingOccurrences(of: #""country":"BR""#, with: #""country":"\#(country)""#)
        expectError(try sandbox.create(body), 518, "Country not available")
    }

    @Test(arguments: ["EUR", "MXN", "ARS", "XYZ"])
    func currencyNotOfferedForTheCountryIs526(_ currency: String) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        expectError(try sandbox.create(createBody(currency: currency)), 526, "Invalid currency")
        #expect(try sandbox.balance() == "1000000.00")
    }

    // MARK: Business rules

    @Test func insufficientFundsIs514() throws {
        let sandbox = try startSandbox(merchants: [merchant(balance: "100.00")])
        defer { sandbox.stop() }
        expectError(try sandbox.create(createBody(externalID: "f-1", amount: "100.01", currency: "USD")), 514, "Insufficient funds")
        #expect(try sandbox.balance() == "100.00")
        expectOK(try sandbox.create(createBody(externalID: "f-2", amount: "100.00", currency: "USD")), #"{"cashout_id":"1000001"}"#)
        #expect(try sandbox.balance() == "0.00")
        expectError(try sandbox.create(createBody(externalID: "f-3", amount: "0.01", currency: "USD")), 514, "Insufficient funds")
        #expect(try sandbox.balance() == "0.00")
    }

    @Test func insufficientFundsIsCheckedInTheSettlementCurrency() throws {
        let sandbox = try startSandbox(merchants: [merchant(balance: "17.00")])
        defer { sandbox.stop() }
        // 101 BRL is more than 17.00 USD; 100 BRL is exactly 17.00 USD.
        expectError(try sandbox.create(createBody(externalID: "f-1", amount: "101")), 514, "Insufficient funds")
        expectOK(try sandbox.create(createBody(externalID: "f-2", amount: "100")), #"{"cashout_id":"1000001"}"#)
        #expect(try sandbox.balance() == "0.00")
    }

    @Test func transactionLimitIs508() throws {
        let limits = Account.Limits(transaction: Money("100.00")!)
        let sandbox = try startSandbox(merchants: [merchant(limits: limits)])
        defer { sandbox.stop() }
        expectError(try sandbox.create(createBody(externalID: "t-1", amount: "100.01", currency: "USD")), 508, "Limit exceeded: TRANSACTION")
        expectOK(try sandbox.create(createBody(externalID: "t-2", amount: "100.00", currency: "USD")), #"{"cashout_id":"1000001"}"#)
        #expect(try sandbox.balance() == "999900.00")
    }

    @Test func transactionLimitIsInUSD() throws {
        let limits = Account.Limits(transaction: Money("17.00")!)
        let sandbox = try startSandbox(merchants: [merchant(limits: limits)])
        defer { sandbox.stop() }
        expectOK(try sandbox.create(createBody(externalID: "t-1", amount: "100")), #"{"cashout_id":"1000001"}"#)  // 17.00 USD
        expectError(try sandbox.create(createBody(externalID: "t-2", amount: "106")), 508, "Limit exceeded: TRANSACTION")
    }

    @Test func dailyLimitIs508AndResetsTheNextDay() throws {
        let limits = Account.Limits(daily: Money("150.00")!)
        let sandbox = try startSandbox(merchants: [merchant(limits: limits)])
        defer { sandbox.stop() }
        _ = try sandbox.createOK(externalID: "d-1", amount: "100", currency: "USD")
        expectError(try sandbox.create(createBody(externalID: "d-2", amount: "60", currency: "USD")), 508, "Limit exceeded: DAILY")
        _ = try sandbox.createOK(externalID: "d-3", amount: "50", currency: "USD")
        expectError(try sandbox.create(createBody(externalID: "d-4", amount: "0.01", currency: "USD")), 508, "Limit exceeded: DAILY")
        try sandbox.advance("1d")
        _ = try sandbox.createOK(externalID: "d-5", amount: "60", currency: "USD")
        #expect(try sandbox.balance() == "999790.00")
    }

    @Test func monthlyLimitIs508() throws {
        let limits = Account.Limits(monthly: Money("200.00")!)
        let sandbox = try startSandbox(merchants: [merchant(limits: limits)])
        defer { sandbox.stop() }
        _ = try sandbox.createOK(externalID: "m-1", amount: "150", currency: "USD")
        try sandbox.advance("1d")
        expectError(try sandbox.create(createBody(externalID: "m-2", amount: "60", currency: "USD")), 508, "Limit exceeded: MONTHLY")
        _ = try sandbox.createOK(externalID: "m-3", amount: "50", currency: "USD")
        // The clock starts on 2026-01-05: 27 days later is February.
        try sandbox.advance("27d")
        _ = try sandbox.createOK(externalID: "m-4", amount: "60", currency: "USD")
    }

    @Test func minimumAmountIs533InTheCashoutCurrency() throws {
        let sandbox = try startSandbox(merchants: [merchant(minimumAmounts: ["BR": Money("10")!])])
        defer { sandbox.stop() }
        let message = "Invalid Amount. The minimum amount is BRL 58.83 or equivalent in USD"
        // At and above the minimum: accepted.
        expectOK(try sandbox.create(createBody(externalID: "min-1", amount: "58.83")), #"{"cashout_id":"1000001"}"#)
        expectOK(try sandbox.create(createBody(externalID: "min-2", amount: "10.00", currency: "USD")), #"{"cashout_id":"1000002"}"#)
        #expect(try sandbox.balance() == "999980.00")
        // Below it: refused, nothing debited.
        expectError(try sandbox.create(createBody(externalID: "min-3", amount: "1")), 533, message)
        expectError(try sandbox.create(createBody(externalID: "min-4", amount: "58.82")), 533, message)
        let below = try sandbox.create(createBody(externalID: "min-5", amount: "9.99", currency: "USD"))
        #expect(below.status == 412)
        #expect(try JSON.parse(below.body)["code"] == .number(533), "\(below.bodyText)")
        #expect(try sandbox.balance() == "999980.00")
    }

    @Test func duplicateExternalIDComesBeforeOtherBusinessRefusals() throws {
        let m = merchant(balance: "20.00", minimumAmounts: ["BR": Money("10")!])
        let sandbox = try startSandbox(merchants: [m])
        defer { sandbox.stop() }
        _ = try sandbox.createOK(externalID: "ord-1", amount: "15", currency: "USD")
        let used = "External ID already used"
        // (A currency the country does not offer is a field error, 526, which comes before business rules.)
        expectError(try sandbox.create(createBody(externalID: "ord-1", amount: "1", currency: "USD")), 511, used)   // minimum
        expectError(try sandbox.create(createBody(externalID: "ord-1", amount: "100", currency: "USD")), 511, used) // funds
        #expect(try sandbox.balance() == "5.00")
    }

    @Test func currencyThenMinimumThenLimitThenFunds() throws {
        // Balance 5.00, at most 8.00 per payout, at least 10.00 to Brazil.
        let m = merchant(balance: "5.00", limits: Account.Limits(transaction: Money("8.00")!), minimumAmounts: ["BR": Money("10")!])
        let sandbox = try startSandbox(merchants: [m])
        defer { sandbox.stop() }
        // 9 EUR: bad currency, under the minimum, over the limit, over the balance.
        expectError(try sandbox.create(createBody(externalID: "o-1", amount: "9", currency: "EUR")), 526, "Invalid currency")
        // 9 USD: under the minimum (10 USD), over the limit, over the balance.
        let response = try sandbox.create(createBody(externalID: "o-2", amount: "9", currency: "USD"))
        #expect(response.status == 412)
        let json = try JSON.parse(response.body)
        #expect(json["code"] == .number(533), "\(response.bodyText)")
        #expect(json["message"]?.stringValue?.hasPrefix("Invalid Amount. The minimum amount is ") == true, "\(response.bodyText)")
        // 58.82 BRL (under 10 USD): the minimum names the BRL equivalent.
        expectError(try sandbox.create(createBody(externalID: "o-3", amount: "58.82", currency: "BRL")), 533,
                    "Invalid Amount. The minimum amount is BRL 58.83 or equivalent in USD")
        // 11 USD: over the limit and over the balance.
        expectError(try sandbox.create(createBody(externalID: "o-4", amount: "11", currency: "USD")), 508, "Limit exceeded: TRANSACTION")
        #expect(try sandbox.balance() == "5.00")
    }

    @Test func dailyLimitComesBeforeFunds() throws {
        let m = merchant(balance: "30.00", limits: Account.Limits(daily: Money("20.00")!))
        let sandbox = try startSandbox(merchants: [m])
        defer { sandbox.stop() }
        _ = try sandbox.createOK(externalID: "o-1", amount: "15", currency: "USD")
        expectError(try sandbox.create(createBody(externalID: "o-2", amount: "16", currency: "USD")), 508, "Limit exceeded: DAILY")
        try sandbox.advance("1d")
        expectError(try sandbox.create(createBody(externalID: "o-3", amount: "16", currency: "USD")), 514, "Insufficient funds")
        #expect(try sandbox.balance() == "15.00")
    }
}
