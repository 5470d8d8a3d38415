// Bank lists for Argentina (BCRA entity codes, the first three digits of a CBU; 000 for CVU
// virtual accounts; 998 iCash) and Chile (the codes on the D24 Chile page): D24's Cashouts docs (docs.d24.com),
// "Countries validations" (Argentina, Chile) and "Cashout Bank Codes".

extension D24Countries {
    /// Argentina: BCRA entity codes, plus 000 (CVU, virtual accounts) and 998 (iCash).
    static let argentinaBanks: [D24Bank] = [
        D24Bank(0, "CVU - Cuentas virtuales"), D24Bank(7, "Banco de Galicia"),
        D24Bank(11, "Banco de la Nación Argentina"),
        D24Bank(14, "Banco de la Provincia de Buenos Aires"), D24Bank(15, "ICBC Argentina"),
        D24Bank(17, "BBVA Argentina"), D24Bank(20, "Banco de la Provincia de Córdoba"),
        D24Bank(27, "Banco Supervielle"), D24Bank(29, "Banco de la Ciudad de Buenos Aires"),
        D24Bank(34, "Banco Patagonia"), D24Bank(44, "Banco Hipotecario"),
        D24Bank(45, "Banco de San Juan"), D24Bank(60, "Banco del Tucumán"),
        D24Bank(65, "Banco Municipal de Rosario"), D24Bank(72, "Banco Santander Argentina"),
        D24Bank(83, "Banco del Chubut"), D24Bank(86, "Banco de Santa Cruz"),
        D24Bank(93, "Banco de La Pampa"), D24Bank(94, "Banco de Corrientes"),
        D24Bank(97, "Banco Provincia del Neuquén"), D24Bank(143, "Brubank"),
        D24Bank(150, "HSBC Argentina"), D24Bank(191, "Banco Credicoop"),
        D24Bank(259, "Banco Itaú Argentina"), D24Bank(285, "Banco Macro"),
        D24Bank(299, "Banco Comafi"), D24Bank(300, "Banco de Inversión y Comercio Exterior (BICE)"),
        D24Bank(301, "Banco Piano"), D24Bank(309, "Banco Rioja"),
        D24Bank(311, "Nuevo Banco del Chaco"), D24Bank(315, "Banco de Formosa"),
        D24Bank(321, "Banco de Santiago del Estero"), D24Bank(322, "Banco Industrial"),
        D24Bank(330, "Nuevo Banco de Santa Fe"), D24Bank(384, "Wilobank"),
        D24Bank(386, "Nuevo Banco de Entre Ríos"), D24Bank(iCash, "iCash"),
    ]

    /// Argentina's iCash: the beneficiary is identified by `email`.
    static let iCash = 998

    /// Chile: the D24 Chile page's list.
    static let chileBanks: [D24Bank] = [
        D24Bank(1, "Banco de Chile / Edwards / Citi"), D24Bank(9, "Banco Internacional"),
        D24Bank(12, "Banco del Estado de Chile"), D24Bank(14, "Scotiabank"),
        D24Bank(16, "Banco de Crédito e Inversiones (BCI)"), D24Bank(27, "Corpbanca"),
        D24Bank(28, "Banco Bice"), D24Bank(31, "HSBC Bank"), D24Bank(37, "Banco Santander"),
        D24Bank(39, "Banco Itaú"), D24Bank(46, "ABN Amro Bank"), D24Bank(49, "Banco Security"),
        D24Bank(51, "Banco Falabella"), D24Bank(52, "Deutsche Bank"), D24Bank(53, "Banco Ripley"),
        D24Bank(54, "Rabobank"), D24Bank(55, "Banco Consorcio"), D24Bank(56, "Banco Penta"),
        D24Bank(57, "Banco Paris"), D24Bank(116, "BCI (Mach)"), D24Bank(504, "BBVA"),
        D24Bank(507, "Banco del Desarrollo"),
    ]
}
