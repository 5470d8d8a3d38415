import SandboxD24Rules
import SandboxDashboard

/// D24's request form on the dashboard: the example Brazilian cashout's fields, sent as a signed
/// `POST /v3/cashout` (the signature computed in the page with the chosen merchant's secret). The
/// first API's form, it keeps the ids `new-...` it had when it was the only one.
enum D24DashboardForm {
    static let part = DashboardPart(form: form, script: script)

    static let form = """
            <form id="new-form" data-testid="new-form" class="card form">
              <div class="wide">
                <h2>D24 Cashouts v3</h2>
                <p class="muted">Sends a signed <code>POST /v3/cashout</code> (the <code>Payload-Signature</code> is computed here with the \
        merchant's secret). Magic beneficiary names: <code>REJECT 801</code>, <code>LATE REJECT 826</code>, <code>KYC 105</code>, \
        <code>STUCK</code>, <code>NEVER</code>, <code>SLOW</code>.</p>
              </div>
              <label>Merchant <select name="merchant" id="new-merchant" data-testid="new-merchant"></select></label>
              <label>External ID <input name="external_id" id="new-external_id" data-testid="new-external_id" required maxlength="100"></label>
              <label>Country <input name="country" id="new-country" data-testid="new-country" value="\(D24Example.value("country"))" required \
        maxlength="2"></label>
              <label>Currency <input name="currency" id="new-currency" data-testid="new-currency" value="\(D24Example.value("currency"))" required \
        maxlength="3"></label>
              <label>Amount <input name="amount" id="new-amount" data-testid="new-amount" value="\(D24Example.value("amount"))" required \
        inputmode="decimal"></label>
              <label>Document ID <input name="document_id" id="new-document_id" data-testid="new-document_id" \
        value="\(D24Example.value("document_id"))"></label>
              <label>Document type <input name="document_type" id="new-document_type" data-testid="new-document_type" \
        value="\(D24Example.value("document_type"))"></label>
              <label>Beneficiary name <input name="beneficiary_name" id="new-beneficiary_name" data-testid="new-beneficiary_name" \
        value="\(D24Example.value("beneficiary_name"))"></label>
              <label>Beneficiary last name <input name="beneficiary_lastname" id="new-beneficiary_lastname" data-testid="new-beneficiary_lastname" \
        value="\(D24Example.value("beneficiary_lastname"))"></label>
              <label>Bank code <input name="bank_code" id="new-bank_code" data-testid="new-bank_code" value="\(D24Example.value("bank_code"))">\
        </label>
              <label>Bank account <input name="bank_account" id="new-bank_account" data-testid="new-bank_account" \
        value="\(D24Example.value("bank_account"))"></label>
              <label>Bank branch <input name="bank_branch" id="new-bank_branch" data-testid="new-bank_branch" \
        value="\(D24Example.value("bank_branch"))"></label>
              <label>Account type <input name="account_type" id="new-account_type" data-testid="new-account_type" \
        value="\(D24Example.value("account_type"))"></label>
              <label class="wide">Notification URL <input name="notification_url" id="new-notification_url" data-testid="new-notification_url" \
        placeholder="empty: the merchant's default"></label>
        \(DashboardPart.formFooter(prefix: "new", requests: "Last request"))
        """

    static let script = #"""
          const FIELDS = ["external_id", "country", "currency", "amount", "document_id", "document_type", "beneficiary_name",
                          "beneficiary_lastname", "bank_code", "bank_account", "bank_branch", "account_type", "notification_url"];
          const freshExternalID = () => "dash-" + Date.now().toString(36) + "-" + Math.floor(Math.random() * 1296).toString(36);

          async function createCashout(event) {
            event.preventDefault();
            const merchant = state.merchants.find((m) => m.login === $("new-merchant").value);
            if (!merchant) { $("new-result").textContent = "Choose a merchant."; return; }
            const body = { login: merchant.login, pass: merchant.pass };
            for (const name of FIELDS) {
              const value = $("new-" + name).value.trim();
              if (value !== "") body[name] = value;
            }
            const text = JSON.stringify(body);
            $("new-submit").disabled = true;
            try {
              const signature = await hmacHex(merchant.secret, text);
              $("new-request").textContent = "POST /v3/cashout\nPayload-Signature: " + signature + "\n\n" + text;
              const answer = await api("POST", "/v3/cashout", text, { "Payload-Signature": signature });
              const result = $("new-result");
              result.replaceChildren();
              if (answer.ok && answer.json && answer.json.cashout_id) {
                const id = String(answer.json.cashout_id);
                result.setAttribute("data-cashout-id", id);
                result.append("Created cashout ", el("a", { href: "#/cashouts/" + encodeURIComponent(id), "data-testid": "new-result-link", \#
        text: id }), ".");
                $("new-external_id").value = freshExternalID();
              } else {
                result.removeAttribute("data-cashout-id");
                result.textContent = "Refused: " + problem(answer);
              }
              $("new-request").textContent += "\n\n→ HTTP " + answer.status + " " + answer.text;
            } catch (error) {
              $("new-result").textContent = "Failed: " + error.message;
            } finally {
              $("new-submit").disabled = false;
            }
          }

          merchantsChanged.push((merchants) => fillSelect($("new-merchant"), merchants.map((m) => m.login), false));
          viewShown.push((view) => { if (view === "new" && !$("new-external_id").value) $("new-external_id").value = freshExternalID(); });
          $("new-form").addEventListener("submit", createCashout);
          $("new-notification_url").value = location.origin + "/sandbox/sink/dashboard";
          $("new-external_id").value = freshExternalID();

        """#
}

extension D24Dialect: DashboardDialect {
    package var dashboard: DashboardPart { D24DashboardForm.part }
}
