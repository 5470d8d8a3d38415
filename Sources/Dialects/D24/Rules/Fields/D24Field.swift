// The create-cashout fields in their documented order, with the names and limits the API's
// validation messages use: D24's Cashouts docs (docs.d24.com), "Cashout Creation Endpoint" (field table), and the
// D24 guide, "Codes" (the validation message format).

/// One validated field of the create request, in the documented field order.
///
/// `allCases` is the order validation walks: the first failing field is the one reported.
///
/// ```swift
/// D24Field.bankAccount.messageName   // "bankAccount"
/// D24Field.bankAccount.label         // "Bank account"
/// D24Field.bankAccount.jsonKey       // "bank_account"
/// ```
enum D24Field: Int, CaseIterable, Sendable, Comparable {
    /// `external_id`
    case externalID
    /// `country`
    case country
    /// `amount`
    case amount
    /// `currency`
    case currency
    /// `document_id`
    case documentID
    /// `document_type`
    case documentType
    /// `beneficiary_id`
    case beneficiaryID
    /// `beneficiary_name`
    case beneficiaryName
    /// `beneficiary_lastname`
    case beneficiaryLastname
    /// `email`
    case email
    /// `phone`
    case phone
    /// `bank_code`
    case bankCode
    /// `bank_account`
    case bankAccount
    /// `bank_branch`
    case bankBranch
    /// `account_type`
    case accountType
    /// `address`
    case address
    /// `city`
    case city
    /// `postal_code`
    case postalCode
    /// `beneficiary_birthdate`
    case beneficiaryBirthdate
    /// `notification_url`
    case notificationURL
    /// `comments`
    case comments

    /// Orders fields by their documented position.
    static func < (lhs: D24Field, rhs: D24Field) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The camelCase name that starts a code-300 message, e.g. `bankAccount`.
    var messageName: String {
        switch self {
        case .externalID: "externalId"
        case .country: "country"
        case .amount: "amount"
        case .currency: "currency"
        case .documentID: "documentId"
        case .documentType: "documentType"
        case .beneficiaryID: "beneficiaryId"
        case .beneficiaryName: "beneficiaryName"
        case .beneficiaryLastname: "beneficiaryLastname"
        case .email: "email"
        case .phone: "phone"
        case .bankCode: "bankCode"
        case .bankAccount: "bankAccount"
        case .bankBranch: "bankBranch"
        case .accountType: "accountType"
        case .address: "address"
        case .city: "city"
        case .postalCode: "postalCode"
        case .beneficiaryBirthdate: "beneficiaryBirthdate"
        case .notificationURL: "notificationUrl"
        case .comments: "comments"
        }
    }

    /// The human label used in `Invalid or missing <label>`, e.g. `Bank account`.
    var label: String {
        switch self {
        case .externalID: "External ID"
        case .country: "Country"
        case .amount: "Amount"
        case .currency: "Currency"
        case .documentID: "Document ID"
        case .documentType: "Document type"
        case .beneficiaryID: "Beneficiary ID"
        case .beneficiaryName: "Beneficiary name"
        case .beneficiaryLastname: "Beneficiary lastname"
        case .email: "Email"
        case .phone: "Phone"
        case .bankCode: "Bank code"
        case .bankAccount: "Bank account"
        case .bankBranch: "Bank branch"
        case .accountType: "Account type"
        case .address: "Address"
        case .city: "City"
        case .postalCode: "Postal code"
        case .beneficiaryBirthdate: "Beneficiary birthdate"
        case .notificationURL: "Notification URL"
        case .comments: "Comments"
        }
    }

    /// The snake_case key of the JSON body, e.g. `bank_account`.
    var jsonKey: String {
        switch self {
        case .externalID: "external_id"
        case .documentID: "document_id"
        case .documentType: "document_type"
        case .beneficiaryID: "beneficiary_id"
        case .beneficiaryName: "beneficiary_name"
        case .beneficiaryLastname: "beneficiary_lastname"
        case .bankCode: "bank_code"
        case .bankAccount: "bank_account"
        case .bankBranch: "bank_branch"
        case .accountType: "account_type"
        case .postalCode: "postal_code"
        case .beneficiaryBirthdate: "beneficiary_birthdate"
        case .notificationURL: "notification_url"
        default: messageName
        }
    }

    /// The field whose JSON key is `jsonKey`, or nil for a key that names none.
    ///
    /// Found among the keys of the same UTF-8 length rather than by hashing: a create looks up
    /// every key of its body. No other text equals a key of lowercase ASCII letters and
    /// underscores (the only non-ASCII characters equal to ASCII ones are `K`, `;` and `` ` ``),
    /// so the length sorts out every key that could.
    ///
    /// ```swift
    /// D24Field(jsonKey: "bank_account")   // .bankAccount
    /// ```
    init?(jsonKey: String) {
        let length = jsonKey.utf8.count
        guard length < Self.byKeyLength.count, let found = Self.byKeyLength[length].first(where: { $0.key == jsonKey }) else {
            return nil
        }
        self = found.field
    }

    /// The fields and their JSON keys (made once, not on each comparison) by the keys' UTF-8 length.
    private static let byKeyLength: [[(key: String, field: D24Field)]] = allCases.reduce(into: []) { table, field in
        let length = field.jsonKey.utf8.count
        if table.count <= length { table += Array(repeating: [], count: length + 1 - table.count) }
        table[length].append((field.jsonKey, field))
    }

    /// Whether a JSON number is taken as its literal text: `amount` and `bank_code`, which real
    /// clients send both ways. Every other field is a JSON string, as the provider's docs type them:
    /// a number is refused with 300 (HTTP 412).
    var takesNumbers: Bool { self == .amount || self == .bankCode }

    /// The longest accepted value, in characters, for a request to `country`.
    ///
    /// the "Cashout Creation Endpoint" table; where it gives none the sandbox chose: `beneficiary_id` 100,
    /// `beneficiary_birthdate` 10 (`YYYY-MM-DD`), `notification_url` 2048, `comments` 200
    /// (the notification's limit). `address` is 255 (the table; its "200" note is UNCERTAIN).
    /// `email` is 255 in Colombia (its country page), 100 elsewhere. `amount` and `bank_code`
    /// are bounded by their own syntax rules.
    func maxLength(country: String?) -> Int? {
        switch self {
        case .externalID: 100
        case .country: 2
        case .amount: nil
        case .currency: 3
        case .documentID: 40
        case .documentType: 15
        case .beneficiaryID: 100
        case .beneficiaryName, .beneficiaryLastname: 100
        case .email: country == "CO" ? 255 : 100
        case .phone: 20
        case .bankCode: nil
        case .bankAccount: 30
        case .bankBranch: 15
        case .accountType: 1
        case .address: 255
        case .city: 100
        case .postalCode: 20
        case .beneficiaryBirthdate: 10
        case .notificationURL: 2048
        case .comments: 200
        }
    }
}
