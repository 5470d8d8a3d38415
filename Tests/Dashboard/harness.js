// Loads the dashboard's script files in Node, as the server joins them, over a small fake DOM
// built from the page's own HTML files: no browser, no npm package. The files are read as they are
// (their placeholders filled with stand-ins), so what is tested is what is served, and the served
// bytes stay as they are (nothing is added to them for the tests).
//
// The server wraps the files in one closure (`(function () { ... })()`); here they run as one
// script in a `vm` context, so that a test can reach their functions and state by name
// (`page.run("parseHash()")`).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const ROOT = path.join(__dirname, "..", "..");
const CORE = "Sources/SandboxContract/Dashboard/Resources/";
const API = { d24: "Sources/Dialects/D24/API/Dashboard/", mannco: "Sources/Dialects/Mannco/Dashboard/", prism: "Sources/Dialects/Prism/Dashboard/" };
const read = (file) => fs.readFileSync(path.join(ROOT, file), "utf8");

// The JavaScript files, in the order Dashboard.script(parts:) joins them (Dashboard+Assets.swift).
const CORE_SCRIPTS = ["core.js", "list.js", "hmac.js", "timeline.js", "pages.js", "requests.js", "webhooks.js", "report.js"].map((f) => CORE + f);
const scriptFiles = (apis) => [...CORE_SCRIPTS, ...apis.map((api) => API[api] + "script.js"), CORE + "start.js"];
// Every JavaScript file of the page (for `node --check`).
const allScripts = () => [...CORE_SCRIPTS, CORE + "start.js", ...Object.values(API).map((dir) => dir + "script.js")];

// The table of operations the server writes first (Dashboard+Assets.swift), as a standard sandbox
// serves it: fixtures/operations.json, which DashboardTests holds equal to the served one.
const operationTable = () => "const operations = " + JSON.stringify(JSON.parse(read("Tests/Dashboard/fixtures/operations.json"))) + ";\n";

// The placeholders that name operations, as PrismDashboard.swift fills them (the served script's,
// which DashboardTests reads: its account list and the form's RPCs are in the table).
const OPERATIONS = { MERCHANTS_LIST: "listPrismMerchants", RPC_OPERATIONS: '{"Create": "prismCreate", "CreateLink": "prismCreateLink"}' };

// A placeholder (`__NAME__`, DashboardFile.swift) filled with `values[NAME]`, else a stand-in: an
// operation's as OPERATIONS has it, the name in lower case (a field's or header's name), an empty
// list for the currencies' lists.
const PLACEHOLDER = /__([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)__/g;
function fill(text, values) {
  return text.replace(PLACEHOLDER, (_, name) => (name in (values || {}) ? values[name] : name in OPERATIONS ? OPERATIONS[name]
    : /DECIMAL$/.test(name) ? "[]" : name.toLowerCase().replace(/^(field|header)_/, "")));
}

// MARK: - A fake DOM: elements with attributes, children, text, classes, events and simple selectors.

class Node {
  constructor(document) { this.ownerDocument = document; this.parentNode = null; this.childNodes = []; }
  get textContent() { return this.childNodes.map((child) => child.textContent).join(""); }
  set textContent(text) { this.replaceChildren(this.ownerDocument.createTextNode(String(text))); }
  append(...nodes) {
    for (const node of nodes) {
      const child = node instanceof Node ? node : this.ownerDocument.createTextNode(String(node));
      if (child.parentNode) child.parentNode.childNodes.splice(child.parentNode.childNodes.indexOf(child), 1);
      child.parentNode = this;
      this.childNodes.push(child);
    }
  }
  replaceChildren(...nodes) {
    for (const child of this.childNodes) child.parentNode = null;
    this.childNodes = [];
    this.append(...nodes);
  }
}
class Text extends Node {
  constructor(document, text) { super(document); this.data = text; }
  get textContent() { return this.data; }
  set textContent(text) { this.data = String(text); }
}
class Element extends Node {
  constructor(document, tag) {
    super(document);
    this.tagName = tag.toUpperCase();
    this.attributes = new Map();
    this.listeners = {};
    this._value = "";
    this.checked = false;
    this.disabled = false;
    this.scrollLeft = 0;
  }
  // A select's value is its chosen option's, else its first option's; an option's is its text
  // unless it has a value attribute.
  get value() {
    if (this.tagName === "OPTION") return this.hasAttribute("value") ? this.getAttribute("value") : this.textContent;
    if (this.tagName !== "SELECT") return this._value;
    const values = this.options.map((option) => option.value);
    return values.includes(this._value) ? this._value : values.length ? values[0] : "";
  }
  set value(value) { this._value = String(value); }
  get children() { return this.childNodes.filter((node) => node instanceof Element); }
  get id() { return this.getAttribute("id") || ""; }
  get className() { return this.getAttribute("class") || ""; }
  set className(value) { this.setAttribute("class", value); }
  get hidden() { return this.hasAttribute("hidden"); }
  set hidden(value) { if (value) this.setAttribute("hidden", ""); else this.removeAttribute("hidden"); }
  get title() { return this.getAttribute("title") || ""; }
  set title(value) { this.setAttribute("title", value); }
  get dataset() { return Object.fromEntries([...this.attributes].filter(([k]) => k.startsWith("data-")).map(([k, v]) => [k.slice(5), v])); }
  get classList() {
    const classes = () => this.className.split(/\s+/).filter((c) => c);
    return {
      contains: (c) => classes().includes(c),
      add: (c) => { if (!classes().includes(c)) this.className = [...classes(), c].join(" "); },
      remove: (c) => { this.className = classes().filter((x) => x !== c).join(" "); },
      toggle: (c, force) => {
        const on = force === undefined ? !classes().includes(c) : !!force;
        if (on) this.classList.add(c); else this.classList.remove(c);
        return on;
      },
    };
  }
  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }
  setAttribute(name, value) {
    this.attributes.set(name, String(value));
    if (name === "value" && this.tagName !== "OPTION") this._value = String(value);
    if (name === "disabled") this.disabled = true;
    if (name === "checked") this.checked = true;
  }
  hasAttribute(name) { return this.attributes.has(name); }
  removeAttribute(name) { this.attributes.delete(name); }
  addEventListener(type, listener) { (this.listeners[type] = this.listeners[type] || []).push(listener); }
  dispatchEvent(event) {
    event.target = event.target || this;
    for (const listener of this.listeners[event.type] || []) listener(event);
    return true;
  }
  click() { if (!this.disabled) this.dispatchEvent({ type: "click", preventDefault() {} }); }
  submit() { this.dispatchEvent({ type: "submit", preventDefault() {} }); }
  focus() { this.ownerDocument.activeElement = this; }
  get offsetLeft() { return 0; }
  get offsetWidth() { return 0; }
  get clientWidth() { return 0; }
  get scrollWidth() { return 0; }
  scrollIntoView() {}
  // Descendants, depth first.
  *descendants() { for (const child of this.children) { yield child; yield* child.descendants(); } }
  querySelectorAll(selector) { return [...this.descendants()].filter((element) => matches(element, selector)); }
  querySelector(selector) { return this.querySelectorAll(selector)[0] || null; }
  // A select's options.
  get options() { return this.querySelectorAll("option"); }
}

// Selectors as the scripts use them: compounds (tag, #id, .class, [attr], [attr=value], :checked)
// joined by descendant (space) or child (>) combinators.
function matchesCompound(element, compound) {
  const parts = compound.match(/^[a-z0-9]+|#[\w-]+|\.[\w-]+|\[[^\]]+\]|:checked/gi) || [];
  return parts.every((part) => {
    if (part[0] === "#") return element.id === part.slice(1);
    if (part[0] === ".") return element.classList.contains(part.slice(1));
    if (part === ":checked") return element.checked;
    if (part[0] === "[") {
      const [name, value] = part.slice(1, -1).split("=");
      return value === undefined ? element.hasAttribute(name) : element.getAttribute(name) === value.replace(/^"|"$/g, "");
    }
    return element.tagName === part.toUpperCase();
  });
}
function matches(element, selector) {
  const tokens = selector.trim().replace(/\s*>\s*/g, " > ").split(/\s+/);
  const match = (node, index) => {
    if (!node || !(node instanceof Element) || !matchesCompound(node, tokens[index])) return false;
    if (index === 0) return true;
    if (tokens[index - 1] === ">") return match(node.parentNode, index - 2);
    for (let up = node.parentNode; up instanceof Element; up = up.parentNode) if (match(up, index - 1)) return true;
    return false;
  };
  return match(element, tokens.length - 1);
}

class Document extends Element {
  constructor() {
    super(null, "#document");
    this.ownerDocument = this;
    this.hidden = false;
    this.activeElement = null;
  }
  get hidden() { return this._hidden; }
  set hidden(value) { this._hidden = value; }
  createElement(tag) { return new Element(this, tag); }
  createTextNode(text) { return new Text(this, text); }
  getElementById(id) { return [...this.descendants()].find((element) => element.id === id) || null; }
  get body() { return this.querySelector("body"); }
}

// HTML as the page's files write it: elements, attributes (quoted or bare), text and entities.
const VOID = new Set(["meta", "link", "input", "br", "img"]);
function parseHTML(html, document, parent) {
  const stack = [parent];
  const decode = (text) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
  for (const token of html.match(/<!--[\s\S]*?-->|<![^>]*>|<\/?[a-z][^>]*>|[^<]+/gi) || []) {
    const top = stack[stack.length - 1];
    if (token.startsWith("<!")) continue;
    if (token.startsWith("</")) { stack.pop(); continue; }
    if (!token.startsWith("<")) { top.append(document.createTextNode(decode(token))); continue; }
    const [, tag, rest] = token.match(/^<([a-z0-9]+)([\s\S]*?)\/?>$/i);
    const element = document.createElement(tag);
    for (const [, name, , , quoted, bare] of rest.matchAll(/([\w-:]+)(=("([^"]*)"|([^\s>]+)))?/g)) {
      element.setAttribute(name, decode(quoted !== undefined ? quoted : bare !== undefined ? bare : ""));
    }
    top.append(element);
    if (!VOID.has(tag.toLowerCase())) stack.push(element);
  }
}

// MARK: - The page

// The views of the core and of each API, as Dashboard.page(parts:) and each API's part give them.
const VIEWS = {
  core: [["requests", "Requests", CORE + "requests.html"], ["webhooks", "Webhooks", CORE + "webhooks.html"], ["report", "Report", CORE + "report.html"]],
  d24: [], mannco: [["users", "Users", API.mannco + "users.html"], ["emails", "Emails", API.mannco + "emails.html"]],
  prism: [["payoutservice", "PayoutService", API.prism + "merchants.html"]],
};
const footer = (prefix) => fill(read(CORE + "form-footer.html"), { PREFIX: prefix, REQUESTS: "Last request", SUBMIT: "Request cashout" });
// The D24 form's defaults: the example cashout's (D24Example), as the Swift part fills them in.
const D24_DEFAULTS = { COUNTRY: "BR", CURRENCY: "BRL", AMOUNT: "100.00", DOCUMENT_ID: "84932568207", DOCUMENT_TYPE: "CPF",
                       BENEFICIARY_NAME: "Ana", BENEFICIARY_LASTNAME: "Silva", BANK_CODE: "001", BANK_ACCOUNT: "123456-7", BANK_BRANCH: "0001",
                       ACCOUNT_TYPE: "C" };
const FORMS = {
  d24: () => fill(read(API.d24 + "form.html"), { ...D24_DEFAULTS, FOOTER: footer("new") }),
  mannco: () => fill(read(API.mannco + "form.html"), { METHOD_OPTIONS: "<option>payoneer</option><option>tipalti</option>", FOOTER: footer("mannco-new"),
                                                       MINIMUM_AMOUNT: "5000", AMOUNT: "100000" }),
  prism: () => fill(read(API.prism + "form.html"), { RPC_OPTIONS: "<option>Create</option><option>CreateLink</option>", FOOTER: footer("prism-new") }),
};
function pageHTML(apis) {
  const views = [...VIEWS.core, ...apis.flatMap((api) => VIEWS[api])];
  return fill(read(CORE + "dashboard.html"), {
    NAV_LINKS: views.map(([name, title]) => `<a href="#/${name}" id="nav-${name}" data-testid="nav-${name}" data-view="${name}">${title}</a>`).join("\n"),
    CASHOUT_CARDS: apis.includes("mannco") ? read(API.mannco + "cashout-card.html") : "",
    FORMS: apis.map((api) => FORMS[api]()).join(""),
    VIEWS: views.map(([name, , file]) => `<section id="view-${name}" data-testid="view-${name}" class="view" hidden>\n`
      + fill(read(file), { LINKED: '<label><input type="checkbox" name="linked" value="payoneer" id="mannco-edit-linked-payoneer"> Payoneer</label>' })
      + "\n</section>").join("\n"),
  });
}

// MARK: - A sandbox that answers the page's requests

// Each answer is { status, json } or { status, text, headers }; `routes` maps "METHOD /path" (the
// query left out) to an answer or a function of the request. Every request is kept in `requests`.
function server(routes) {
  const requests = [];
  const fetch = async (url, init) => {
    const method = (init && init.method) || "GET", [pathname, query] = String(url).split("?");
    const request = { method, path: pathname, query: query || "", url: String(url), headers: (init && init.headers) || {}, body: init && init.body };
    requests.push(request);
    let answer = routes[method + " " + pathname];
    if (typeof answer === "function") answer = await answer(request);
    answer = answer || { status: 404, json: { message: "no route" } };
    const text = answer.text !== undefined ? answer.text : answer.json !== undefined ? JSON.stringify(answer.json) : "";
    const headers = new Map(Object.entries(answer.headers || {}).map(([k, v]) => [k.toLowerCase(), v]));
    const status = answer.status || 200;
    return { status, ok: status >= 200 && status < 300, headers: { get: (name) => headers.get(name.toLowerCase()) || null }, text: async () => text };
  };
  return { fetch, requests };
}

// An empty sandbox's answers: its clock, health, one merchant, no cashouts.
const MERCHANT = { login: "sandbox_login", pass: "sandbox_pass", secret: "sandbox_secret", read_only_key: "ro", currency: "USD", balance: "10000.00",
                   limits: { daily: "500.00" } };
const EMPTY = {
  "GET /sandbox/clock": { json: { mode: "manual", now: "2026-01-01T00:00:00Z", next_event_at: null } },
  "GET /sandbox/health": { json: { status: "ok" } },
  "GET /sandbox/merchants": { json: { merchants: [MERCHANT] } },
  "GET /sandbox/cashouts": { json: { cashouts: [] } },
  "GET /sandbox/users": { json: { users: [] } },
  "GET /sandbox/emails": { json: { emails: [] } },
  "GET /sandbox/prism-merchants": { json: { merchants: [] } },
  "GET /sandbox/requests": { json: { requests: [], kept: 0, capacity: 1000 } },
  "GET /sandbox/webhooks": { json: { webhooks: [] } },
  "GET /sandbox/ledger": { json: { entries: [] } },
};

// Loads the page with `apis`' parts at `hash`, answering with `routes` over EMPTY's. The page's
// own timer (the 2 s poll) is not started: `page.poll()` runs it. `crypto: false` takes
// crypto.subtle away, as on a page that is not a secure context.
async function load({ apis = ["d24", "mannco"], hash = "", routes = {}, crypto = true, hidden = false } = {}) {
  const document = new Document();
  const html = document.createElement("html");
  document.append(html);
  parseHTML(pageHTML(apis), document, html);
  document.hidden = hidden;
  const sandbox = server({ ...EMPTY, ...routes });
  const polls = [], storage = new Map();
  const location = { _hash: hash, origin: "http://127.0.0.1:8080" };
  const window = {
    document, location, fetch: sandbox.fetch, console, URLSearchParams, TextEncoder, Node, Date, Math, JSON, Promise,
    // A notice's timer does not keep Node running after the tests.
    setTimeout: (fn, ms) => setTimeout(fn, ms).unref(), clearTimeout, setInterval: (fn) => { polls.push(fn); return polls.length; },
    crypto: crypto ? globalThis.crypto : undefined,
    sessionStorage: { getItem: (k) => (storage.has(k) ? storage.get(k) : null), setItem: (k, v) => storage.set(k, String(v)) },
    history: { replaceState: (_, __, url) => { location._hash = url; } },
    listeners: {},
    addEventListener(type, fn) { (window.listeners[type] = window.listeners[type] || []).push(fn); },
  };
  Object.defineProperty(location, "hash", {
    get: () => location._hash,
    set: (value) => {
      const next = value.startsWith("#") || value === "" ? value : "#" + value;
      if (next === location._hash) return;
      location._hash = next;
      setImmediate(() => (window.listeners.hashchange || []).forEach((fn) => fn({ type: "hashchange" })));
    },
  });
  document.addEventListener = (type, fn) => Element.prototype.addEventListener.call(document, type, fn);
  window.window = window;
  const context = vm.createContext(window);
  const code = "\"use strict\";\n" + operationTable() + scriptFiles(apis).map((file) => fill(read(file))).join("");
  vm.runInContext(code, context, { filename: "dashboard.js" });
  const page = {
    document, window, location, requests: sandbox.requests, polls,
    $: (id) => document.getElementById(id),
    run: (expression) => vm.runInContext(expression, context),
    // A value of the page's as plain data (its objects are of the page's realm, not the test's).
    get: (expression) => JSON.parse(JSON.stringify(vm.runInContext(expression, context)) ?? "null"),
    poll: () => polls.forEach((fn) => fn()),
    // Waits until every refresh and request under way has ended (crypto.subtle's work runs on
    // another thread: a few milliseconds too).
    settle: async () => {
      for (let round = 0; round < 4; round++) {
        for (let i = 0; i < 30; i++) await new Promise((resolve) => setImmediate(resolve));
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    },
    go: async (next) => { location.hash = next; await page.settle(); },
    rows: (id) => page.$(id).children.map((row) => row.children.map((cell) => cell.textContent)),
  };
  await page.settle();
  return page;
}

module.exports = { load, fill, read, allScripts, scriptFiles, matches, parseHTML, Document, MERCHANT, ROOT };
