import SandboxProtobuf

// Prism's payment_methods.proto, the part PayoutService reaches: the SecretString and
// CardNumberType wrappers and the bank, card network and country enums (Protos/payment_methods.proto).

extension PrismProtos {
    /// `payment_methods.proto`: imports nothing.
    static let paymentMethods = ProtoFile(
        name: "payment_methods.proto", package: "types",
        messages: [
            MessageSchema("types.SecretString", [FieldSchema(1, "value", .string)]),
            MessageSchema("types.CardNumberType", [FieldSchema(1, "value", .string)]),
        ],
        enums: [
            EnumSchema("types.BankNames", [
                "BANK_NAMES_UNSPECIFIED": 0, "AmericanExpress": 1, "AffinBank": 2, "AgroBank": 3, "AllianceBank": 4, "AmBank": 5,
                "BankOfAmerica": 6, "BankOfChina": 7, "BankIslam": 8, "BankMuamalat": 9, "BankRakyat": 10,
                "BankSimpananNasional": 11, "Barclays": 12, "BlikPSP": 13, "CapitalOne": 14, "Chase": 15, "Citi": 16,
                "CimbBank": 17, "Discover": 18, "NavyFederalCreditUnion": 19, "PentagonFederalCreditUnion": 20,
                "SynchronyBank": 21, "WellsFargo": 22, "AbnAmro": 23, "AsnBank": 24, "Bunq": 25, "Handelsbanken": 26,
                "HongLeongBank": 27, "HsbcBank": 28, "Ing": 29, "Knab": 30, "KuwaitFinanceHouse": 31, "Moneyou": 32,
                "Rabobank": 33, "Regiobank": 34, "Revolut": 35, "SnsBank": 36, "TriodosBank": 37, "VanLanschot": 38,
                "ArzteUndApothekerBank": 39, "AustrianAnadiBankAg": 40, "BankAustria": 41, "Bank99Ag": 42,
                "BankhausCarlSpangler": 43, "BankhausSchelhammerUndSchatteraAg": 44, "BankMillennium": 45, "BawagPskAg": 47,
                "BksBankAg": 48, "BrullKallmusBankAg": 49, "BtvVierLanderBank": 50, "CapitalBankGraweGruppeAg": 51,
                "CeskaSporitelna": 52, "Dolomitenbank": 53, "EasybankAg": 54, "EPlatbyVUB": 55, "ErsteBankUndSparkassen": 56,
                "FrieslandBank": 57, "HypoAlpeadriabankInternationalAg": 58, "HypoNoeLbFurNiederosterreichUWien": 59,
                "HypoOberosterreichSalzburgSteiermark": 60, "HypoTirolBankAg": 61, "HypoVorarlbergBankAg": 62,
                "HypoBankBurgenlandAktiengesellschaft": 63, "KomercniBanka": 64, "MBank": 65, "MarchfelderBank": 66, "Maybank": 67,
                "OberbankAg": 68, "OsterreichischeArzteUndApothekerbank": 69, "OcbcBank": 70, "PayWithING": 71, "PlaceZIPKO": 72,
                "PlatnoscOnlineKartaPlatnicza": 73, "PosojilnicaBankEGen": 74, "PostovaBanka": 75, "PublicBank": 76,
                "RaiffeisenBankengruppeOsterreich": 77, "RhbBank": 78, "SchelhammerCapitalBankAg": 79, "StandardCharteredBank": 80,
                "SchoellerbankAg": 81, "SpardaBankWien": 82, "SporoPay": 83, "SantanderPrzelew24": 84, "TatraPay": 85, "Viamo": 86,
                "VolksbankGruppe": 87, "VolkskreditbankAg": 88, "VrBankBraunau": 89, "UobBank": 90, "PayWithAliorBank": 91,
                "BankiSpoldzielcze": 92, "PayWithInteligo": 93, "BNPParibasPoland": 94, "BankNowySA": 95, "CreditAgricole": 96,
                "PayWithBOS": 97, "PayWithCitiHandlowy": 98, "PayWithPlusBank": 99, "ToyotaBank": 100, "VeloBank": 101,
                "ETransferPocztowy24": 102, "PlusBank": 103, "BankiSpbdzielcze": 105, "BankNowyBfgSa": 106, "GetinBank": 107,
                "BlikPoland": 108, "NoblePay": 109, "IdeaBank": 110, "EnveloBank": 111, "NestPrzelew": 112, "MbankMtransfer": 113,
                "Inteligo": 114, "PbacZIpko": 115, "BnpParibas": 116, "BankPekaoSa": 117, "VolkswagenBank": 118, "AliorBank": 119,
                "Boz": 120, "BangkokBank": 121, "KrungsriBank": 122, "KrungThaiBank": 123, "TheSiamCommercialBank": 124,
                "KasikornBank": 125, "OpenBankSuccess": 126, "OpenBankFailure": 127, "OpenBankCancelled": 128, "Aib": 129,
                "BankOfScotland": 130, "DanskeBank": 131, "FirstDirect": 132, "FirstTrust": 133, "Halifax": 134, "Lloyds": 135,
                "Monzo": 136, "NatWest": 137, "NationwideBank": 138, "RoyalBankOfScotland": 139, "Starling": 140, "TsbBank": 141,
                "TescoBank": 142, "UlsterBank": 143, "Yoursafe": 144, "N26": 145, "NationaleNederlanden": 146, "StateBank": 147,
                "HdfcBank": 148, "IciciBank": 149, "AxisBank": 150, "KotakMahindraBank": 151, "PunjabNationalBank": 152,
                "BankOfBaroda": 153, "UnionBankOfIndia": 154, "CanaraBank": 155, "IndusIndBank": 156, "YesBank": 157,
                "IdbiBank": 158, "FederalBank": 159, "IndianOverseasBank": 160, "CentralBankOfIndia": 161, "Absa": 162
            ]),
            EnumSchema("types.CardNetwork", [
                "CARD_NETWORK_UNSPECIFIED": 0, "VISA": 1, "MASTERCARD": 2, "AMEX": 3, "DISCOVER": 4, "JCB": 5, "DINERS": 6,
                "UNIONPAY": 7, "MAESTRO": 8, "CARTES_BANCAIRES": 9, "RUPAY": 10, "INTERAC_CARD": 11, "STAR": 12, "PULSE": 13,
                "ACCEL": 14, "NYCE": 15
            ]),
            EnumSchema("types.CountryAlpha2", [
                "COUNTRY_ALPHA2_UNSPECIFIED": 0, "US": 1, "AF": 2, "AX": 3, "AL": 4, "DZ": 5, "AS": 6, "AD": 7, "AO": 8, "AI": 9,
                "AQ": 10, "AG": 11, "AR": 12, "AM": 13, "AW": 14, "AU": 15, "AT": 16, "AZ": 17, "BS": 18, "BH": 19, "BD": 20,
                "BB": 21, "BY": 22, "BE": 23, "BZ": 24, "BJ": 25, "BM": 26, "BT": 27, "BO": 28, "BQ": 29, "BA": 30, "BW": 31,
                "BV": 32, "BR": 33, "IO": 34, "BN": 35, "BG": 36, "BF": 37, "BI": 38, "KH": 39, "CM": 40, "CA": 41, "CV": 42,
                "KY": 43, "CF": 44, "TD": 45, "CL": 46, "CN": 47, "CX": 48, "CC": 49, "CO": 50, "KM": 51, "CG": 52, "CD": 53,
                "CK": 54, "CR": 55, "CI": 56, "HR": 57, "CU": 58, "CW": 59, "CY": 60, "CZ": 61, "DK": 62, "DJ": 63, "DM": 64,
                "DO": 65, "EC": 66, "EG": 67, "SV": 68, "GQ": 69, "ER": 70, "EE": 71, "ET": 72, "FK": 73, "FO": 74, "FJ": 75,
                "FI": 76, "FR": 77, "GF": 78, "PF": 79, "TF": 80, "GA": 81, "GM": 82, "GE": 83, "DE": 84, "GH": 85, "GI": 86,
                "GR": 87, "GL": 88, "GD": 89, "GP": 90, "GU": 91, "GT": 92, "GG": 93, "GN": 94, "GW": 95, "GY": 96, "HT": 97,
                "HM": 98, "VA": 99, "HN": 100, "HK": 101, "HU": 102, "IS": 103, "IN": 104, "ID": 105, "IR": 106, "IQ": 107,
                "IE": 108, "IM": 109, "IL": 110, "IT": 111, "JM": 112, "JP": 113, "JE": 114, "JO": 115, "KZ": 116, "KE": 117,
                "KI": 118, "KP": 119, "KR": 120, "KW": 121, "KG": 122, "LA": 123, "LV": 124, "LB": 125, "LS": 126, "LR": 127,
                "LY": 128, "LI": 129, "LT": 130, "LU": 131, "MO": 132, "MK": 133, "MG": 134, "MW": 135, "MY": 136, "MV": 137,
                "ML": 138, "MT": 139, "MH": 140, "MQ": 141, "MR": 142, "MU": 143, "YT": 144, "MX": 145, "FM": 146, "MD": 147,
                "MC": 148, "MN": 149, "ME": 150, "MS": 151, "MA": 152, "MZ": 153, "MM": 154, "NA": 155, "NR": 156, "NP": 157,
                "NL": 158, "NC": 159, "NZ": 160, "NI": 161, "NE": 162, "NG": 163, "NU": 164, "NF": 165, "MP": 166, "NO": 167,
                "OM": 168, "PK": 169, "PW": 170, "PS": 171, "PA": 172, "PG": 173, "PY": 174, "PE": 175, "PH": 176, "PN": 177,
                "PL": 178, "PT": 179, "PR": 180, "QA": 181, "RE": 182, "RO": 183, "RU": 184, "RW": 185, "BL": 186, "SH": 187,
                "KN": 188, "LC": 189, "MF": 190, "PM": 191, "VC": 192, "WS": 193, "SM": 194, "ST": 195, "SA": 196, "SN": 197,
                "RS": 198, "SC": 199, "SL": 200, "SG": 201, "SX": 202, "SK": 203, "SI": 204, "SB": 205, "SO": 206, "ZA": 207,
                "GS": 208, "SS": 209, "ES": 210, "LK": 211, "SD": 212, "SR": 213, "SJ": 214, "SZ": 215, "SE": 216, "CH": 217,
                "SY": 218, "TW": 219, "TJ": 220, "TZ": 221, "TH": 222, "TL": 223, "TG": 224, "TK": 225, "TO": 226, "TT": 227,
                "TN": 228, "TR": 229, "TM": 230, "TC": 231, "TV": 232, "UG": 233, "UA": 234, "AE": 235, "GB": 236, "UM": 237,
                "UY": 238, "UZ": 239, "VU": 240, "VE": 241, "VN": 242, "VG": 243, "VI": 244, "WF": 245, "EH": 246, "YE": 247,
                "ZM": 248, "ZW": 249
            ]),
        ])
}
