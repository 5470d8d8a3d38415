extension Dashboard {
    /// The page's behaviour, vanilla JavaScript: hash routing, a 2-second poll of the admin API,
    /// actions, and the signed D24 create. A 401 from the admin API (`serve --admin-token`) shows
    /// the token form; the token is kept in sessionStorage and sent as `Authorization: Bearer`. Server data reaches the DOM only through
    /// `textContent` and attributes (the `el` helper), never as HTML.
    static let script = #"""
        "use strict";
        (function () {
          const $ = (id) => document.getElementById(id);
          const POLL_MS = 2000;
          const state = { view: "cashouts", id: null, login: null, merchants: [], busy: false, merchantKey: "" };

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
          const time = (iso) => (iso ? String(iso).replace("T", " ") : "—");
          const orDash = (value) => (value === null || value === undefined || value === "" ? "—" : String(value));

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
            refresh();
          }

          async function api(method, path, body, headers) {
            const init = { method: method, headers: Object.assign({}, headers || {}), cache: "no-store" };
            if (body !== undefined) {
              init.body = typeof body === "string" ? body : JSON.stringify(body);
              init.headers["Content-Type"] = "application/json";
            }
            const admin = /^\/sandbox\//.test(path);
            const token = admin ? adminToken() : "";
            if (token) init.headers["Authorization"] = "Bearer " + token;
            const response = await fetch(path, init);
            const text = await response.text();
            let json = null;
            try { json = text ? JSON.parse(text) : null; } catch (error) { json = null; }
            if (admin && response.status === 401) askForToken(token !== "");
            return { status: response.status, ok: response.ok, json: json, text: text };
          }
          const problem = (answer) => "HTTP " + answer.status + ": " + ((answer.json && (answer.json.message || answer.json.description)) || answer.text || "no body");

          let noticeTimer = null;
          function notice(text, ok) {
            const box = $("notice");
            box.textContent = text;
            box.className = "notice" + (ok ? " ok" : "");
            box.hidden = false;
            clearTimeout(noticeTimer);
            noticeTimer = setTimeout(() => { box.hidden = true; }, 6000);
          }

          // HMAC-SHA256, lowercase hex: crypto.subtle where the page is a secure context
          // (localhost), else a small SHA-256 in plain JavaScript (e.g. opened by a LAN address).
          const K = new Uint32Array([0x428a2f98,0x71374491,0xb5c0fbcf,0xe9b5dba5,0x3956c25b,0x59f111f1,0x923f82a4,0xab1c5ed5,0xd807aa98,0x12835b01,0x243185be,0x550c7dc3,0x72be5d74,0x80deb1fe,0x9bdc06a7,0xc19bf174,0xe49b69c1,0xefbe4786,0x0fc19dc6,0x240ca1cc,0x2de92c6f,0x4a7484aa,0x5cb0a9dc,0x76f988da,0x983e5152,0xa831c66d,0xb00327c8,0xbf597fc7,0xc6e00bf3,0xd5a79147,0x06ca6351,0x14292967,0x27b70a85,0x2e1b2138,0x4d2c6dfc,0x53380d13,0x650a7354,0x766a0abb,0x81c2c92e,0x92722c85,0xa2bfe8a1,0xa81a664b,0xc24b8b70,0xc76c51a3,0xd192e819,0xd6990624,0xf40e3585,0x106aa070,0x19a4c116,0x1e376c08,0x2748774c,0x34b0bcb5,0x391c0cb3,0x4ed8aa4a,0x5b9cca4f,0x682e6ff3,0x748f82ee,0x78a5636f,0x84c87814,0x8cc70208,0x90befffa,0xa4506ceb,0xbef9a3f7,0xc67178f2]);
          const ror = (x, n) => (x >>> n) | (x << (32 - n));
          function sha256(bytes) {
            const length = bytes.length, total = ((length + 9 + 63) >> 6) << 6;
            const padded = new Uint8Array(total);
            padded.set(bytes);
            padded[length] = 0x80;
            const view = new DataView(padded.buffer);
            view.setUint32(total - 8, Math.floor(length / 0x20000000));
            view.setUint32(total - 4, (length << 3) >>> 0);
            const H = new Uint32Array([0x6a09e667,0xbb67ae85,0x3c6ef372,0xa54ff53a,0x510e527f,0x9b05688c,0x1f83d9ab,0x5be0cd19]);
            const W = new Uint32Array(64);
            for (let offset = 0; offset < total; offset += 64) {
              for (let i = 0; i < 16; i++) W[i] = view.getUint32(offset + i * 4);
              for (let i = 16; i < 64; i++) {
                const x = W[i - 15], y = W[i - 2];
                W[i] = (W[i - 16] + (ror(x, 7) ^ ror(x, 18) ^ (x >>> 3)) + W[i - 7] + (ror(y, 17) ^ ror(y, 19) ^ (y >>> 10))) | 0;
              }
              let a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
              for (let i = 0; i < 64; i++) {
                const t1 = (h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
                const t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
                h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
              }
              H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += h;
            }
            const out = new Uint8Array(32);
            const outView = new DataView(out.buffer);
            for (let i = 0; i < 8; i++) outView.setUint32(i * 4, H[i]);
            return out;
          }
          function hmacFallback(key, message) {
            if (key.length > 64) key = sha256(key);
            const inner = new Uint8Array(64 + message.length), outer = new Uint8Array(64 + 32);
            for (let i = 0; i < 64; i++) { inner[i] = (key[i] || 0) ^ 0x36; outer[i] = (key[i] || 0) ^ 0x5c; }
            inner.set(message, 64);
            outer.set(sha256(inner), 64);
            return sha256(outer);
          }
          const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
          async function hmacHex(secret, text, forceFallback) {
            const encoder = new TextEncoder();
            if (!forceFallback && window.crypto && window.crypto.subtle) {
              const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
              return hex(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(text))));
            }
            return hex(hmacFallback(encoder.encode(secret), encoder.encode(text)));
          }

          // Routing: #/cashouts, #/cashouts/{id}, #/new, #/merchants, #/merchants/{login}.
          function parseHash() {
            const parts = (location.hash || "").replace(/^#\/?/, "").split("/").filter((p) => p !== "").map(decodeURIComponent);
            if (parts[0] === "cashouts" && parts[1]) return { view: "cashout", id: parts[1] };
            if (parts[0] === "new") return { view: "new" };
            if (parts[0] === "merchants") return { view: "merchants", login: parts[1] || null };
            return { view: "cashouts" };
          }
          function route() {
            const target = parseHash();
            state.view = target.view;
            state.id = target.id || null;
            state.login = target.login || null;
            for (const name of ["cashouts", "cashout", "new", "merchants"]) $("view-" + name).hidden = name !== state.view;
            for (const name of ["cashouts", "new", "merchants"]) {
              $("nav-" + name).classList.toggle("active", name === state.view || (name === "cashouts" && state.view === "cashout"));
            }
            document.body.setAttribute("data-view", state.view);
            if (state.view === "cashout") {
              $("cashout-id").textContent = state.id;
              $("cashout-status").textContent = "…";
              $("action-result").textContent = "";
            }
            if (state.view === "new" && !$("new-external_id").value) $("new-external_id").value = freshExternalID();
            refresh();
          }

          // Polling: one refresh at a time.
          async function refresh() {
            if (state.busy) return;
            state.busy = true;
            try {
              await loadClock();
              await loadMerchants();
              if (state.view === "cashouts") await loadCashouts();
              else if (state.view === "cashout") await loadCashout();
              else if (state.view === "merchants") await loadLedger();
              document.body.setAttribute("data-refreshed", String(Date.now()));
            } catch (error) {
              notice("Cannot reach the sandbox: " + error.message);
            } finally {
              state.busy = false;
            }
          }

          async function loadClock() {
            const answer = await api("GET", "/sandbox/clock");
            if (!answer.ok || !answer.json) return;
            $("clock-mode").textContent = "(" + orDash(answer.json.mode) + ")";
            $("clock-now").textContent = time(answer.json.now);
            $("clock-next").textContent = answer.json.next_event_at ? time(answer.json.next_event_at) : "none";
          }
          async function advance(body) {
            const answer = await api("POST", "/sandbox/clock/advance", body);
            if (!answer.ok) { notice(problem(answer)); return; }
            const ran = answer.json.events_applied;
            notice("Clock at " + time(answer.json.now) + ": " + ran + (ran === 1 ? " event" : " events") + " ran.", true);
            await refresh();
          }

          async function loadMerchants() {
            const answer = await api("GET", "/sandbox/merchants");
            if (!answer.ok || !answer.json) return;
            state.merchants = answer.json.merchants || [];
            const key = state.merchants.map((m) => m.login).join("\n");
            if (key !== state.merchantKey) {
              state.merchantKey = key;
              for (const [select, all] of [[$("filter-merchant"), true], [$("new-merchant"), false]]) {
                const chosen = select.value;
                select.replaceChildren();
                if (all) select.append(el("option", { value: "", text: "All" }));
                for (const merchant of state.merchants) select.append(el("option", { value: merchant.login, text: merchant.login }));
                if (chosen && state.merchants.some((m) => m.login === chosen)) select.value = chosen;
              }
            }
            if (state.view === "merchants") renderMerchants();
          }

          async function loadCashouts() {
            const query = new URLSearchParams();
            if ($("filter-merchant").value) query.set("merchant", $("filter-merchant").value);
            if ($("filter-status").value) query.set("status", $("filter-status").value);
            const answer = await api("GET", "/sandbox/cashouts" + (query.toString() ? "?" + query : ""));
            if (!answer.ok) { notice(problem(answer)); return; }
            const country = $("filter-country").value;
            const cashouts = (answer.json.cashouts || []).filter((c) => !country || c.country === country)
              .sort((x, y) => Number(y.cashout_id) - Number(x.cashout_id));
            const rows = cashouts.map((c) => {
              const open = () => { location.hash = "#/cashouts/" + encodeURIComponent(c.cashout_id); };
              return el("tr", { class: "link", "data-testid": "cashout-row-" + c.cashout_id, "data-id": c.cashout_id, "data-status": c.status, onclick: open },
                el("td", {}, el("a", { href: "#/cashouts/" + encodeURIComponent(c.cashout_id), text: c.cashout_id })),
                el("td", { class: "mono hide-narrow", text: c.external_id }),
                el("td", { class: "hide-narrow", text: c.merchant }),
                el("td", { text: c.country }),
                el("td", { class: "num", text: c.amount + " " + c.currency }),
                el("td", {}, el("span", { class: "badge " + c.status, "data-testid": "cashout-row-status-" + c.cashout_id, text: c.status }),
                  c.returned_after_completion ? el("span", { class: "muted", text: " returned" }) : null),
                el("td", { class: "mono hide-narrow", text: time(c.created_at) }));
            });
            $("cashouts-body").replaceChildren(...rows);
            $("cashouts-empty").hidden = rows.length > 0;
            $("cashouts-count").textContent = rows.length + (rows.length === 1 ? " cashout" : " cashouts");
          }

          // The actions each status allows (the bank's lifecycle; the server has the last word).
          const ALLOWED = {
            PENDING: ["hold", "cancel", "deliver", "reject"],
            ON_HOLD: ["release", "cancel"],
            DELIVERED: ["complete", "reject"],
            COMPLETED: ["late-reject"],
          };

          async function loadCashout() {
            const id = state.id;
            const answer = await api("GET", "/sandbox/cashouts/" + encodeURIComponent(id));
            if (id !== state.id) return;
            if (!answer.ok) {
              $("cashout-status").textContent = answer.status === 404 ? "NOT FOUND" : "ERROR";
              $("cashout-status").className = "badge";
              $("action-result").textContent = problem(answer);
              return;
            }
            renderCashout(answer.json);
          }

          function kv(target, pairs) {
            target.replaceChildren(...pairs.flatMap(([name, value]) => [el("dt", { text: name }), el("dd", { "data-field": name, text: orDash(value) })]));
          }

          function renderCashout(c) {
            $("view-cashout").setAttribute("data-status", c.status);
            $("view-cashout").setAttribute("data-returned", String(!!c.returned_after_completion));
            $("cashout-id").textContent = c.cashout_id;
            $("cashout-status").textContent = c.status;
            $("cashout-status").className = "badge " + c.status;
            $("cashout-returned").hidden = !c.returned_after_completion;
            const allowed = ALLOWED[c.status] || [];
            for (const button of document.querySelectorAll("#actions button[data-action]")) {
              button.disabled = !allowed.includes(button.getAttribute("data-action"));
            }
            $("reject-code").disabled = !allowed.includes("reject");
            kv($("cashout-details"), [
              ["merchant", c.merchant], ["external_id", c.external_id], ["country", c.country],
              ["amount", c.amount + " " + c.currency], ["settlement_amount", c.settlement_amount], ["created_at", time(c.created_at)],
              ["rejection_code", c.rejection_code], ["rejection_reason", c.rejection_reason],
              ["bank_reference_id", c.bank_reference_id], ["status_reason", c.status_reason], ["notification_url", c.notification_url],
            ]);
            const fields = c.fields || {};
            kv($("cashout-fields"), Object.keys(fields).sort().map((name) => [name, fields[name]]));
            $("history-body").replaceChildren(...(c.history || []).map((h, index) =>
              el("tr", { "data-testid": "history-row-" + index, "data-status": h.status },
                el("td", {}, badge(h.status)), el("td", { class: "mono", text: time(h.at) }), el("td", { text: h.by }),
                el("td", { text: h.rejection_code === null || h.rejection_code === undefined ? "—" : h.rejection_code + " " + orDash(h.rejection_reason) }))));
            const scheduled = c.scheduled || [];
            $("scheduled-body").replaceChildren(...scheduled.map((s, index) =>
              el("tr", { "data-testid": "scheduled-row-" + index },
                el("td", { class: "mono", text: time(s.at) }), el("td", {}, badge(s.status)), el("td", { text: orDash(s.rejection_code) }))));
            $("scheduled-empty").hidden = scheduled.length > 0;
            const webhooks = c.webhooks || [];
            $("webhooks").replaceChildren(...webhooks.map(renderWebhook));
            $("webhooks-empty").hidden = webhooks.length > 0;
          }

          function renderWebhook(w) {
            const redeliver = async () => {
              const answer = await api("POST", "/sandbox/webhooks/" + encodeURIComponent(w.id) + "/redeliver");
              if (answer.ok) notice("Webhook " + w.id + " sent again.", true); else notice(problem(answer));
              await refresh();
            };
            const attempts = (w.attempts || []).map((a) =>
              el("li", { "data-testid": "webhook-attempt-" + w.id + "-" + a.number },
                el("span", { text: "#" + a.number + " at " + time(a.at) + (a.manual ? " (manual)" : "") + ": " }),
                a.response_status !== null && a.response_status !== undefined
                  ? el("strong", { text: "HTTP " + a.response_status }) : el("strong", { class: "muted", text: orDash(a.error) }),
                a.response_body ? el("pre", { text: a.response_body }) : null));
            return el("div", { class: "webhook", "data-testid": "webhook-" + w.id, "data-state": w.state },
              el("div", { class: "webhook-head" },
                el("strong", { text: "#" + w.id }), badge(w.status), badge(w.state),
                el("span", { class: "mono", text: time(w.changed_at) }),
                el("span", { class: "mono muted", text: orDash(w.url) }),
                w.next_attempt_at ? el("span", { class: "muted", text: "next attempt " + time(w.next_attempt_at) }) : null,
                w.url ? el("button", { type: "button", "data-testid": "redeliver-" + w.id, onclick: redeliver, text: "Redeliver" }) : null),
              attempts.length ? el("ol", { class: "attempts" }, ...attempts) : el("p", { class: "empty", text: "No attempts yet." }));
          }

          async function act(action) {
            const id = state.id;
            let body = { action: action };
            if (action === "reject") {
              const code = parseInt($("reject-code").value, 10);
              if (!Number.isNaN(code)) body.rejection_code = code;
            }
            if (action === "late-reject") body = { action: "reject", rejection_code: 826 };
            for (const button of document.querySelectorAll("#actions button")) button.disabled = true;
            const answer = await api("POST", "/sandbox/cashouts/" + encodeURIComponent(id) + "/actions", body);
            if (answer.ok && answer.json) {
              renderCashout(answer.json);
              $("action-result").textContent = action + ": now " + answer.json.status + (answer.json.returned_after_completion ? " (returned after completion)" : "");
            } else {
              $("action-result").textContent = problem(answer);
              notice(problem(answer));
              await loadCashout();
            }
          }

          function renderMerchants() {
            const rows = state.merchants.map((m) => {
              const limits = m.limits || {};
              const limitText = ["transaction", "daily", "monthly"].filter((k) => limits[k]).map((k) => k + " " + limits[k]).join(", ") || "none";
              return el("tr", { class: "link" + (m.login === state.login ? " selected" : ""), "data-testid": "merchant-row-" + m.login,
                                onclick: () => { location.hash = "#/merchants/" + encodeURIComponent(m.login); } },
                el("td", {}, el("a", { href: "#/merchants/" + encodeURIComponent(m.login), text: m.login })),
                el("td", { class: "mono", text: m.pass }), el("td", { class: "mono", text: m.secret }),
                el("td", { class: "mono", text: m.read_only_key }),
                el("td", { class: "num", "data-testid": "merchant-balance-" + m.login, text: m.currency + " " + m.balance }),
                el("td", { text: limitText }));
            });
            $("merchants-body").replaceChildren(...rows);
          }

          async function loadLedger() {
            const login = state.login || (state.merchants[0] && state.merchants[0].login);
            $("ledger-card").hidden = !login;
            if (!login) return;
            const answer = await api("GET", "/sandbox/ledger?merchant=" + encodeURIComponent(login));
            if (!answer.ok) { notice(problem(answer)); return; }
            $("ledger-merchant").textContent = login;
            const entries = (answer.json.entries || []).slice().reverse();
            $("ledger-body").replaceChildren(...entries.map((e) =>
              el("tr", { "data-testid": "ledger-row-" + e.id },
                el("td", { text: e.id }), el("td", { class: "mono", text: time(e.at) }),
                el("td", {}, el("a", { href: "#/cashouts/" + encodeURIComponent(e.cashout_id), text: e.cashout_id })),
                el("td", { text: e.kind }), el("td", { class: "num", text: e.amount }), el("td", { class: "num", text: e.balance_after }))));
            $("ledger-empty").hidden = entries.length > 0;
          }

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

          function start() {
            $("advance-form").addEventListener("submit", (event) => {
              event.preventDefault();
              advance({ by: $("advance-by").value.trim() });
            });
            for (const button of document.querySelectorAll(".clock-form .quick")) {
              button.addEventListener("click", () => advance({ by: button.getAttribute("data-by") }));
            }
            $("next-event-button").addEventListener("click", () => advance({ to_next_event: true }));
            for (const id of ["filter-merchant", "filter-status", "filter-country"]) $(id).addEventListener("change", () => refresh());
            for (const button of document.querySelectorAll("#actions button[data-action]")) {
              button.addEventListener("click", () => act(button.getAttribute("data-action")));
            }
            $("new-form").addEventListener("submit", createCashout);
            $("token-form").addEventListener("submit", useToken);
            $("new-notification_url").value = location.origin + "/sandbox/sink/dashboard";
            $("new-external_id").value = freshExternalID();
            window.addEventListener("hashchange", route);
            setInterval(refresh, POLL_MS);
            route();
          }

          window.CashoutDashboard = { hmacHex: hmacHex, refresh: refresh };
          start();
        })();
        """#
}
