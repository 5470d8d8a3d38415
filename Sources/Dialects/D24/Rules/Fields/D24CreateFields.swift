// The create-cashout request body as text: D24's Cashouts docs (docs.d24.com), "Cashout Creation Endpoint".

/// The create request's fields as the client sent them, already decoded to text.
///
/// Numbers sent as JSON numbers arrive as their literal text (`amount` `"100.50"`,
/// `bank_code` `"1"` or `"001"`). `nil` means absent (or JSON `null`). `login`, `pass`,
/// `on_hold` and `type` are not here: they are checked before field validation.
///
/// ```swift
/// let fields = D24CreateFields(externalID: "30000000001", country: "BR", amount: "100",
///                              documentID: "01716001340", beneficiaryName: "User")
/// ```
struct D24CreateFields: Sendable, Equatable {
    /// `external_id`: the merchant's unique id for the cashout (max 100).
    package var externalID: String?
    /// `country`: ISO 3166-1 alpha-2, uppercase.
    var country: String?
    /// `currency`: ISO 4217; absent means the country's local currency.
    var currency: String?
    /// `amount`: a decimal number with up to 2 decimals, in `currency`.
    package var amount: String?
    /// `document_id`: the beneficiary's document number (max 40).
    var documentID: String?
    /// `document_type`: e.g. `CPF`, `CURP`, `CC` (max 15).
    var documentType: String?
    /// `beneficiary_id`: the merchant's id of the beneficiary.
    var beneficiaryID: String?
    /// `beneficiary_name` (max 100).
    var beneficiaryName: String?
    /// `beneficiary_lastname` (max 100).
    var beneficiaryLastname: String?
    /// `email` (max 100; 255 in Colombia).
    package var email: String?
    /// `phone` (max 20 characters).
    var phone: String?
    /// `bank_code`: a code served by `/v3/banks`, as text (`"001"` or `"1"`).
    var bankCode: String?
    /// `bank_account` (max 30).
    var bankAccount: String?
    /// `bank_branch` (max 15).
    var bankBranch: String?
    /// `account_type`: one letter, `C`, `S` or `V`.
    var accountType: String?
    /// `address` (max 255).
    package var address: String?
    /// `city` (max 100).
    var city: String?
    /// `postal_code` (max 20).
    var postalCode: String?
    /// `beneficiary_birthdate`: `YYYY-MM-DD`.
    var beneficiaryBirthdate: String?
    /// `notification_url`: where status changes are posted.
    var notificationURL: String?
    /// `comments`: free text echoed in notifications (max 200).
    var comments: String?

    /// A field set with every field absent (set them by ``subscript(_:)``).
    init() {}

    /// Creates a field set; every field defaults to absent.
    init(
        externalID: String? = nil, country: String? = nil, currency: String? = nil,
        amount: String? = nil, documentID: String? = nil, documentType: String? = nil,
        beneficiaryID: String? = nil, beneficiaryName: String? = nil,
        beneficiaryLastname: String? = nil, email: String? = nil, phone: String? = nil,
        bankCode: String? = nil, bankAccount: String? = nil, bankBranch: String? = nil,
        accountType: String? = nil, address: String? = nil, city: String? = nil,
        postalCode: String? = nil, beneficiaryBirthdate: String? = nil,
        notificationURL: String? = nil, comments: String? = nil
    ) {
        self.externalID = externalID
        self.country = country
        self.currency = currency
        self.amount = amount
        self.documentID = documentID
        self.documentType = documentType
        self.beneficiaryID = beneficiaryID
        self.beneficiaryName = beneficiaryName
        self.beneficiaryLastname = beneficiaryLastname
        self.email = email
        self.phone = phone
        self.bankCode = bankCode
        self.bankAccount = bankAccount
        self.bankBranch = bankBranch
        self.accountType = accountType
        self.address = address
        self.city = city
        self.postalCode = postalCode
        self.beneficiaryBirthdate = beneficiaryBirthdate
        self.notificationURL = notificationURL
        self.comments = comments
    }

    /// The raw value of `field`, as sent.
    subscript(field: D24Field) -> String? {
        get {
            switch field {
            case .externalID: externalID
            case .country: country
            case .amount: amount
            case .currency: currency
            case .documentID: documentID
            case .documentType: documentType
            case .beneficiaryID: beneficiaryID
            case .beneficiaryName: beneficiaryName
            case .beneficiaryLastname: beneficiaryLastname
            case .email: email
            case .phone: phone
            case .bankCode: bankCode
            case .bankAccount: bankAccount
            case .bankBranch: bankBranch
            case .accountType: accountType
            case .address: address
            case .city: city
            case .postalCode: postalCode
            case .beneficiaryBirthdate: beneficiaryBirthdate
            case .notificationURL: notificationURL
            case .comments: comments
            }
        }
        set {
            switch field {
            case .externalID: externalID = newValue
            case .country: country = newValue
            case .amount: amount = newValue
            case .currency: currency = newValue
            case .documentID: documentID = newValue
            case .documentType: documentType = newValue
            case .beneficiaryID: beneficiaryID = newValue
            case .beneficiaryName: beneficiaryName = newValue
            case .beneficiaryLastname: beneficiaryLastname = newValue
            case .email: email = newValue
            case .phone: phone = newValue
            case .bankCode: bankCode = newValue
            case .bankAccount: bankAccount = newValue
            case .bankBranch: bankBranch = newValue
            case .accountType: accountType = newValue
            case .address: address = newValue
            case .city: city = newValue
            case .postalCode: postalCode = newValue
            case .beneficiaryBirthdate: beneficiaryBirthdate = newValue
            case .notificationURL: notificationURL = newValue
            case .comments: comments = newValue
            }
        }
    }
}
