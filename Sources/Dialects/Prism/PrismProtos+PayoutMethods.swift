import SandboxProtobuf

// payouts.proto's payout method data: PayoutMethod, a oneof of the instruments a payout goes to,
// and one message per instrument, in the order payouts.proto declares them (Protos/payouts.proto).

extension PrismProtos {
    /// The instrument messages, then PayoutMethod.
    static let payoutMethodMessages: [MessageSchema] = [
        MessageSchema("types.CardPayout", [
            FieldSchema(1, "card_number", .message("types.CardNumberType")),
            FieldSchema(2, "card_exp_month", .message("types.SecretString")),
            FieldSchema(3, "card_exp_year", .message("types.SecretString")),
            FieldSchema(4, "card_holder_name", .message("types.SecretString"), .optional),
            FieldSchema(5, "card_network", .enumeration("types.CardNetwork"), .optional),
        ]),
        MessageSchema("types.AchBankTransferPayout", [
            FieldSchema(1, "bank_name", .enumeration("types.BankNames"), .optional),
            FieldSchema(2, "bank_country_code", .enumeration("types.CountryAlpha2"), .optional),
            FieldSchema(3, "bank_city", .string, .optional),
            FieldSchema(4, "bank_account_number", .message("types.SecretString"), .optional),
            FieldSchema(5, "bank_routing_number", .message("types.SecretString"), .optional),
        ]),
        MessageSchema("types.BacsBankTransferPayout", [
            FieldSchema(1, "bank_name", .enumeration("types.BankNames"), .optional),
            FieldSchema(2, "bank_country_code", .enumeration("types.CountryAlpha2"), .optional),
            FieldSchema(3, "bank_city", .string, .optional),
            FieldSchema(4, "bank_account_number", .message("types.SecretString"), .optional),
            FieldSchema(5, "bank_sort_code", .message("types.SecretString"), .optional),
        ]),
        MessageSchema("types.SepaBankTransferPayout", [
            FieldSchema(1, "bank_name", .enumeration("types.BankNames"), .optional),
            FieldSchema(2, "bank_country_code", .enumeration("types.CountryAlpha2"), .optional),
            FieldSchema(3, "bank_city", .string, .optional),
            FieldSchema(4, "iban", .message("types.SecretString")),
            FieldSchema(5, "bic", .message("types.SecretString"), .optional),
        ]),
        MessageSchema("types.PixBankTransferPayout", [
            FieldSchema(1, "bank_name", .enumeration("types.BankNames"), .optional),
            FieldSchema(2, "bank_branch", .string, .optional),
            FieldSchema(3, "bank_account_number", .message("types.SecretString")),
            FieldSchema(4, "pix_key", .message("types.SecretString")),
            FieldSchema(5, "tax_id", .message("types.SecretString"), .optional),
        ]),
        MessageSchema("types.ApplePayDecrypt", [
            FieldSchema(1, "dpan", .message("types.CardNumberType")),
            FieldSchema(2, "expiry_month", .message("types.SecretString")),
            FieldSchema(3, "expiry_year", .message("types.SecretString")),
            FieldSchema(4, "card_holder_name", .message("types.SecretString"), .optional),
            FieldSchema(5, "card_network", .enumeration("types.CardNetwork"), .optional),
        ]),
        MessageSchema("types.Paypal", [
            FieldSchema(1, "email", .message("types.SecretString"), .optional),
            FieldSchema(2, "telephone_number", .message("types.SecretString"), .optional),
            FieldSchema(3, "paypal_id", .message("types.SecretString"), .optional),
        ]),
        MessageSchema("types.Venmo", [FieldSchema(1, "telephone_number", .message("types.SecretString"), .optional)]),
        MessageSchema("types.InteracPayout", [FieldSchema(1, "email", .message("types.SecretString"), .optional)]),
        MessageSchema("types.OpenBankingUkPayout", [
            FieldSchema(1, "account_holder_name", .message("types.SecretString")),
            FieldSchema(2, "iban", .message("types.SecretString")),
        ]),
        MessageSchema("types.Passthrough", [
            FieldSchema(1, "psp_token", .string),
            FieldSchema(2, "token_type", .enumeration("types.PaymentMethodType")),
        ]),
        MessageSchema("types.PayoutMethod", [
            FieldSchema(1, "card", .message("types.CardPayout"), oneof: "payout_method_data"),
            FieldSchema(2, "ach", .message("types.AchBankTransferPayout"), oneof: "payout_method_data"),
            FieldSchema(3, "bacs", .message("types.BacsBankTransferPayout"), oneof: "payout_method_data"),
            FieldSchema(4, "sepa", .message("types.SepaBankTransferPayout"), oneof: "payout_method_data"),
            FieldSchema(5, "pix", .message("types.PixBankTransferPayout"), oneof: "payout_method_data"),
            FieldSchema(6, "apple_pay_decrypt", .message("types.ApplePayDecrypt"), oneof: "payout_method_data"),
            FieldSchema(7, "paypal", .message("types.Paypal"), oneof: "payout_method_data"),
            FieldSchema(8, "venmo", .message("types.Venmo"), oneof: "payout_method_data"),
            FieldSchema(9, "interac", .message("types.InteracPayout"), oneof: "payout_method_data"),
            FieldSchema(10, "open_banking_uk", .message("types.OpenBankingUkPayout"), oneof: "payout_method_data"),
            FieldSchema(11, "passthrough", .message("types.Passthrough"), oneof: "payout_method_data"),
        ]),
    ]
}
