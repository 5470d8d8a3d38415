// PayoutService through Connect JSON, with Node's standard library only (http, crypto): a Create
// with a webhook_url served here, each webhook's X-Webhook-Signature checked, the clock moved.
//   SANDBOX=http://localhost:8080 node payoutservice_connect.mjs     (serve --clock manual)
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";

const SANDBOX = process.env.SANDBOX ?? process.env.CASHOUT_SANDBOX_URL ?? "http://localhost:8080";
const MERCHANT = process.env.CASHOUT_SANDBOX_PRISM_MERCHANT_ID ?? "DefaultMerchantId";
const API_KEY = process.env.CASHOUT_SANDBOX_PRISM_API_KEY ?? "sandbox_prism_key";

// POSTs JSON and resolves {status, body}; rejects when the connection closes without an answer.
function post(path, message, headers = {}) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(message);
    const request = http.request(new URL(path, SANDBOX), { method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), ...headers } }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk) => (text += chunk)).on("end", () =>
        resolve({ status: response.statusCode, body: text ? JSON.parse(text) : {} }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

// A PayoutService method over Connect: the request message as proto3 JSON, the metadata as headers.
const call = (method, message) => post(`/types.PayoutService/${method}`, message,
  { "x-connector": "sandbox", "x-auth": "header-key", "x-api-key": API_KEY, "x-merchant-id": MERCHANT });

// X-Webhook-Signature: "sha256=" and the lowercase hex HMAC-SHA256 of the body's bytes, keyed with the API key.
function signed(header, body) {
  const expected = Buffer.from("sha256=" + createHmac("sha256", API_KEY).update(body).digest("hex"));
  const received = Buffer.from(header ?? "");
  return received.length === expected.length && timingSafeEqual(received, expected);
}

const learnt = [];
const receiver = http.createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk)).on("end", () => {
    const body = Buffer.concat(chunks);
    if (!signed(request.headers["x-webhook-signature"], body)) return response.writeHead(401).end();
    const event = JSON.parse(body);  // event_id is the same on every retry: store it to drop duplicates
    learnt.push(event.payout_status);
    response.writeHead(200).end();
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const webhookURL = `http://127.0.0.1:${receiver.address().port}/webhooks`;

const created = await call("Create", { merchant_payout_id: `order-js-${Date.now()}`, webhook_url: webhookURL,
  amount: { minor_amount: 1000, currency: "USD" }, destination_currency: "USD",
  payout_method_data: { card: { card_number: { value: "4111111111111111" }, card_holder_name: { value: "Ana Lima" } } } });
console.log(created.status, JSON.stringify(created.body));  // 200 {"connectorPayoutId":"1000001",...,"payoutStatus":"PENDING","statusCode":200}

await post("/sandbox/clock/advance", { by: "15s" });  // INITIATED after 5 s, SUCCESS 10 s later: each webhook answered first
const got = await call("Get", { connector_payout_id: created.body.connectorPayoutId });
console.log(learnt.join(), got.body.payoutStatus);  // INITIATED,SUCCESS SUCCESS
receiver.close();
if (created.status !== 200 || learnt.join() !== "INITIATED,SUCCESS" || got.body.payoutStatus !== "SUCCESS") process.exit(1);
