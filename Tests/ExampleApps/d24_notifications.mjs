// D24 Cashouts v3 with Node's standard library only (http, crypto): a create signed with
// Payload-Signature, a notification received and its control checked, then the status asked.
//   SANDBOX=http://localhost:8080 node d24_notifications.mjs     (serve --clock manual)
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";

const SANDBOX = process.env.SANDBOX ?? process.env.CASHOUT_SANDBOX_URL ?? "http://localhost:8080";
const LOGIN = process.env.CASHOUT_SANDBOX_D24_LOGIN ?? "sandbox_login";
const PASS = process.env.CASHOUT_SANDBOX_D24_PASS ?? "sandbox_pass";
const SECRET = process.env.CASHOUT_SANDBOX_D24_SECRET_KEY ?? "sandbox_secret";

const hmac = (text) => createHmac("sha256", SECRET).update(text);

// POSTs JSON and resolves {status, body}. A D24 call is signed: Payload-Signature is the lowercase
// hex HMAC-SHA256 of the exact body bytes sent, keyed with the secret key.
function post(path, fields, { sign = true } = {}) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(sign ? { login: LOGIN, pass: PASS, ...fields } : fields);
    const headers = { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) };
    if (sign) headers["Payload-Signature"] = hmac(body).digest("hex");
    const request = http.request(new URL(path, SANDBOX), { method: "POST", headers }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk) => (text += chunk)).on("end", () =>
        resolve({ status: response.statusCode, body: text ? JSON.parse(text) : {} }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

// A notification's control: uppercase hex HMAC-SHA256 of "Be4" + external_id + "Bo7", keyed with the secret key.
function trusted(form) {
  const expected = Buffer.from(hmac(`Be4${form.get("external_id")}Bo7`).digest("hex").toUpperCase());
  const received = Buffer.from(form.get("control") ?? "");
  return received.length === expected.length && timingSafeEqual(received, expected);
}

const learnt = [];
const receiver = http.createServer((request, response) => {
  let text = "";
  request.setEncoding("utf8").on("data", (chunk) => (text += chunk)).on("end", async () => {
    const form = new URLSearchParams(text);  // cashout_id, external_id, date, control: no status
    if (!trusted(form)) return response.writeHead(401).end();
    const status = await post("/v3/cashout/status", { cashout_id: Number(form.get("cashout_id")) });  // ask, then answer
    learnt.push(status.body.cashout_status_description);
    response.writeHead(200).end();
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));

const created = await post("/v3/cashout", { external_id: `order-js-${Date.now()}`, country: "BR", currency: "BRL", amount: "50.00",
  document_id: "01716001340", document_type: "CPF", beneficiary_name: "Ana", beneficiary_lastname: "Silva", bank_code: "001",
  bank_account: "3423422-7", bank_branch: "1234", account_type: "C",
  notification_url: `http://127.0.0.1:${receiver.address().port}/notifications` });
console.log(created.status, JSON.stringify(created.body));  // 200 {"cashout_id":"1000001"}

await post("/sandbox/clock/advance", { by: "1d" }, { sign: false });  // each notification waits for its answer
console.log(learnt.join());  // one status a notification, the last Completed
receiver.close();
if (created.status !== 200 || learnt.at(-1) !== "Completed") process.exit(1);
