import SandboxProtobuf

// Prism's payment.proto, the part PayoutService reaches: Money, the error details every response
// carries, the customer, address and browser messages, and the currency and payment method type
// enums (Protos/payment.proto).

extension PrismProtos {
    /// `payment.proto`: imports payment_methods.proto.
    static let payment = ProtoFile(
        name: "payment.proto", package: "types", dependencies: ["payment_methods.proto"],
        messages: [
            MessageSchema("types.Money", [
                FieldSchema(1, "minor_amount", .int64),
                FieldSchema(2, "currency", .enumeration("types.Currency")),
            ]),
            MessageSchema("types.ErrorInfo", [
                FieldSchema(1, "unified_details", .message("types.UnifiedErrorDetails"), .optional),
                FieldSchema(2, "issuer_details", .message("types.IssuerErrorDetails"), .optional),
                FieldSchema(3, "connector_details", .message("types.ConnectorErrorDetails"), .optional),
            ]),
            MessageSchema("types.UnifiedErrorDetails", [
                FieldSchema(1, "code", .string, .optional),
                FieldSchema(2, "message", .string, .optional),
                FieldSchema(3, "description", .string, .optional),
                FieldSchema(4, "user_guidance_message", .string, .optional),
            ]),
            MessageSchema("types.IssuerErrorDetails", [
                FieldSchema(1, "code", .string, .optional),
                FieldSchema(2, "message", .string, .optional),
                FieldSchema(3, "network_details", .message("types.NetworkErrorDetails"), .optional),
            ]),
            MessageSchema("types.NetworkErrorDetails", [
                FieldSchema(1, "advice_code", .string, .optional),
                FieldSchema(2, "decline_code", .string, .optional),
                FieldSchema(3, "error_message", .string, .optional),
            ]),
            MessageSchema("types.ConnectorErrorDetails", [
                FieldSchema(1, "code", .string, .optional),
                FieldSchema(2, "message", .string, .optional),
                FieldSchema(3, "reason", .string, .optional),
            ]),
            MessageSchema("types.Customer", [
                FieldSchema(1, "name", .string, .optional),
                FieldSchema(2, "email", .message("types.SecretString"), .optional),
                FieldSchema(3, "id", .string, .optional),
                FieldSchema(4, "connector_customer_id", .string, .optional),
                FieldSchema(5, "phone_number", .string, .optional),
                FieldSchema(6, "phone_country_code", .string, .optional),
            ]),
            MessageSchema("types.Address", [
                FieldSchema(1, "first_name", .message("types.SecretString"), .optional),
                FieldSchema(2, "last_name", .message("types.SecretString"), .optional),
                FieldSchema(3, "line1", .message("types.SecretString"), .optional),
                FieldSchema(4, "line2", .message("types.SecretString"), .optional),
                FieldSchema(5, "line3", .message("types.SecretString"), .optional),
                FieldSchema(6, "city", .message("types.SecretString"), .optional),
                FieldSchema(7, "state", .message("types.SecretString"), .optional),
                FieldSchema(8, "zip_code", .message("types.SecretString"), .optional),
                FieldSchema(9, "country_alpha2_code", .enumeration("types.CountryAlpha2"), .optional),
                FieldSchema(10, "email", .message("types.SecretString"), .optional),
                FieldSchema(11, "phone_number", .message("types.SecretString"), .optional),
                FieldSchema(12, "phone_country_code", .string, .optional),
            ]),
            MessageSchema("types.BrowserInformation", [
                FieldSchema(1, "color_depth", .uint32, .optional),
                FieldSchema(2, "screen_height", .uint32, .optional),
                FieldSchema(3, "screen_width", .uint32, .optional),
                FieldSchema(4, "java_enabled", .bool, .optional),
                FieldSchema(5, "java_script_enabled", .bool, .optional),
                FieldSchema(6, "language", .string, .optional),
                FieldSchema(7, "time_zone_offset_minutes", .int32, .optional),
                FieldSchema(8, "accept_header", .string, .optional),
                FieldSchema(9, "user_agent", .string, .optional),
                FieldSchema(10, "accept_language", .string, .optional),
                FieldSchema(11, "referer", .string, .optional),
                FieldSchema(12, "ip_address", .string, .optional),
                FieldSchema(13, "os_type", .string, .optional),
                FieldSchema(14, "os_version", .string, .optional),
                FieldSchema(15, "device_model", .string, .optional),
            ]),
        ],
        enums: [
            EnumSchema("types.Currency", [
                "CURRENCY_UNSPECIFIED": 0, "AED": 1, "AFN": 2, "ALL": 3, "AMD": 4, "ANG": 5, "AOA": 6, "ARS": 7, "AUD": 8,
                "AWG": 9, "AZN": 10, "BAM": 11, "BBD": 12, "BDT": 13, "BGN": 14, "BHD": 15, "BIF": 16, "BMD": 17, "BND": 18,
                "BOB": 19, "BRL": 20, "BSD": 21, "BTN": 22, "BWP": 23, "BYN": 24, "BZD": 25, "CAD": 26, "CDF": 27, "CHF": 28,
                "CLF": 29, "CLP": 30, "CNY": 31, "COP": 32, "CRC": 33, "CUC": 34, "CUP": 35, "CVE": 36, "CZK": 37, "DJF": 38,
                "DKK": 39, "DOP": 40, "DZD": 41, "EGP": 42, "ERN": 43, "ETB": 44, "EUR": 45, "FJD": 46, "FKP": 47, "GBP": 48,
                "GEL": 49, "GHS": 50, "GIP": 51, "GMD": 52, "GNF": 53, "GTQ": 54, "GYD": 55, "HKD": 56, "HNL": 57, "HRK": 58,
                "HTG": 59, "HUF": 60, "IDR": 61, "ILS": 62, "INR": 63, "IQD": 64, "IRR": 65, "ISK": 66, "JMD": 67, "JOD": 68,
                "JPY": 69, "KES": 70, "KGS": 71, "KHR": 72, "KMF": 73, "KPW": 74, "KRW": 75, "KWD": 76, "KYD": 77, "KZT": 78,
                "LAK": 79, "LBP": 80, "LKR": 81, "LRD": 82, "LSL": 83, "LYD": 84, "MAD": 85, "MDL": 86, "MGA": 87, "MKD": 88,
                "MMK": 89, "MNT": 90, "MOP": 91, "MRU": 92, "MUR": 93, "MVR": 94, "MWK": 95, "MXN": 96, "MYR": 97, "MZN": 98,
                "NAD": 99, "NGN": 100, "NIO": 101, "NOK": 102, "NPR": 103, "NZD": 104, "OMR": 105, "PAB": 106, "PEN": 107,
                "PGK": 108, "PHP": 109, "PKR": 110, "PLN": 111, "PYG": 112, "QAR": 113, "RON": 114, "RSD": 115, "RUB": 116,
                "RWF": 117, "SAR": 118, "SBD": 119, "SCR": 120, "SDG": 121, "SEK": 122, "SGD": 123, "SHP": 124, "SLE": 125,
                "SLL": 126, "SOS": 127, "SRD": 128, "SSP": 129, "STD": 130, "STN": 131, "SVC": 132, "SYP": 133, "SZL": 134,
                "THB": 135, "TJS": 136, "TMT": 137, "TND": 138, "TOP": 139, "TRY": 140, "TTD": 141, "TWD": 142, "TZS": 143,
                "UAH": 144, "UGX": 145, "USD": 146, "UYU": 147, "UZS": 148, "VES": 149, "VND": 150, "VUV": 151, "WST": 152,
                "XAF": 153, "XCD": 154, "XOF": 155, "XPF": 156, "YER": 157, "ZAR": 158, "ZMW": 159, "ZWL": 160
            ]),
            EnumSchema("types.PaymentMethodType", [
                "PAYMENT_METHOD_TYPE_UNSPECIFIED": 0, "ACH": 1, "AFFIRM": 2, "AFTERPAY_CLEARPAY": 3, "ALFAMART": 4, "ALI_PAY": 5,
                "ALI_PAY_HK": 6, "ALMA": 7, "AMAZON_PAY": 8, "APPLE_PAY": 9, "ATOME": 10, "BACS": 11, "BANCONTACT_CARD": 12,
                "BECS": 13, "BENEFIT": 14, "BIZUM": 15, "BLIK": 16, "BOLETO": 17, "BCA_BANK_TRANSFER": 18, "BNI_VA": 19,
                "BRI_VA": 20, "CARD_REDIRECT": 21, "CIMB_VA": 22, "CLASSIC_REWARD": 23, "CREDIT": 24, "CRYPTO_CURRENCY": 25,
                "CASHAPP": 26, "DANA": 27, "DANAMON_VA": 28, "DEBIT": 29, "DUIT_NOW": 30, "EFECTY": 31, "EFT": 32, "EPS": 33,
                "FPS": 34, "EVOUCHER": 35, "GIROPAY": 36, "GIVEX": 37, "GOOGLE_PAY": 38, "GO_PAY": 39, "GCASH": 40, "IDEAL": 41,
                "INTERAC": 42, "INDOMARET": 43, "KAKAO_PAY": 44, "LOCAL_BANK_REDIRECT": 45, "MANDIRI_VA": 46, "KNET": 47,
                "MB_WAY": 48, "MOBILE_PAY": 49, "MOMO": 50, "MOMO_ATM": 51, "MULTIBANCO": 52, "ONLINE_BANKING_THAILAND": 53,
                "ONLINE_BANKING_CZECH_REPUBLIC": 54, "ONLINE_BANKING_FINLAND": 55, "ONLINE_BANKING_FPX": 56,
                "ONLINE_BANKING_POLAND": 57, "ONLINE_BANKING_SLOVAKIA": 58, "OXXO": 59, "PAGO_EFECTIVO": 60,
                "PERMATA_BANK_TRANSFER": 61, "OPEN_BANKING_UK": 62, "PAY_BRIGHT": 63, "PAZE": 64, "PIX": 65, "PAY_SAFE_CARD": 66,
                "PRZELEWY24": 67, "PROMPT_PAY": 68, "PSE": 69, "RED_COMPRA": 70, "RED_PAGOS": 71, "SAMSUNG_PAY": 72, "SEPA": 73,
                "SEPA_BANK_TRANSFER": 74, "SOFORT": 75, "SWISH": 76, "TOUCH_N_GO": 77, "TRUSTLY_BANK_REDIRECT": 78, "TWINT": 79,
                "UPI_COLLECT": 80, "UPI_INTENT": 81, "UPI_QR": 82, "VIPPS": 83, "VIET_QR": 84, "VENMO": 85, "WALLEY": 86,
                "WE_CHAT_PAY": 87, "SEVEN_ELEVEN": 88, "LAWSON": 89, "MINI_STOP": 90, "FAMILY_MART": 91, "SEICOMART": 92,
                "PAY_EASY": 93, "LOCAL_BANK_TRANSFER": 94, "OPEN_BANKING_PIS": 95, "DIRECT_CARRIER_BILLING": 96,
                "INSTANT_BANK_TRANSFER": 97, "PAY_PAL": 98, "REVOLUT_PAY": 99, "INSTANT_BANK_TRANSFER_FINLAND": 100,
                "INSTANT_BANK_TRANSFER_POLAND": 101, "SATISPAY": 102, "WERO": 103, "NETWORK_TOKEN": 104, "NETBANKING": 105,
                "LAZY_PAY": 106, "PHONE_PE": 107, "BILL_DESK": 108, "CASH_FREE": 109, "PAY_U": 110, "EASE_BUZZ": 111,
                "OPEN_BANKING": 112
            ]),
        ])
}
