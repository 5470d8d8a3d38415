package import SandboxContract

/// PayoutService on the dashboard, in its own terms: a payout's Details card as its callers know
/// it (`connector_payout_id`, `merchant_payout_id`, `payout_status`, the metadata it was created
/// with, its method, amount and CreateLink page), the PayoutService view (`#/payoutservice`: the
/// merchants with the metadata their calls need, from `GET /sandbox/prism-merchants`), and a form
/// that calls Create or CreateLink over Connect JSON (`POST /types.PayoutService/<Method>`), as
/// curl does, showing the call as a curl command. Its status words come with each payout from the
/// admin API (`PrismDialect.statusWord`). Its element ids start with `prism-`. Its files: Dashboard/ in this target.
enum PrismDashboard {
    static let part = DashboardPart(form: form, views: [merchantsView], style: style, script: script)

    /// The RPCs the form calls: both create a payout from an amount.
    static let operations = [PrismOperation.create, PrismOperation.createLink]
    static let methods = operations.compactMap(\.grpcMethod)

    /// What its files' placeholders stand for: its fields', headers' and admin path's names from
    /// the dialect's own constants (so the page and the API never disagree), its currencies'
    /// decimals, the RPCs (`RPC_OPERATIONS`: the operation of each, by its name) and the form's footer.
    static let values: [String: String] = [
        "FIELD_CONNECTOR": Field.connector, "FIELD_DESTINATION_CURRENCY": Field.destinationCurrency, "FIELD_LINK": Field.link,
        "FIELD_LINK_EXPIRES_AT": Field.linkExpiresAt, "FIELD_METHOD": Field.method, "FIELD_METHOD_ID": Field.methodID,
        "FIELD_PRIORITY": Field.priority, "FIELD_RECIPIENT_NAME": Field.recipientName, "FIELD_REQUEST_ID": Field.requestID,
        "FIELD_TENANT": Field.tenant,
        "HEADER_API_KEY": Header.apiKey, "HEADER_AUTH": Header.auth, "HEADER_CONNECTOR": Header.connector, "HEADER_MERCHANT_ID": Header.merchantID,
        "HEADER_REQUEST_ID": Header.requestID, "HEADER_TENANT_ID": Header.tenantID, "HEADER_API_SECRET": Header.apiSecret, "HEADER_KEY1": Header.key1,
        "LINK_HEADER": PrismLinks.header, "MERCHANTS_LIST": PrismMerchant.kind.legacyOperations!.list.id,
        "ZERO_DECIMAL": list(PrismAmount.zeroDecimal.sorted()), "THREE_DECIMAL": list(PrismAmount.threeDecimal.sorted()),
        "RPC_OPERATIONS": "{" + operations.map { "\"\($0.grpcMethod ?? "")\": \"\($0.id)\"" }.joined(separator: ", ") + "}",
        "RPC_OPTIONS": methods.map { "<option>\($0)</option>" }.joined(),
        "FOOTER": DashboardPart.formFooter(prefix: "prism-new", requests: "Last call, as curl", submit: "Request payout"),
    ]
    private typealias Field = PrismPayout.Field
    private typealias Header = PrismCaller.Header

    /// A JavaScript array of strings.
    private static func list(_ words: some Sequence<String>) -> String { "[" + words.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }

    static let merchantsView = DashboardView(name: "payoutservice", title: "PayoutService",
                                             content: DashboardFile.text(PackageResources.merchants_html, filling: values))
    static let form = DashboardFile.text(PackageResources.form_html, filling: values)
    /// Its status words' colours (the words PENDING and CANCELLED are the sandbox's too).
    static let style = DashboardFile.text(PackageResources.style_css)
    /// Its payouts' Details card, the merchants view, and the form (Create or CreateLink over
    /// Connect JSON).
    static let script = DashboardFile.text(PackageResources.script_js, filling: values)
}

/// Its payouts' details, its merchants and a Create/CreateLink form.
extension PrismDialect: DashboardDialect {
    package var dashboard: DashboardPart { PrismDashboard.part }
}
