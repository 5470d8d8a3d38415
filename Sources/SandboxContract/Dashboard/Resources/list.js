  async function loadMerchants(mine) {
    const answer = await call("listMerchants");
    if (stale(mine) || !answer.ok || !answer.json) return;
    state.merchants = answer.json.merchants || [];
    for (const m of state.merchants) currencies[m.login] = m.currency;
    const key = state.merchants.map((m) => m.login).join("\n");
    if (key !== state.merchantKey) {
      state.merchantKey = key;
      for (const changed of merchantsChanged) changed(state.merchants);
    }
    setAccounts("merchants", state.merchants.map((m) => m.login));
    if (state.view === "merchants") renderMerchants();
  }
  // A part's own accounts (Mannco's users, PayoutService's merchants), read on every refresh
  // from the admin API's operation `list` (its list `member`, each named by its `id` member): the
  // account filter offers them, `changed(ids, accounts)` runs when they change, and
  // `read(accounts, view, mine)` after every read.
  function readAccounts(owner, list, member, id, changed, read) {
    let key = null;
    refreshers.push(async (view, mine) => {
      const answer = await call(list);
      if (stale(mine) || !answer.ok || !answer.json) return;
      const accounts = answer.json[member] || [], ids = accounts.map((account) => account[id]);
      for (const account of accounts) if (account.currency) currencies[account[id]] = account.currency;
      if (ids.join("\n") !== key) {
        key = ids.join("\n");
        setAccounts(owner, ids);
        changed(ids, accounts);
      }
      await read(accounts, view, mine);
    });
  }
  // The account filter offers the merchants and the accounts each part names (`owner`).
  const accountLists = {};
  function setAccounts(owner, ids) {
    accountLists[owner] = ids;
    const all = Object.values(accountLists).flat();
    if (all.join("\n") === state.accountKey) return;
    state.accountKey = all.join("\n");
    fillSelect($("filter-merchant"), all, true);
  }
  // Replaces a select's options, keeping its choice (listed even when no longer offered).
  function fillSelect(select, values, all) {
    const chosen = select.value;
    const options = chosen && all && !values.includes(chosen) ? values.concat([chosen]) : values;
    select.replaceChildren(...(all ? [el("option", { value: "", text: "All" })] : []),
                           ...options.map((value) => el("option", { value: value, text: value })));
    if (chosen && options.includes(chosen)) select.value = chosen;
  }

  async function loadCashouts(mine) {
    const query = new URLSearchParams();
    if ($("filter-merchant").value) query.set("merchant", $("filter-merchant").value);
    if ($("filter-status").value) query.set("status", $("filter-status").value);
    const answer = await call("listCashouts", { query: query });
    if (stale(mine)) return;
    if (!answer.ok) { notice(problem(answer)); return; }
    const all = answer.json.cashouts || [];
    // A cashout without a country (some APIs have none) is listed under All only.
    const countries = [...new Set(all.filter((c) => c.country).map((c) => String(c.country)))].sort();
    if (countries.join(",") !== state.countryKey) {
      state.countryKey = countries.join(",");
      fillSelect($("filter-country"), countries, true);
    }
    const country = $("filter-country").value;
    const cashouts = all.filter((c) => !country || c.country === country)
      .sort((x, y) => Number(y.cashout_id) - Number(x.cashout_id));
    const rows = cashouts.map((c) => {
      const open = () => { location.hash = "#/cashouts/" + encodeURIComponent(c.cashout_id); };
      return el("tr", { class: "link", "data-testid": "cashout-row-" + c.cashout_id, "data-id": c.cashout_id, "data-status": c.status,
                        "data-dialect": c.dialect, onclick: open },
        el("td", {}, el("a", { href: "#/cashouts/" + encodeURIComponent(c.cashout_id), text: c.cashout_id })),
        el("td", { class: "hide-narrow", "data-testid": "cashout-row-dialect-" + c.cashout_id, text: c.dialect }),
        el("td", { class: "mono hide-narrow", text: orDash(c.external_id) }),
        el("td", { class: "hide-narrow", text: c.merchant }),
        el("td", { class: "hide-narrow", text: orDash(c.country) }),
        el("td", { class: "num", text: money(c.amount, c.currency) }),
        el("td", {}, ...statusBadges(c, "cashout-row-status-" + c.cashout_id, "cashout-row-api-status-" + c.cashout_id),
          c.returned_after_completion ? el("span", { class: "muted", text: " returned" }) : null),
        el("td", { class: "mono hide-narrow", text: time(c.created_at) }));
    });
    $("cashouts-body").replaceChildren(...rows);
    $("cashouts-empty").hidden = rows.length > 0;
    $("cashouts-count").textContent = rows.length + (rows.length === 1 ? " cashout" : " cashouts");
  }
