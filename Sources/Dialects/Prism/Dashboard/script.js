  // PayoutService: its merchants (read on every refresh: the form, the account filter and
  // its view use them), its payouts' details, and its form.
  const prism = { merchants: [] };
  apis.prism = { account: "merchant", rejectionCode: false, details: prismDetails };

  // Money.minor_amount from the admin API's two-decimal amount, by the currency's exponent.
  const ZERO_DECIMAL = __ZERO_DECIMAL__, THREE_DECIMAL = __THREE_DECIMAL__;
  function minorAmount(amount, currency) {
    const hundredths = BigInt(String(amount).replace(".", ""));
    return String(ZERO_DECIMAL.includes(currency) ? hundredths / 100n : THREE_DECIMAL.includes(currency) ? hundredths * 10n : hundredths);
  }

  // A payout's Details card as its callers know it; rows without a value are left out,
  // but for merchant_payout_id.
  function prismDetails(c, href) {
    const f = c.fields || {}, link = f["__FIELD_LINK__"];
    const method = f["__FIELD_METHOD_ID__"] ? f["__FIELD_METHOD__"] + " (connector_payout_method_id " + f["__FIELD_METHOD_ID__"] + ")" : f["__FIELD_METHOD__"];
    const rows = [
      ["connector_payout_id", String(c.cashout_id)], ["merchant_payout_id", orDash(c.external_id)], ["payout_status", c.api_status],
      ["__HEADER_MERCHANT_ID__", el("a", { href: href, text: c.merchant })], ["__HEADER_CONNECTOR__", f["__FIELD_CONNECTOR__"]],
      ["__HEADER_TENANT_ID__", f["__FIELD_TENANT__"]], ["payout_method_data", method],
      ["amount", money(minorAmount(c.amount, c.currency), c.currency) + " (" + money(c.amount, c.currency) + ")"],
      ["destination_currency", f["__FIELD_DESTINATION_CURRENCY__"]], ["recipient", f["__FIELD_RECIPIENT_NAME__"]],
      ["priority", f["__FIELD_PRIORITY__"]], ["webhook_url", c.notification_url],
      ["payout_link", link ? el("a", { href: link, target: "_blank", rel: "noopener", "data-testid": "prism-payout-link", text: link }) : null],
      ["payout_link_expires_at", f["__FIELD_LINK_EXPIRES_AT__"] ? time(f["__FIELD_LINK_EXPIRES_AT__"]) : null],
      ["error", c.rejection_code !== null && c.rejection_code !== undefined ? c.rejection_code + ": " + orDash(c.rejection_reason) : null],
      ["created_at", time(c.created_at)], ["__HEADER_REQUEST_ID__", f["__FIELD_REQUEST_ID__"]],
    ];
    return rows.filter(([, value]) => value !== null && value !== undefined && value !== "");
  }

  readAccounts("prism", "__MERCHANTS_LIST__", "merchants", "merchant_id", (ids, merchants) => {
    prism.merchants = merchants;
    fillSelect($("prism-new-merchant"), ids, false);
    if (!$("prism-new-api_key").value) fillKey();
  }, (merchants, view) => {
    prism.merchants = merchants;
    if (view === "payoutservice") renderPrismMerchants();
  });

  function renderPrismMerchants() {
    $("prism-merchants-body").replaceChildren(...prism.merchants.map((m) =>
      el("tr", { "data-testid": "prism-merchant-row-" + m.merchant_id, "data-id": m.merchant_id },
        el("td", { class: "mono" }, m.merchant_id, el("div", { class: "muted show-narrow", text: m.api_key })),
        el("td", { class: "mono hide-narrow", text: m.api_key }),
        el("td", { class: "mono hide-narrow", text: orDash(m.key1) }), el("td", { class: "mono hide-narrow", text: orDash(m.api_secret) }),
        el("td", { class: "num", "data-testid": "prism-merchant-balance-" + m.merchant_id, text: money(m.balance, m.currency) }),
        el("td", { class: "hide-narrow", text: limitsText(m.limits, m.currency) }),
        el("td", {}, el("a", { href: "#/merchants/" + encodeURIComponent(m.merchant_id), text: "Ledger" })))));
    $("prism-merchants-empty").hidden = prism.merchants.length > 0;
  }

  // The form: the call a client makes, in the page. Each method's example data; the
  // recipient's name goes in customer.name, and in the card's holder name.
  const METHODS = {
    card: (name) => ({ card_number: { value: "4111111111111111" }, card_exp_month: { value: "12" }, card_exp_year: { value: "2030" },
                       card_holder_name: { value: name } }),
    sepa: () => ({ iban: { value: "DE89370400440532013000" }, bic: { value: "COBADEFFXXX" } }),
    ach: () => ({ bank_account_number: { value: "000123456789" }, bank_routing_number: { value: "110000000" } }),
    paypal: () => ({ email: { value: "recipient@example.com" } }),
  };
  fillSelect($("prism-new-method"), Object.keys(METHODS), false);
  const freshPayoutID = () => "po-" + Date.now().toString(36) + "-" + Math.floor(Math.random() * 1296).toString(36);
  function fillKey() {
    const merchant = prism.merchants.find((m) => m.merchant_id === $("prism-new-merchant").value);
    $("prism-new-api_key").value = merchant ? merchant.api_key : "";
  }
  // A shell word in single quotes.
  const quoted = (text) => "'" + String(text).replace(/'/g, "'\\''") + "'";

  async function requestPrismPayout(event) {
    event.preventDefault();
    const result = $("prism-new-result"), rpc = $("prism-new-rpc").value, name = $("prism-new-recipient").value.trim();
    const headers = { "__HEADER_CONNECTOR__": $("prism-new-connector").value.trim(), "__HEADER_AUTH__": "header-key",
                      "__HEADER_API_KEY__": $("prism-new-api_key").value.trim(), "__HEADER_MERCHANT_ID__": $("prism-new-merchant").value };
    // Digits go as a JSON number; anything else as typed, for the API to refuse.
    const minor = $("prism-new-minor_amount").value.trim();
    const body = { amount: { minor_amount: /^[0-9]{1,15}$/.test(minor) ? Number(minor) : minor, currency: $("prism-new-currency").value.trim() } };
    const id = $("prism-new-merchant_payout_id").value.trim();
    if (id) body.merchant_payout_id = id;
    if (rpc === "Create") body.payout_method_data = { [$("prism-new-method").value]: METHODS[$("prism-new-method").value](name) };
    if (name) body.customer = { name: name };
    if ($("prism-new-webhook_url").value.trim()) body.webhook_url = $("prism-new-webhook_url").value.trim();
    const operation = __RPC_OPERATIONS__[rpc], text = JSON.stringify(body);
    $("prism-new-request").textContent = "curl -s " + quoted(location.origin + pathOf(operation)) + " -H 'Content-Type: application/json' \\\n"
      + Object.entries(headers).map(([key, value]) => "  -H " + quoted(key + ": " + value) + " \\\n").join("") + "  -d " + quoted(text);
    result.removeAttribute("data-cashout-id");
    $("prism-new-submit").disabled = true;
    try {
      const answer = await call(operation, { body: text, headers: headers });
      const link = answer.headers.get("__LINK_HEADER__");
      $("prism-new-request").textContent += "\n\n→ HTTP " + answer.status + (link ? "\n__LINK_HEADER__: " + link : "") + "\n" + answer.text;
      const reply = answer.json || {}, payout = reply.connectorPayoutId, error = reply.error && reply.error.connectorDetails;
      result.replaceChildren();
      if (answer.ok && payout) {
        result.setAttribute("data-cashout-id", payout);
        result.append("Created payout ", el("a", { href: "#/cashouts/" + encodeURIComponent(payout), "data-testid": "prism-new-result-link", text: payout }),
                      " (" + reply.payoutStatus + ")" + (link ? ": its page " : "."));
        if (link) result.append(el("a", { href: link, target: "_blank", rel: "noopener", "data-testid": "prism-new-result-page", text: link }));
        $("prism-new-merchant_payout_id").value = freshPayoutID();
      } else if (answer.ok) {
        result.textContent = "Declined: " + reply.payoutStatus + (error ? ", " + error.code + ": " + error.message : "");
      } else {
        result.textContent = "Refused: HTTP " + answer.status + " " + (reply.code ? reply.code + ": " + reply.message : answer.text);
      }
    } catch (error) {
      result.textContent = "Failed: " + error.message;
    } finally {
      $("prism-new-submit").disabled = false;
      refreshNow();
    }
  }
  $("prism-new-form").addEventListener("submit", requestPrismPayout);
  $("prism-new-merchant").addEventListener("change", fillKey);
  $("prism-new-rpc").addEventListener("change", () => { $("prism-new-method").disabled = $("prism-new-rpc").value !== "Create"; });
  $("prism-new-webhook_url").value = location.origin + pathOf("postToSink", { name: "payoutservice" });
  $("prism-new-merchant_payout_id").value = freshPayoutID();
