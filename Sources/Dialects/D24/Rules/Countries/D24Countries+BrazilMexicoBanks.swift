// Bank lists for Brazil (COMPE codes plus D24's PIX key codes) and Mexico (Banxico codes, the
// first three digits of a CLABE): D24's Cashouts docs (docs.d24.com), "Countries validations" (Brazil, Mexico) and
// "Cashout Bank Codes".

extension D24Countries {
    /// Brazil: the banks of D24's Brazil account table plus well-known COMPE codes, and the PIX
    /// pseudo-banks 10000 (phone key), 10001 (e-mail key), 10002 (CPF key).
    static let brazilBanks: [D24Bank] = [
        D24Bank(1, "Banco do Brasil"), D24Bank(3, "Banco da Amazônia"),
        D24Bank(4, "Banco do Nordeste"), D24Bank(21, "Banestes"), D24Bank(33, "Santander"),
        D24Bank(37, "Banpará"), D24Bank(41, "Banrisul"), D24Bank(47, "Banese"),
        D24Bank(70, "BRB - Banco de Brasília"), D24Bank(77, "Banco Inter"),
        D24Bank(85, "Cooperativa Central Ailos"), D24Bank(104, "Caixa Econômica Federal"),
        D24Bank(121, "Agibank"), D24Bank(136, "Unicred"), D24Bank(197, "Stone"),
        D24Bank(208, "BTG Pactual"), D24Bank(212, "Banco Original"), D24Bank(218, "Banco BS2"),
        D24Bank(237, "Bradesco"), D24Bank(260, "Nu Pagamentos (Nubank)"),
        D24Bank(290, "PagSeguro (PagBank)"), D24Bank(318, "Banco BMG"),
        D24Bank(323, "Mercado Pago"), D24Bank(336, "C6 Bank"), D24Bank(341, "Itaú Unibanco"),
        D24Bank(380, "PicPay"), D24Bank(389, "Banco Mercantil do Brasil"), D24Bank(403, "Cora"),
        D24Bank(422, "Banco Safra"), D24Bank(536, "Neon Pagamentos"), D24Bank(623, "Banco Pan"),
        D24Bank(633, "Banco Rendimento"), D24Bank(637, "Banco Sofisa"),
        D24Bank(655, "Banco Votorantim (BV)"), D24Bank(707, "Banco Daycoval"),
        D24Bank(745, "Citibank"), D24Bank(748, "Sicredi"), D24Bank(756, "Sicoob"),
        D24Bank(pixPhoneKey, "PIX - Phone key"), D24Bank(pixEmailKey, "PIX - Email key"),
        D24Bank(pixCPFKey, "PIX - CPF key"),
    ]

    /// Brazil's PIX phone-key pseudo-bank: the key is `phone`.
    static let pixPhoneKey = 10000
    /// Brazil's PIX e-mail-key pseudo-bank: the key is `email`.
    static let pixEmailKey = 10001
    /// Brazil's PIX CPF-key pseudo-bank: the key is `document_id`.
    static let pixCPFKey = 10002

    /// Mexico: Banxico participant codes (a CLABE starts with one of them).
    static let mexicoBanks: [D24Bank] = [
        D24Bank(2, "Banamex"), D24Bank(6, "Bancomext"), D24Bank(9, "Banobras"),
        D24Bank(12, "BBVA México"), D24Bank(14, "Santander"), D24Bank(19, "Banjercito"),
        D24Bank(21, "HSBC"), D24Bank(30, "Banco del Bajío"), D24Bank(36, "Inbursa"),
        D24Bank(42, "Mifel"), D24Bank(44, "Scotiabank"), D24Bank(58, "Banregio"),
        D24Bank(59, "Invex"), D24Bank(60, "Bansi"), D24Bank(62, "Afirme"),
        D24Bank(72, "Banorte"), D24Bank(106, "Bank of America"), D24Bank(108, "MUFG"),
        D24Bank(110, "JP Morgan"), D24Bank(112, "Monex"), D24Bank(113, "Ve por Más"),
        D24Bank(127, "Banco Azteca"), D24Bank(128, "Autofin"), D24Bank(129, "Barclays"),
        D24Bank(130, "Compartamos"), D24Bank(132, "Multiva"), D24Bank(133, "Actinver"),
        D24Bank(135, "Nafin"), D24Bank(136, "Intercam Banco"), D24Bank(137, "BanCoppel"),
        D24Bank(138, "ABC Capital"), D24Bank(140, "Consubanco"), D24Bank(141, "Volkswagen Bank"),
        D24Bank(143, "CIBanco"), D24Bank(145, "Bbase"), D24Bank(147, "Bankaool"),
        D24Bank(148, "PagaTodo"), D24Bank(150, "Inmobiliario Mexicano"), D24Bank(151, "Donde"),
        D24Bank(152, "Bancrea"), D24Bank(154, "Banco Covalto"), D24Bank(155, "ICBC"),
        D24Bank(156, "Sabadell"), D24Bank(157, "Shinhan"), D24Bank(158, "Mizuho Bank"),
        D24Bank(159, "Bank of China"), D24Bank(160, "Banco S3"),
        D24Bank(166, "Banco del Bienestar"), D24Bank(168, "Sociedad Hipotecaria Federal"),
        D24Bank(638, "Nu México"), D24Bank(646, "STP"), D24Bank(722, "Mercado Pago W"),
        D24Bank(728, "Spin by OXXO"),
    ]
}
