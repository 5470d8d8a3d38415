"""PayoutService changes in .ci/check-crash's load, and what must survive each SIGKILL of them
(python3 stdlib only).

The calls go over Connect's unary JSON (`POST /types.PayoutService/<Method>` on HTTP/1.1, the
metadata as headers): the same handlers, so the same journal records, as a gRPC call; a keep-alive
d24_client.Client carries them. The kinds, for the DefaultMerchantId merchant:
- `ps create`: a Create with a magic recipient name for every fate (PENDING, FAIL, REVERSE, STUCK,
  and DECLINE, which is refused inside an OK answer and creates nothing), notifying the flaky sink,
  a closed port or the slow receiver, or nothing;
- `ps repeat`: a Create again with a merchant_payout_id answered before: the same payout;
- `ps stage`: a Stage, then (counted as `ps transfer`) a Transfer of it most times;
- `ps link`: a CreateLink, then (`ps link page`) its page submitted (404/410 once expired);
- `ps void`: a Void of a payout answered before (400 when the lifecycle forbids it);
- `ps recipient`: a CreateRecipient, then (`ps enroll`) an EnrollDisburseAccount for it, and most
  times a Create paying the enrolled account (by connector_payout_method_id).

After each restart: every payout answered is there with its id, none of the declined is; a
Transfer, a submitted page or a Void answered is in its payout's status; every recipient and
account id answered is the merchant's, and none was answered twice (a lost one's id would be
handed out again); and the merchant's
ledger adds up (start plus entries), with one debit for each payout that was executed and a refund
exactly for each REJECTED one and each CANCELLED one that had been debited.
"""

import collections
import threading
from decimal import Decimal

MERCHANT, START = "DefaultMerchantId", Decimal("1000000.00")
HEADERS = {"x-connector": "sandbox", "x-auth": "header-key", "x-api-key": "sandbox_prism_key"}
KINDS = {"ps create": 8, "ps repeat": 2, "ps stage": 3, "ps link": 1, "ps void": 2, "ps recipient": 1}
# Kinds answered inside the ones above: check-crash requires each answered at least once.
INNER_KINDS = ["ps transfer", "ps link page", "ps enroll"]
NAMES = ["Ana Lima"] * 5 + ["FAIL Ana", "REVERSE Ana", "STUCK Ana", "DECLINE Ana"]
NOT_DEBITED = {"STAGED", "AWAITING_DETAILS", "EXPIRED"}


class Seen:
    """What the PayoutService calls were answered, across rounds."""

    def __init__(self):
        self.lock = threading.Lock()
        self.created = {}  # merchant_payout_id -> connector_payout_id
        self.recent = collections.deque(maxlen=200)  # (connector_payout_id, merchant_payout_id)
        self.declined, self.transferred, self.submitted, self.cancelled = set(), set(), set(), set()
        self.enrolled = []  # every rcp_ and pm_ id answered, in order

    def add(self, reference, body):
        with self.lock:
            self.created[reference] = body["connectorPayoutId"]
            self.recent.append((body["connectorPayoutId"], reference))

    def known(self, rng):
        with self.lock:
            return rng.choice(self.recent) if self.recent else None


def call(client, method, message):
    return client.call("POST", f"/types.PayoutService/{method}", message, headers=HEADERS)


def money(rng):
    return {"minor_amount": rng.randint(100, 50000), "currency": "USD"}


def card(holder=None):
    method = {"card": {"card_number": {"value": "4111111111111111"}}}
    if holder:
        method["card"]["card_holder_name"] = {"value": holder}
    return method


def work(client, run, seen, rng, kind, reference, notify):
    """One change of `kind` (`reference` a new merchant_payout_id; `notify` a webhook URL or None),
    counted with run.expect."""
    known = seen.known(rng)
    if kind in ("ps repeat", "ps void") and known is None:
        kind = "ps create"
    if kind == "ps create":
        message = {"merchant_payout_id": reference, "amount": money(rng), "payout_method_data": card(rng.choice(NAMES))}
        if notify:
            message["webhook_url"] = notify
        status, body = call(client, "Create", message)
        if status == 200 and body.get("payoutStatus") == "PENDING":
            seen.add(reference, body)
        elif status == 200 and body.get("payoutStatus") == "FAILED" and "connectorPayoutId" not in body:
            with seen.lock:
                seen.declined.add(reference)
        elif status == 200:
            run.unexpected.append(f"ps create: {body}")
        run.expect(kind, status, body, set())
    elif kind == "ps repeat":
        status, body = call(client, "Create", {"merchant_payout_id": known[1], "amount": money(rng), "payout_method_data": card()})
        if status == 200 and body.get("connectorPayoutId") != known[0]:
            run.unexpected.append(f"ps repeat of {known[1]} ({known[0]}): {body}")
        run.expect(kind, status, body, set())
    elif kind == "ps stage":
        status, body = call(client, "Stage", {"merchant_quote_id": reference, "amount": money(rng), "customer": {"name": "Ana Lima"}})
        run.expect(kind, status, body, set())
        if status == 200:
            seen.add(reference, body)
            if rng.random() < 0.8:
                status, body = call(client, "Transfer", {"connector_payout_id": body["connectorPayoutId"]})
                if status == 200 and body.get("payoutStatus") == "PENDING":
                    with seen.lock:
                        seen.transferred.add(body["connectorPayoutId"])
                run.expect("ps transfer", status, body, {400})  # a Void got there first
    elif kind == "ps link":
        message = {"merchant_payout_id": reference, "amount": money(rng)}
        if notify:
            message["webhook_url"] = notify
        status, body = call(client, "CreateLink", message)
        run.expect(kind, status, body, set())
        if status == 200:
            seen.add(reference, body)
            status, record = client.call("GET", f"/sandbox/cashouts/{body['connectorPayoutId']}")
            if status == 200 and rng.random() < 0.8:
                path = record["fields"]["payout_link"].split("/", 3)[3]
                status, page = client.call("POST", "/" + path, b"method=card&holder_name=Ana+Lima&account=4111111111111111",
                                           headers={"Content-Type": "application/x-www-form-urlencoded"})
                if status == 200:
                    with seen.lock:
                        seen.submitted.add(body["connectorPayoutId"])
                run.expect("ps link page", status, str(page)[:100], {402, 410})  # the balance; voided or expired first
    elif kind == "ps recipient":
        status, body = call(client, "CreateRecipient", {"customer": {"name": rng.choice(NAMES)}, "recipient_type": "INDIVIDUAL"})
        run.expect(kind, status, body, set())
        if status != 200:
            return
        with seen.lock:
            seen.enrolled.append(body["connectorPayoutId"])
        status, body = call(client, "EnrollDisburseAccount", {"payout_method_data": card(),
                                                              "customer": {"connector_customer_id": body["connectorPayoutId"]}})
        run.expect("ps enroll", status, body, set())
        if status == 200:
            with seen.lock:
                seen.enrolled.append(body["connectorPayoutId"])
            if rng.random() < 0.7:
                status, paid = call(client, "Create", {"merchant_payout_id": reference, "amount": money(rng),
                                                       "connector_payout_method_id": body["connectorPayoutId"]})
                if status == 200 and paid.get("payoutStatus") == "PENDING":
                    seen.add(reference, paid)
                run.expect("ps create", status, paid, set())
    else:  # ps void
        status, body = call(client, "Void", {"connector_payout_id": known[0]})
        if status == 200 and body.get("payoutStatus") == "CANCELLED":
            with seen.lock:
                seen.cancelled.add(known[0])
        run.expect(kind, status, body, {400})  # failed_precondition: the lifecycle forbids it


def verify(client, seen, problems):
    """What must have survived the restart; the number of PayoutService payouts."""
    payouts = {p["external_id"]: p for p in client.get(f"/sandbox/cashouts?merchant={MERCHANT}")["cashouts"]}
    by_id = {str(p["cashout_id"]): p for p in payouts.values()}
    with seen.lock:
        created, declined = dict(seen.created), set(seen.declined)
        checks = [(seen.transferred, lambda s: s != "STAGED", "transferred"),
                  (seen.submitted, lambda s: s not in ("AWAITING_DETAILS", "EXPIRED"), "submitted on its page"),
                  (seen.cancelled, lambda s: s == "CANCELLED", "voided")]
        checks = [(set(ids), test, what) for ids, test, what in checks]
        enrolled = list(seen.enrolled)
    for reference, payout_id in sorted(created.items()):
        found = payouts.get(reference)
        if found is None or str(found["cashout_id"]) != payout_id or found["dialect"] != "prism":
            problems.append(f"PayoutService payout {reference} was answered as {payout_id} but is {found and found['cashout_id']}")
    for reference in sorted(declined & set(payouts)):
        problems.append(f"PayoutService Create {reference} was declined, but there is a payout {payouts[reference]['cashout_id']}")
    for ids, test, what in checks:
        for payout_id in sorted(ids):
            if payout_id in by_id and not test(by_id[payout_id]["status"]):
                problems.append(f"PayoutService payout {payout_id} was {what} (200) but is {by_id[payout_id]['status']}")
    merchant = next(m for m in client.get("/sandbox/prism-merchants")["merchants"] if m["merchant_id"] == MERCHANT)
    kept = set(merchant["recipients"]) | set(merchant["payout_methods"])
    for given in sorted(set(enrolled) - kept):
        problems.append(f"{given} was answered by CreateRecipient or EnrollDisburseAccount but {MERCHANT} has no such id")
    for given, count in sorted(collections.Counter(enrolled).items()):
        if count > 1:
            problems.append(f"{given} was answered {count} times: the first was lost and its id given again")
    entries = client.get(f"/sandbox/ledger?merchant={MERCHANT}")["entries"]
    summed = START + sum(Decimal(e["amount"]) for e in entries)
    if entries and Decimal(entries[-1]["balance_after"]) != summed:
        problems.append(f"{MERCHANT}: balance {entries[-1]['balance_after']}, but the ledger says {summed}")
    kinds = collections.Counter((str(e["cashout_id"]), e["kind"]) for e in entries)
    for payout in payouts.values():
        payout_id, status = str(payout["cashout_id"]), payout["status"]
        debits, refunds = kinds[(payout_id, "debit")], kinds[(payout_id, "refund")]
        if status in NOT_DEBITED:
            good = debits == refunds == 0
        elif status == "CANCELLED":
            good = debits == refunds and debits <= 1
        else:
            good = debits == 1 and refunds == (1 if status == "REJECTED" else 0)
        if not good:
            problems.append(f"PayoutService payout {payout_id} is {status} with {debits} debits and {refunds} refunds")
    return len(payouts)
