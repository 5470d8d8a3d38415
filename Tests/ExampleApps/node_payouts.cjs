// A D24 payout service as a Node team writes one (the Testing your app guide, "App shapes and what
// the clock waits for"): the standard library only (node:http, node:crypto), its nine orders (BRL
// 101.00 to 109.00, as scenarios/certify.json and explore-d24.json expect) sent at once with
// Promise.all, each create and status query that is lost or answered 5xx retried after 500 ms,
// doubled each time up to 4 s. A create whose answer was lost is sent again as it was (D24 refuses
// it 511: the external_id is taken), then looked up by its external_id. Each notification is checked
// (control), answered at once and followed up with POST /v3/cashout/status. Its ledger is served at
// $CASHOUT_SANDBOX_APP_PORT/ledger and what it still has to do at /settled ({"pending": N}); it ends
// once the suite's steps are over.
//
//   node node_payouts.cjs [--bug new-reference] [--no-settled]
//
// --bug new-reference: a create whose answer was lost is taken for not made, and sent again under a
// new external_id (the bank then pays twice). --no-settled: /settled answers 404, as an app that
// does not offer it.
"use strict";
const crypto = require("node:crypto");
const http = require("node:http");

const SANDBOX = new URL(process.env.CASHOUT_SANDBOX_URL);
const LOGIN = process.env.CASHOUT_SANDBOX_D24_LOGIN;
const PASS = process.env.CASHOUT_SANDBOX_D24_PASS;
const SECRET = process.env.CASHOUT_SANDBOX_D24_SECRET_KEY;
const NEW_REFERENCE = process.argv.includes("new-reference");
const SETTLED = !process.argv.includes("--no-settled");
const WORDS = { Pending: "PENDING", Delivered: "DELIVERED", Completed: "COMPLETED", Rejected: "REJECTED",
  Canceled: "CANCELLED", "On Hold": "ON_HOLD" };

const ledger = new Map();  // order's external_id -> {external_id, amount, status}
let pending = 0;           // requests in flight, retries waiting, follow-ups not yet made: what /settled answers

// Counts `work` (a promise's maker) as pending until it has settled.
async function owed(work) {
  pending++;
  try { return await work(); } finally { pending--; }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// POSTs a signed D24 request: {status, body}, or null when no whole answer came (closed, or cut off). Asked to wait
// (429, a gateway's rate limit), it sends again once Retry-After's seconds have passed, up to 5 times.
async function post(path, fields) {
  let answer = await postOnce(path, fields);
  for (let waits = 0; answer !== null && answer.status === 429 && waits < 5; waits++) {
    await sleep(1000 * Number(answer.retryAfter ?? 1));
    answer = await postOnce(path, fields);
  }
  return answer;
}

function postOnce(path, fields) {
  const body = JSON.stringify({ login: LOGIN, pass: PASS, ...fields });
  const headers = { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body),
    "Payload-Signature": crypto.createHmac("sha256", SECRET).update(body).digest("hex") };
  return new Promise((resolve) => {
    const request = http.request(new URL(path, SANDBOX), { method: "POST", headers, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk) => (text += chunk)).on("error", () => resolve(null))
        .on("end", () => {
          try {
            resolve({ status: response.statusCode, body: text ? JSON.parse(text) : {}, retryAfter: response.headers["retry-after"] });
          } catch {
            resolve(null);  // cut off: broken JSON
          }
        });
    });
    request.on("error", () => resolve(null));
    request.end(body);
  });
}

// Sends until answered below 500 (500 ms, then doubled up to 4 s); `lost()` decides instead what a lost answer comes to.
async function retrying(path, fields, lost) {
  for (let attempt = 0; attempt < 8; attempt++) {
    const answer = await post(path, fields);
    if (answer === null && lost) return lost();
    if (answer !== null && answer.status < 500) return answer;
    await sleep(Math.min(500 * 2 ** attempt, 4000));
  }
  return null;
}

function book(order, status) {
  const entry = ledger.get(order);
  if (entry) entry.status = WORDS[status] ?? status;
}

async function create(order, externalID, amount, url) {
  const fields = { external_id: externalID, country: "BR", currency: "BRL", amount, document_id: "01716001340",
    document_type: "CPF", beneficiary_name: "Ana", beneficiary_lastname: "Silva", bank_code: "001", bank_account: "3423422-7",
    bank_branch: "1234", account_type: "C", notification_url: url };
  const answer = await retrying("/v3/cashout", fields, NEW_REFERENCE ? () => "lost" : null);
  if (answer === "lost") {  // the bug: taken for not made, made again under a new reference after the backoff
    await sleep(500);
    return create(order, `${externalID}-retry`, amount, url);
  }
  if (answer?.status === 200) {
    if (!ledger.has(order)) ledger.set(order, { external_id: order, amount, status: "PENDING" });
    ledger.get(order).reference = externalID;
  } else if (answer?.body?.code === 511) {  // made before: its answer was lost
    const found = await retrying("/v3/cashout/status", { external_id: externalID });
    if (found?.status === 200) {
      ledger.set(order, { external_id: order, amount, status: WORDS[found.body.cashout_status_description], reference: externalID });
    }
  }
}

function trusted(form) {
  const expected = crypto.createHmac("sha256", SECRET).update(`Be4${form.get("external_id")}Bo7`).digest("hex").toUpperCase();
  const received = form.get("control") ?? "";
  return received.length === expected.length && crypto.timingSafeEqual(Buffer.from(received), Buffer.from(expected));
}

function orderOf(externalID) {
  for (const [order, entry] of ledger) if (entry.reference === externalID) return order;
  return null;
}

const receiver = http.createServer((request, response) => {
  let text = "";
  request.setEncoding("utf8").on("data", (chunk) => (text += chunk)).on("end", () => {
    const form = new URLSearchParams(text);  // cashout_id, external_id, date, control: no status
    if (!trusted(form)) return response.writeHead(401).end();
    // Counted before the answer goes: the follow-up is owed from now.
    owed(async () => {
      const answer = await retrying("/v3/cashout/status", { cashout_id: Number(form.get("cashout_id")) });
      const order = orderOf(form.get("external_id"));
      if (answer?.status === 200 && order) book(order, answer.body.cashout_status_description);
    });
    response.writeHead(200).end();
  });
});

const app = http.createServer((request, response) => {
  const json = (body) => response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  if (request.url === "/ledger") {
    return json({ payouts: [...ledger.values()].map(({ external_id, amount, status }) => ({ external_id, amount, status })) });
  }
  if (request.url === "/settled" && SETTLED) return json({ pending });
  response.writeHead(404).end();
});

async function suiteState() {
  return new Promise((resolve) => {
    http.get(process.env.CASHOUT_SANDBOX_SUITE_URL, (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk)).on("end", () => {
        try { resolve(JSON.parse(text).state); } catch { resolve(null); }
      });
    }).on("error", () => resolve(null));
  });
}

async function main() {
  await new Promise((resolve) => app.listen(Number(process.env.CASHOUT_SANDBOX_APP_PORT), "127.0.0.1", resolve));
  await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${receiver.address().port}/notifications`;
  const orders = Array.from({ length: 9 }, (_, i) => [`node-order-${101 + i}`, `${101 + i}.00`]);
  await Promise.all(orders.map(([order, amount]) => owed(() => create(order, order, amount, url))));
  for (let state = await suiteState(); state === "running"; state = await suiteState()) await sleep(100);
  console.log("node payouts: learnt", JSON.stringify([...ledger.values()]));
  process.exit(0);
}

main();
