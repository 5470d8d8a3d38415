import SandboxProtobuf

// Prism's payouts.proto: PayoutEnums (status, recipient type and priority, nested in an empty
// message as Prism declares them), PayoutAddress, the payout method data (+PayoutMethods.swift),
// and each RPC's request and response, in payouts.proto's order (Protos/payouts.proto).

extension PrismProtos {
    /// `payouts.proto`: imports payment.proto and payment_methods.proto.
    static let payouts = ProtoFile(
        name: "payouts.proto", package: "types", dependencies: ["payment.proto", "payment_methods.proto"],
        messages: [payoutEnums, payoutAddress] + payoutMethodMessages + rpcMessages)

    /// Prism's home for the payout enums: a message with no fields.
    private static let payoutEnums = MessageSchema("types.PayoutEnums", [], enums: [
        EnumSchema("types.PayoutEnums.PayoutStatus", [
            "PAYOUT_STATUS_UNSPECIFIED": 0, "SUCCESS": 1, "FAILED": 2, "CANCELLED": 3, "INITIATED": 4, "EXPIRED": 5,
            "REVERSED": 6, "PENDING": 7, "INELIGIBLE": 8, "REQUIRES_CREATION": 9, "REQUIRES_CONFIRMATION": 10,
            "REQUIRES_PAYOUT_METHOD_DATA": 11, "REQUIRES_FULFILLMENT": 12, "REQUIRES_VENDOR_ACCOUNT_CREATION": 13
        ]),
        EnumSchema("types.PayoutEnums.PayoutRecipientType", [
            "PAYOUT_RECIPIENT_TYPE_UNSPECIFIED": 0, "INDIVIDUAL": 1, "COMPANY": 2, "NON_PROFIT": 3, "PUBLIC_SECTOR": 4,
            "NATURAL_PERSON": 5, "BUSINESS": 6, "PERSONAL": 7
        ]),
        EnumSchema("types.PayoutEnums.PayoutPriority", [
            "PAYOUT_PRIORITY_UNSPECIFIED": 0, "INSTANT": 1, "FAST": 2, "REGULAR": 3, "WIRE": 4, "CROSS_BORDER": 5,
            "INTERNAL": 6
        ]),
    ])

    private static let payoutAddress = MessageSchema("types.PayoutAddress", [
        FieldSchema(1, "shipping_address", .message("types.Address")),
        FieldSchema(2, "billing_address", .message("types.Address")),
    ])

    /// Create's fields, which CreateLink's request has too, with the same numbers.
    private static let createFields = [
        FieldSchema(1, "merchant_payout_id", .string, .optional),
        FieldSchema(2, "address", .message("types.PayoutAddress")),
        FieldSchema(3, "connector_feature_data", .message("types.SecretString"), .optional),
        FieldSchema(4, "payout_method_data", .message("types.PayoutMethod"), .optional),
        FieldSchema(5, "connector_quote_id", .string, .optional),
        FieldSchema(6, "connector_payout_id", .string, .optional),
        FieldSchema(7, "amount", .message("types.Money")),
        FieldSchema(8, "destination_currency", .enumeration("types.Currency")),
        FieldSchema(9, "customer", .message("types.Customer"), .optional),
        FieldSchema(10, "priority", .enumeration("types.PayoutEnums.PayoutPriority"), .optional),
        FieldSchema(11, "connector_payout_method_id", .string, .optional),
        FieldSchema(12, "webhook_url", .string, .optional),
        FieldSchema(13, "browser_info", .message("types.BrowserInformation"), .optional),
        FieldSchema(14, "access_token", .message("types.SecretString"), .optional),
    ]

    /// Each RPC's request and response, in payouts.proto's order.
    private static let rpcMessages: [MessageSchema] = [
        MessageSchema("types.PayoutServiceCreateRequest", createFields),
        payoutResponse("types.PayoutServiceCreateResponse"),
        MessageSchema("types.PayoutServiceTransferRequest", [
            FieldSchema(1, "merchant_payout_id", .string, .optional),
            FieldSchema(2, "address", .message("types.PayoutAddress")),
            FieldSchema(3, "payout_method_data", .message("types.PayoutMethod"), .optional),
            FieldSchema(4, "connector_quote_id", .string, .optional),
            FieldSchema(5, "amount", .message("types.Money")),
            FieldSchema(6, "connector_payout_id", .string, .optional),
            FieldSchema(7, "destination_currency", .enumeration("types.Currency")),
            FieldSchema(8, "customer", .message("types.Customer"), .optional),
            FieldSchema(9, "priority", .enumeration("types.PayoutEnums.PayoutPriority"), .optional),
            FieldSchema(10, "connector_payout_method_id", .string, .optional),
            FieldSchema(11, "webhook_url", .string, .optional),
            FieldSchema(12, "browser_info", .message("types.BrowserInformation"), .optional),
            FieldSchema(13, "access_token", .message("types.SecretString"), .optional),
        ]),
        payoutResponse("types.PayoutServiceTransferResponse"),
        MessageSchema("types.PayoutServiceStageRequest", [
            FieldSchema(1, "merchant_quote_id", .string, .optional),
            FieldSchema(2, "address", .message("types.PayoutAddress")),
            FieldSchema(3, "amount", .message("types.Money")),
            FieldSchema(4, "destination_currency", .enumeration("types.Currency")),
            FieldSchema(5, "customer", .message("types.Customer"), .optional),
            FieldSchema(6, "browser_info", .message("types.BrowserInformation"), .optional),
            FieldSchema(7, "access_token", .message("types.SecretString"), .optional),
        ]),
        payoutResponse("types.PayoutServiceStageResponse"),
        MessageSchema("types.PayoutServiceGetRequest", [
            FieldSchema(1, "merchant_payout_id", .string, .optional),
            FieldSchema(2, "connector_payout_id", .string, .optional),
            FieldSchema(3, "access_token", .message("types.SecretString"), .optional),
        ]),
        payoutResponse("types.PayoutServiceGetResponse"),
        MessageSchema("types.PayoutServiceVoidRequest", [
            FieldSchema(1, "merchant_payout_id", .string, .optional),
            FieldSchema(2, "address", .message("types.PayoutAddress")),
            FieldSchema(3, "connector_feature_data", .message("types.SecretString"), .optional),
            FieldSchema(4, "connector_payout_id", .string, .optional),
            FieldSchema(5, "access_token", .message("types.SecretString"), .optional),
        ]),
        payoutResponse("types.PayoutServiceVoidResponse"),
        MessageSchema("types.PayoutServiceCreateLinkRequest", createFields),
        payoutResponse("types.PayoutServiceCreateLinkResponse"),
        MessageSchema("types.PayoutServiceCreateRecipientRequest", [
            FieldSchema(1, "merchant_payout_id", .string, .optional),
            FieldSchema(2, "address", .message("types.PayoutAddress")),
            FieldSchema(3, "payout_method_data", .message("types.PayoutMethod"), .optional),
            FieldSchema(4, "amount", .message("types.Money")),
            FieldSchema(5, "recipient_type", .enumeration("types.PayoutEnums.PayoutRecipientType")),
            FieldSchema(6, "customer", .message("types.Customer"), .optional),
            FieldSchema(7, "access_token", .message("types.SecretString"), .optional),
        ]),
        payoutResponse("types.PayoutServiceCreateRecipientResponse"),
        MessageSchema("types.PayoutServiceEnrollDisburseAccountRequest", [
            FieldSchema(1, "merchant_payout_id", .string, .optional),
            FieldSchema(2, "address", .message("types.PayoutAddress")),
            FieldSchema(3, "payout_method_data", .message("types.PayoutMethod"), .optional),
            FieldSchema(4, "amount", .message("types.Money")),
            FieldSchema(5, "customer", .message("types.Customer"), .optional),
            FieldSchema(6, "access_token", .message("types.SecretString"), .optional),
        ]),
        payoutResponse("types.PayoutServiceEnrollDisburseAccountResponse"),
    ]

    /// Every PayoutService response has the same five fields; `status_code` is the HTTP status
    /// the connector answered with.
    private static func payoutResponse(_ fullName: String) -> MessageSchema {
        MessageSchema(fullName, [
            FieldSchema(1, "merchant_payout_id", .string, .optional),
            FieldSchema(2, "payout_status", .enumeration("types.PayoutEnums.PayoutStatus"), .optional),
            FieldSchema(3, "connector_payout_id", .string, .optional),
            FieldSchema(4, "error", .message("types.ErrorInfo"), .optional),
            FieldSchema(5, "status_code", .uint32),
        ])
    }
}
