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
      $("new-request").textContent = routeOf("createCashout") + "\nPayload-Signature: " + signature + "\n\n" + text;
      const answer = await call("createCashout", { body: text, headers: { "Payload-Signature": signature } });
      const result = $("new-result");
      result.replaceChildren();
      if (answer.ok && answer.json && answer.json.cashout_id) {
        const id = String(answer.json.cashout_id);
        result.setAttribute("data-cashout-id", id);
        result.append("Created cashout ", el("a", { href: "#/cashouts/" + encodeURIComponent(id), "data-testid": "new-result-link", text: id }), ".");
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
  $("new-notification_url").value = location.origin + pathOf("postToSink", { name: "dashboard" });
  $("new-external_id").value = freshExternalID();
