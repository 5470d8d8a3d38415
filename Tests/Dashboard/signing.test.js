// The forms' signing (hmac.js, D24's script.js): HMAC-SHA256 in hex as the page computes it, by
// crypto.subtle and by its own SHA-256 (a page that is not a secure context), against values
// computed independently: Python's hmac (python3 -c 'import hmac, hashlib; print(hmac.new(KEY,
// MESSAGE, hashlib.sha256).hexdigest())') and `printf %s MESSAGE | openssl dgst -sha256 -hmac KEY`.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./harness.js");

const KNOWN = [
  ["sandbox_secret", 'héllo {"a":1}', "38a3d5653dd010e92134f6ad8f079a8dc1a82d1c6c52faeacc7fb2e2c9e5bc8a"],
  ["k".repeat(100), "x".repeat(200), "e326f00ce14194bb85e2683fe9b1a78851753f77479303f94c2c3cd1998bdda3"],  // a key longer than a block
];
// The fallback alone (crypto.subtle refuses an empty key).
const EMPTY = ["", "", "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"];

test("hmacHex: crypto.subtle and the fallback agree with Python's hmac", async () => {
  const page = await load({ apis: ["d24"] });
  for (const [key, message, expected] of KNOWN) {
    assert.equal(await page.window.CashoutDashboard.hmacHex(key, message), expected, `subtle ${key.slice(0, 8)}`);
    assert.equal(await page.window.CashoutDashboard.hmacHex(key, message, true), expected, `fallback ${key.slice(0, 8)}`);
  }
  assert.equal(await page.window.CashoutDashboard.hmacHex(EMPTY[0], EMPTY[1], true), EMPTY[2], "fallback, empty key and message");
  const insecure = await load({ apis: ["d24"], crypto: false });
  assert.equal(await insecure.window.CashoutDashboard.hmacHex(KNOWN[0][0], KNOWN[0][1]), KNOWN[0][2], "without crypto.subtle");
});

test("the D24 form signs the body it sends with the merchant's secret", async () => {
  const sent = [];
  const routes = { "POST /v3/cashout": (request) => { sent.push(request); return { json: { cashout_id: 77 } }; } };
  const page = await load({ apis: ["d24"], hash: "#/new", routes, crypto: false });
  assert.deepEqual(page.$("new-merchant").options.map((o) => o.value), ["sandbox_login"]);
  page.$("new-external_id").value = "dash-1";
  page.$("new-notification_url").value = "";
  for (const name of ["document_id", "document_type", "beneficiary_name", "beneficiary_lastname", "bank_code", "bank_account", "bank_branch",
                      "account_type"]) page.$("new-" + name).value = "";
  page.$("new-amount").value = " 12.50 ";
  page.$("new-form").submit();
  await page.settle();
  assert.equal(sent.length, 1);
  const body = '{"login":"sandbox_login","pass":"sandbox_pass","external_id":"dash-1","country":"BR","currency":"BRL","amount":"12.50"}';
  assert.equal(sent[0].body, body);
  // python3 -c 'import hmac,hashlib,sys; print(hmac.new(b"sandbox_secret", sys.argv[1].encode(), hashlib.sha256).hexdigest())' "$body"
  assert.equal(sent[0].headers["Payload-Signature"], "3b1f36eead4726c90c70145c96f79e753de4f61abbd5b347ff54f60522f61b35");
  assert.equal(page.$("new-result").getAttribute("data-cashout-id"), "77");
  assert.equal(page.$("new-result").textContent, "Created cashout 77.");
  assert.match(page.$("new-request").textContent, /^POST \/v3\/cashout\nPayload-Signature: [0-9a-f]{64}\n\n\{/);
  assert.match(page.$("new-external_id").value, /^dash-/, "a fresh external id for the next one");
  assert.notEqual(page.$("new-external_id").value, "dash-1");
});

test("the D24 form shows a refusal", async () => {
  const routes = { "POST /v3/cashout": { status: 401, json: { code: 100, description: "Invalid signature" } } };
  const page = await load({ apis: ["d24"], hash: "#/new", routes });
  page.$("new-form").submit();
  await page.settle();
  assert.equal(page.$("new-result").textContent, "Refused: HTTP 401: Invalid signature");
  assert.equal(page.$("new-result").getAttribute("data-cashout-id"), null);
});
