import SandboxSupport

/// The PayoutService requests the documents show (the OpenAPI examples, the Postman folder) and
/// the tests send, as proto3 JSON with lowerCamelCase names: written once. Ids are parameters, so
/// the OpenAPI document gives a fresh sandbox's ids and Postman its `{{variables}}`.
///
/// ```swift
/// let request = try registry.decode("types.PayoutServiceCreateRequest", json: PrismExample.create())
/// ```
enum PrismExample {
    /// USD 10.00 (the default merchant's currency).
    package static let amount: JSON = ["minorAmount": "1000", "currency": "USD"]

    /// The recipient: on the default bank, a name that is not magic (`PrismDialect.builtInScenarioText`).
    static let holder = "Ana Lima"

    /// A magic recipient name: the default bank leaves the payout PENDING until a call (Void) or
    /// the admin API moves it, so a person can Get and Void it at their own pace.
    static let pendingHolder = "NEVER Ana Lima"

    /// A card held by `holder`.
    static func card(holder: String = holder) -> JSON {
        ["card": ["cardNumber": ["value": "4111111111111111"], "cardExpMonth": ["value": "12"], "cardExpYear": ["value": "2030"],
                  "cardHolderName": ["value": .string(holder)]]]
    }

    /// A SEPA account of `holder`'s.
    static let sepa: JSON = ["sepa": ["iban": ["value": "DE89370400440532013000"], "bic": ["value": "COBADEFFXXX"]]]

    /// `Create`: USD 10.00 to `holder`'s card, notified to `webhookURL` when given.
    package static func create(_ merchantPayoutID: String = "order-1", holder: String = holder, webhookURL: String? = nil) -> JSON {
        var request: [String: JSON] = ["merchantPayoutId": .string(merchantPayoutID), "amount": amount, "destinationCurrency": "USD",
                                       "payoutMethodData": card(holder: holder)]
        if let webhookURL { request["webhookUrl"] = .string(webhookURL) }
        return .object(request)
    }

    /// `Create` paying out to an enrolled method (EnrollDisburseAccount's `connectorPayoutId`).
    package static func create(_ merchantPayoutID: String, methodID: String) -> JSON {
        ["merchantPayoutId": .string(merchantPayoutID), "amount": amount, "destinationCurrency": "USD",
         "connectorPayoutMethodId": .string(methodID)]
    }

    /// `Get` or `Void` of a payout by the sandbox's id.
    package static func payout(_ connectorPayoutID: String) -> JSON {
        ["connectorPayoutId": .string(connectorPayoutID)]
    }

    /// `Stage`: USD 10.00 for the customer `holder`, without a debit.
    static func stage(_ merchantQuoteID: String = "quote-1") -> JSON {
        ["merchantQuoteId": .string(merchantQuoteID), "amount": amount, "destinationCurrency": "USD",
         "customer": ["name": .string(holder)]]
    }

    /// `CreateLink`: USD 10.00 for `holder`, who enters the method on the link's page.
    static func createLink(_ merchantPayoutID: String = "link-1") -> JSON {
        ["merchantPayoutId": .string(merchantPayoutID), "amount": amount, "destinationCurrency": "USD",
         "customer": ["name": .string(holder), "email": ["value": "ana@example.com"]]]
    }

    /// `CreateRecipient`: `holder` as an individual.
    static func createRecipient(_ merchantPayoutID: String = "recipient-1") -> JSON {
        ["merchantPayoutId": .string(merchantPayoutID), "recipientType": "INDIVIDUAL",
         "customer": ["name": .string(holder), "email": ["value": "ana@example.com"], "id": "cus_42"]]
    }

    /// `EnrollDisburseAccount`: `holder`'s SEPA account, for the recipient `recipientID` (CreateRecipient's `connectorPayoutId`).
    static func enrollDisburseAccount(recipientID: String) -> JSON {
        ["payoutMethodData": sepa, "customer": ["name": .string(holder), "connectorCustomerId": .string(recipientID)]]
    }
}
