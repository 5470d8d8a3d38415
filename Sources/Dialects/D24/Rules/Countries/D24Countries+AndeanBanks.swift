// Bank lists for Colombia (D24's codes, with the Nequi/Daviplata wallets and the Efecty/Punto
// Red cash networks), Peru (CCI bank codes, Yape 901, Plin 902) and Ecuador (the D24 Ecuador
// page): D24's Cashouts docs (docs.d24.com), "Countries validations" (Colombia, Peru, Ecuador) and "Cashout Bank Codes".

extension D24Countries {
    /// Colombia: the D24 Colombia page's banks, plus wallets and cash networks.
    static let colombiaBanks: [D24Bank] = [
        D24Bank(1, "Banco de Bogotá"), D24Bank(2, "Banco Popular"),
        D24Bank(6, "Banco Itaú (ex Corpbanca)"), D24Bank(7, "Bancolombia"),
        D24Bank(8, "ABN AMRO"), D24Bank(9, "Citibank"), D24Bank(10, "HSBC"),
        D24Bank(12, "Banco GNB Sudameris"), D24Bank(13, "BBVA Colombia"),
        D24Bank(14, "Banco Itaú (Helm)"), D24Bank(19, "Scotiabank Colpatria"),
        D24Bank(23, "Banco de Occidente"), D24Bank(32, "Banco Caja Social"),
        D24Bank(40, "Banco Agrario"), D24Bank(51, "Davivienda"), D24Bank(52, "Banco AV Villas"),
        D24Bank(58, "Banco Procredit"), D24Bank(60, "Banco Pichincha"),
        D24Bank(61, "Bancoomeva"), D24Bank(62, "Banco Falabella"),
        D24Bank(nequi, "Nequi"), D24Bank(daviplata, "Daviplata"),
        D24Bank(efecty, "Efecty"), D24Bank(puntoRed, "Punto Red"),
    ]

    /// Colombia's Nequi wallet: `bank_account` is the customer's mobile.
    static let nequi = 1507
    /// Colombia's Daviplata wallet: `bank_account` is the customer's mobile.
    static let daviplata = 1551
    /// Colombia's Efecty cash network: no `bank_account`; `phone` required.
    static let efecty = 10003
    /// Colombia's Punto Red cash network: `phone` and `email` required.
    static let puntoRed = 10006

    /// Peru: CCI bank codes (a CCI starts with one), plus the Yape and Plin wallets.
    static let peruBanks: [D24Bank] = [
        D24Bank(2, "Banco de Crédito del Perú (BCP)"), D24Bank(3, "Interbank"),
        D24Bank(7, "Citibank"), D24Bank(9, "Scotiabank"), D24Bank(11, "BBVA"),
        D24Bank(18, "Banco de la Nación"), D24Bank(23, "Banco de Comercio"),
        D24Bank(35, "Banco Pichincha"), D24Bank(38, "BanBif"), D24Bank(49, "Mibanco"),
        D24Bank(53, "Banco GNB"), D24Bank(54, "Banco Falabella"), D24Bank(55, "Banco Ripley"),
        D24Bank(56, "Banco Santander Perú"), D24Bank(yape, "Yape"), D24Bank(plin, "Plin"),
    ]

    /// Peru's Yape wallet: no `bank_account`; `phone` required.
    static let yape = 901
    /// Peru's Plin wallet: no `bank_account`; `phone` required.
    static let plin = 902

    /// Ecuador: the D24 Ecuador page's list.
    static let ecuadorBanks: [D24Bank] = [
        D24Bank(1, "Banco Central del Ecuador"), D24Bank(10, "Banco Pichincha"),
        D24Bank(17, "Banco de Guayaquil"), D24Bank(24, "Citibank"), D24Bank(25, "Banco Machala"),
        D24Bank(29, "Banco de Loja"), D24Bank(30, "Banco del Pacífico"),
        D24Bank(32, "Banco Internacional"), D24Bank(34, "Banco Amazonas"),
        D24Bank(35, "Banco del Austro"), D24Bank(36, "Produbanco / Promerica"),
        D24Bank(37, "Banco Bolivariano"), D24Bank(39, "Banco Comercial de Manabí"),
        D24Bank(42, "Banco General Rumiñahui"), D24Bank(43, "Banco del Litoral"),
        D24Bank(59, "Banco Solidario"), D24Bank(60, "Banco Procredit"),
        D24Bank(61, "Banco Capital"), D24Bank(65, "Banco Desarrollo de los Pueblos"),
        D24Bank(66, "BanEcuador"), D24Bank(201, "Banco Delbank"),
    ]
}
