  const $ = (id) => document.getElementById(id);
  const POLL_MS = 2000;
  const state = { view: "cashouts", id: null, login: null, key: null, merchants: [], merchantKey: "", accountKey: "", countryKey: "" };
  // What the payout APIs' parts do (each part's script adds its own): when a view is shown
  // (`view`), when the merchants change (`merchants`), on every refresh (`view, mine`: an
  // async function, after the merchants are read), and when a cashout's page has read its
  // cashout (`cashout, mine`) or is cleared (`null`).
  const viewShown = [], merchantsChanged = [], refreshers = [], cashoutShown = [];
  // How the core shows an API's cashouts, by dialect name, given by its part: `account` (what
  // its accounts are called), `accountHref(id)` (an account's page), `webhooks: false` (it
  // sends none), `rejectionCode: false` (its rejections take no D24 code: the page sends none
  // and the dialect gives its own) and `details(cashout)` (the Details card's rows in its own
  // terms, instead of the sandbox's). Its status words come with each cashout (`api_status`).
  const apis = {};

  // DOM building: text always goes through text nodes or attributes.
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = String(value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  const badge = (text, extra) => el("span", { class: "badge " + String(text) + (extra ? " " + extra : ""), text: text });
  // An HTTP status's badge class, by its class of answer: http-2xx, http-4xx...
  const httpClass = (status) => "http-" + String(status).charAt(0) + "xx";
  const time = (iso) => (iso ? String(iso).replace("T", " ") : "—");
  // An amount always with its currency ("12.50 USD"), as the list shows it.
  const money = (amount, currency) => (amount === null || amount === undefined ? "—" : String(amount) + (currency ? " " + currency : ""));
  // The currency of each account's balance (a merchant's, a part's account's), by its id:
  // a cashout's settlement and a ledger are in it. Without one, `fallback`.
  const currencies = {};
  const accountCurrency = (id, fallback) => currencies[id] || fallback || "";
  const orDash = (value) => (value === null || value === undefined || value === "" ? "—" : String(value));
  // A status (of a cashout, a history entry, a scheduled event, a webhook) as its API words it,
  // the admin API's `api_status`, followed by the sandbox's name (the filters' and actions'),
  // muted; the sandbox's name alone for an API without words of its own (D24). `testid` names
  // the sandbox's badge, `apiTestid` the API's.
  function statusBadges(item, testid, apiTestid) {
    if (!item.api_status) return [el("span", { class: "badge " + item.status, "data-testid": testid, text: item.status })];
    return [el("span", { class: "badge " + item.api_status, "data-testid": apiTestid, text: item.api_status }), " ",
            el("span", { class: "badge sandbox", title: "The sandbox's status", "data-testid": testid, text: item.status })];
  }

  // The admin token (serve --admin-token): asked for on a 401, kept for this tab only.
  const TOKEN_KEY = "cashout-sandbox-admin-token";
  function adminToken() {
    try { return sessionStorage.getItem(TOKEN_KEY) || ""; } catch (error) { return ""; }
  }
  function askForToken(refused) {
    const form = $("token-form");
    if (form.hidden) {
      form.hidden = false;
      $("token-input").focus();
    }
    $("token-error").textContent = refused ? "That token was refused." : "";
  }
  function useToken(event) {
    event.preventDefault();
    const token = $("token-input").value.trim();
    if (!token) return;
    try { sessionStorage.setItem(TOKEN_KEY, token); } catch (error) { /* storage off: ask again next time */ }
    $("token-input").value = "";
    $("token-form").hidden = true;
    refreshNow();
  }

  // A request; one to the admin API (`admin`) carries the admin token, and a 401 asks for one.
  async function api(method, path, body, headers, admin) {
    const init = { method: method, headers: Object.assign({}, headers || {}), cache: "no-store" };
    if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
    const token = admin ? adminToken() : "";
    if (token) init.headers["Authorization"] = "Bearer " + token;
    const response = await fetch(path, init);
    const text = await response.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch (error) { json = null; }
    // A 401 for a token the user has since replaced says nothing about the new one.
    if (admin && response.status === 401 && token === adminToken()) askForToken(token !== "");
    return { status: response.status, ok: response.ok, json: json, text: text, headers: response.headers };
  }
  // The operations the page calls, by id: `operations`, the table the server writes before this
  // file from their declarations (Dashboard+Assets.swift), so that no file types an API's path;
  // the admin API's are marked `admin`.
  // `pathOf("getCashout", { id: 7 })` is `/sandbox/cashouts/7`, `routeOf(id)` `METHOD /path`; `call`
  // sends `options.body` (and `headers`) to one, its `params` in its path and `query` after it,
  // and answers 404 for one this sandbox does not serve (an API left out).
  const pathOf = (id, params) => operations[id].path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent((params || {})[name]));
  const routeOf = (id) => operations[id].method + " " + operations[id].path;
  function call(id, options) {
    const o = options || {};
    if (!operations[id]) return Promise.resolve({ status: 404, ok: false, json: null, text: "", headers: { get: () => null } });
    const query = o.query ? String(o.query) : "";
    return api(operations[id].method, pathOf(id, o.params) + (query ? "?" + query : ""), o.body, o.headers, operations[id].admin);
  }
  const problem = (answer) => "HTTP " + answer.status + ": " + ((answer.json && (answer.json.message || answer.json.description)) || answer.text || "no body");

  let noticeTimer = null;
  const hideNotice = () => { clearTimeout(noticeTimer); $("notice").hidden = true; };
  function notice(text, ok) {
    const box = $("notice");
    box.textContent = text;
    box.className = "notice" + (ok ? " ok" : "");
    box.hidden = false;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  // Routing: #/cashouts, #/cashouts/{id}, #/new, #/merchants, #/merchants/{login}, and each
  // view in the navigation, #/NAME and #/NAME/{key}. A hash that is not valid
  // percent-encoding shows the list.
  const VIEWS = [...document.querySelectorAll(".nav a[data-view]")].map((link) => link.getAttribute("data-view"));
  function parseHash() {
    let parts;
    try {
      parts = (location.hash || "").replace(/^#\/?/, "").split("/").filter((p) => p !== "").map(decodeURIComponent);
    } catch (error) {
      return { view: "cashouts", malformed: true };
    }
    if (parts[0] === "cashouts" && parts[1]) return { view: "cashout", id: parts[1] };
    if (parts[0] === "merchants") return { view: "merchants", login: parts[1] || null };
    if (VIEWS.includes(parts[0])) return { view: parts[0], key: parts[1] || null };
    return { view: "cashouts" };
  }
  function route() {
    const target = parseHash();
    hideNotice();  // what it said was about the page left
    if (target.malformed) {
      notice("Not a page of this dashboard: " + location.hash.slice(0, 80));
      history.replaceState(null, "", "#/cashouts");
    }
    state.view = target.view;
    state.id = target.id || null;
    state.login = target.login || null;
    state.key = target.key || null;
    for (const section of document.querySelectorAll("main > section.view")) section.hidden = section.id !== "view-" + state.view;
    const current = state.view === "cashout" ? "cashouts" : state.view;
    for (const link of document.querySelectorAll(".nav a[data-view]")) link.classList.toggle("active", link.getAttribute("data-view") === current);
    showMenu(false);
    document.body.setAttribute("data-view", state.view);
    if (state.view === "cashout") {
      clearCashout("…");
      $("cashout-id").textContent = state.id;
      $("action-result").textContent = "";
    }
    for (const shown of viewShown) shown(state.view);
    refreshNow();
  }

  // On a phone the navigation is the current view's link and a Menu toggle that shows every link; going to a view closes it.
  function showMenu(open) {
    $("top").classList.toggle("nav-open", open);
    $("menu-toggle").setAttribute("aria-expanded", String(open));
  }

  // Refreshing: one at a time. A request for a refresh while one runs is not lost: it runs
  // again when that one ends. Every refresh and action takes a sequence number, and an
  // answer that a newer one has overtaken (`stale`) is not rendered.
  let refreshing = false, again = false, sequence = 0;
  const stale = (mine) => mine !== sequence;
  const refreshNow = () => { sequence += 1; refresh(); };
  const poll = () => { if (!document.hidden && !refreshing) refresh(); };
  async function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    again = false;
    const mine = ++sequence;
    try {
      await loadClock(mine);
      await loadHealth(mine);
      await loadMerchants(mine);
      for (const refresher of refreshers) await refresher(state.view, mine);
      if (state.view === "cashouts") await loadCashouts(mine);
      else if (state.view === "cashout") await loadCashout(mine);
      else if (state.view === "merchants") await loadLedger(mine);
      if (!stale(mine)) document.body.setAttribute("data-refreshed", String(Date.now()));
    } catch (error) {
      notice("Cannot reach the sandbox: " + error.message);
    } finally {
      refreshing = false;
      if (again) refresh();
    }
  }

  async function loadClock(mine) {
    const answer = await call("getClock");
    if (stale(mine) || !answer.ok || !answer.json) return;
    $("clock-mode").textContent = "(" + orDash(answer.json.mode) + ")";
    $("clock-now").textContent = time(answer.json.now);
    $("clock-next").textContent = answer.json.next_event_at ? time(answer.json.next_event_at) : "none";
  }
  // While --state-dir's disk cannot be written, a banner says so (Running it, "When the disk fails").
  async function loadHealth(mine) {
    const answer = await call("getHealth");
    if (stale(mine)) return;
    const journal = answer.json && answer.json.journal;
    $("journal-banner").hidden = !journal;
    if (journal) {
      $("journal-banner").textContent = "Changes are not being saved: " + journal.error + " (since " + time(journal.since)
        + "). Each change is refused with 503 until the disk takes writes again; reads go on.";
    }
  }
  async function advance(body) {
    sequence += 1;
    const answer = await call("advanceClock", { body: body });
    if (!answer.ok) notice(problem(answer));
    else {
      const ran = answer.json.events_applied;
      notice("Clock at " + time(answer.json.now) + ": " + ran + (ran === 1 ? " event" : " events") + " ran.", true);
    }
    refreshNow();
  }
