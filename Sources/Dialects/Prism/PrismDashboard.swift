import SandboxDashboard

/// PayoutService on the dashboard, in its own terms: a payout's Details card as its callers know
/// it (`connector_payout_id`, `merchant_payout_id`, `payout_status`, the metadata it was created
/// with, its method, amount and CreateLink page), the PayoutService view (`#/payoutservice`: the
/// merchants with the metadata their calls need, from `GET /sandbox/prism-merchants`), and a form
/// that calls Create or CreateLink over Connect JSON (`POST /types.PayoutService/<Method>`), as
/// curl does, showing the call as a curl command. Its status words come with each payout from the
/// admin API (`PrismDialect.statusWord`). Its element ids start with `prism-`.
enum PrismDashboard {
    static let part = DashboardPart(form: form, views: [merchantsView], style: style, script: script)

    /// The RPCs the form calls: both create a payout from an amount.
    static let methods = ["Create", "CreateLink"]

    static let merchantsView = DashboardView(name: "payoutservice", title: "PayoutService", content: #"""
            <h1>PayoutService <span class="muted">merchants</span></h1>
            <p class="muted lead">A call to <code>types.PayoutService</code> (gRPC, or Connect JSON: <code>POST /types.PayoutService/Create</code>) \#
        names its merchant in its metadata: <code>\#(PrismCaller.Header.merchantID)</code>, <code>\#(PrismCaller.Header.connector): sandbox</code>, \#
        <code>\#(PrismCaller.Header.auth): header-key</code> and <code>\#(PrismCaller.Header.apiKey)</code> (with <code>body-key</code> also \#
        <code>\#(PrismCaller.Header.key1)</code>, with <code>signature-key</code> also <code>\#(PrismCaller.Header.apiSecret)</code>).</p>
            <div class="table-wrap">
              <table class="list" id="prism-merchants-table" data-testid="prism-merchants-table">
                <thead><tr><th>\#(PrismCaller.Header.merchantID)</th><th class="hide-narrow">\#(PrismCaller.Header.apiKey)</th>\#
        <th class="hide-narrow">\#(PrismCaller.Header.key1)</th><th class="hide-narrow">\#(PrismCaller.Header.apiSecret)</th>\#
        <th class="num">Balance</th><th class="hide-narrow">Limits</th><th>Ledger</th></tr></thead>
                <tbody id="prism-merchants-body" data-testid="prism-merchants-body"></tbody>
              </table>
            </div>
            <p id="prism-merchants-empty" data-testid="prism-merchants-empty" class="empty" hidden>No PayoutService merchants.</p>
        """#)

    static let form = #"""
            <form id="prism-new-form" data-testid="prism-new-form" class="card form">
              <div class="wide">
                <h2>PayoutService (Hyperswitch Prism)</h2>
                <p class="muted">Calls <code>POST /types.PayoutService/Create</code> (or <code>CreateLink</code>, \#
        whose recipient enters the method on the page it answers) with Connect's JSON and the merchant's metadata, as curl does. \#
        Amounts are <code>minor_amount</code>s. Magic recipient names (a prefix): <code>FAIL</code>, <code>REVERSE</code>, <code>STUCK</code>, \#
        <code>DECLINE</code>.</p>
              </div>
              <label>RPC <select name="rpc" id="prism-new-rpc" \#
        data-testid="prism-new-rpc">\#(methods.map { "<option>\($0)</option>" }.joined())</select></label>
              <label>\#(PrismCaller.Header.merchantID) <select name="merchant" id="prism-new-merchant" data-testid="prism-new-merchant"></select>\#
        </label>
              <label>\#(PrismCaller.Header.apiKey) <input name="api_key" id="prism-new-api_key" data-testid="prism-new-api_key" required \#
        autocomplete="off"></label>
              <label>\#(PrismCaller.Header.connector) <input name="connector" id="prism-new-connector" data-testid="prism-new-connector" \#
        value="sandbox" required></label>
              <label>merchant_payout_id <input name="merchant_payout_id" id="prism-new-merchant_payout_id" \#
        data-testid="prism-new-merchant_payout_id" maxlength="100"></label>
              <label>amount.minor_amount <input name="minor_amount" id="prism-new-minor_amount" data-testid="prism-new-minor_amount" \#
        value="1000" required inputmode="numeric"></label>
              <label>amount.currency <input name="currency" id="prism-new-currency" data-testid="prism-new-currency" value="USD" required \#
        maxlength="3"></label>
              <label>payout_method_data <select name="method" id="prism-new-method" data-testid="prism-new-method"></select></label>
              <label>Recipient (customer.name) <input name="recipient" id="prism-new-recipient" data-testid="prism-new-recipient" value="Ana Silva">\#
        </label>
              <label class="wide">webhook_url <input name="webhook_url" id="prism-new-webhook_url" data-testid="prism-new-webhook_url" \#
        placeholder="empty: no notifications"></label>
        \#(DashboardPart.formFooter(prefix: "prism-new", requests: "Last call, as curl", submit: "Request payout"))
        """#

    /// Its status words' colours (the words PENDING and CANCELLED are the sandbox's too).
    static let style = """
        .badge.SUCCESS { background: #e1f5ec; color: var(--ok); }
        .badge.FAILED, .badge.REVERSED { background: #fde7e8; color: var(--bad); }
        .badge.INITIATED { background: #e4f0fb; color: var(--info); }
        .badge.REQUIRES_FULFILLMENT, .badge.REQUIRES_PAYOUT_METHOD_DATA { background: #fff4e0; color: var(--warn); }
        .lead { margin: 0 0 10px; }

        """
}

/// Its payouts' details, its merchants and a Create/CreateLink form.
extension PrismDialect: DashboardDialect {
    package var dashboard: DashboardPart { PrismDashboard.part }
}
