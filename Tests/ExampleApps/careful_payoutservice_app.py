"""The careful PayoutService app: what the integration report expects of a PayoutService integration.

- A webhook is trusted only when its X-Webhook-Signature is the merchant's (a forged one gets 401).
- A webhook carries the payout's status: the app stores it and answers 200, once per event_id (a
  redelivered event is answered 200 again and not applied twice), and never goes back: a webhook
  delivered late (INITIATED after SUCCESS) is answered 200 and not applied. A FAILED or REVERSED payout gives
  the money back to the user, so the app confirms it with Get before doing so (asked again after
  100, 200, 400 ms when its answer is lost or a 5xx, then refused to be sent again).
- A Create whose answer is lost, or answered 5xx, is sent again with the same merchant_payout_id:
  PayoutService answers the payout that was made, and makes no second one.
- It keeps a ledger of what it learnt, served at $CASHOUT_SANDBOX_APP_PORT/ledger, and what it still
  has to do at /settled ({"pending": N}: the Creates not yet sent or answered; a webhook is handled
  before it is answered, so nothing of it is pending after).

A Create is sent again $BACKOFF_SECONDS (default 0.05 s) after a lost or 5xx answer.

--recover-with-get: a Create whose answer is lost (or a 5xx) is looked up with Get by its
merchant_payout_id first, and sent again only when Get finds none (the other way to recover).
--ids-per-run: each merchant_payout_id ends with a suffix made anew each run, as an app whose ids
come from its own database does. --bug reversed-as-success: a REVERSED webhook, confirmed with
Get all the same, is booked as SUCCESS. --bug strict-states: a webhook is applied only when its
status is the next of PENDING, INITIATED, SUCCESS (or a final one), else answered 200 and dropped:
a SUCCESS that comes before its INITIATED leaves the payout PENDING. --bug swallow: a Get whose
answer is lost is not asked again, and the webhook is answered 200 all the same (nobody tells the
service again). --give-up-on-429: a Create answered 429 (Connect's resource_exhausted) is taken for a
failed payout, never sent again.
"""
import json
import os
import sys
import time

import common
import payoutservice_shop as shop

RECOVER_WITH_GET = "--recover-with-get" in sys.argv
REVERSED_AS_SUCCESS = "reversed-as-success" in sys.argv
STRICT = "strict-states" in sys.argv
SWALLOW = "swallow" in sys.argv
# The changes a strict state machine allows (--bug strict-states): never PENDING to SUCCESS.
NEXT = {"PENDING": {"INITIATED", "FAILED", "CANCELLED"}, "INITIATED": {"SUCCESS", "FAILED"}, "SUCCESS": {"REVERSED"}}
SUFFIX = f"-{os.urandom(3).hex()}" if "--ids-per-run" in sys.argv else ""
BACKOFF = float(os.environ.get("BACKOFF_SECONDS", "0.05"))
ledger = common.Ledger("merchant_payout_id")
pending = common.Pending()  # what /settled answers
events = set()
# How far along a status is: a payout moves forward only (a reversal comes after a success).
RANK = {"REQUIRES_FULFILLMENT": 0, "REQUIRES_PAYOUT_METHOD_DATA": 0, "PENDING": 1, "INITIATED": 2, "SUCCESS": 3, "FAILED": 3,
        "CANCELLED": 3, "EXPIRED": 3, "REVERSED": 4}


def on_webhook(headers, body):
    if not shop.signed(headers, body):
        return 401
    event = json.loads(body)
    if event["event_id"] in events:
        return 200
    status = event["payout_status"]
    if status in ("FAILED", "REVERSED"):
        ask = lambda: shop.call("Get", {"connector_payout_id": event["connector_payout_id"]})
        answer = ask() if SWALLOW else common.retried(ask)
        if answer is None or answer[0] != 200:
            return 200 if SWALLOW else 503  # not learnt, even asked again: let the sandbox send it again
        status = answer[1]["payoutStatus"]
    if REVERSED_AS_SUCCESS and status == "REVERSED":
        status = "SUCCESS"
    believed = ledger.status(event["merchant_payout_id"])
    if STRICT and believed not in (None, status) and status not in NEXT.get(believed, ()):
        events.add(event["event_id"])
        return 200
    if RANK.get(status, 0) >= RANK.get(believed, 0):
        ledger.book(event["merchant_payout_id"], status)
    events.add(event["event_id"])
    return 200


ledger.serve(None if "--no-settled" in sys.argv else pending)
url = shop.receive_webhooks(on_webhook)
def recovered(merchant_payout_id):
    """The answer of Get by merchant_payout_id for a Create whose answer was lost: the payout when it
    was made, None when it was not (or Get could not tell)."""
    for _ in range(20):
        answer = shop.call("Get", {"merchant_payout_id": merchant_payout_id})
        if answer is not None and answer[0] < 500:
            return answer if answer[0] == 200 else None
        time.sleep(0.05)
    return None


for _ in shop.PAYOUTS:
    pending.add()  # queued: the app has them to send
for base_id, minor_amount in shop.PAYOUTS:
    merchant_payout_id = base_id + SUFFIX
    message = shop.create_message(merchant_payout_id, minor_amount, url)
    answer = shop.call("Create", message)
    for _ in range(20):  # lost, or a 5xx: the same merchant_payout_id again (the payout made, if it was, is answered)
        if answer is not None and answer[0] < 500:
            break
        print(f"careful app: the answer to {merchant_payout_id} was {'lost' if answer is None else answer[0]}; "
              + ("looking it up with Get" if RECOVER_WITH_GET else "creating it again with the same merchant_payout_id"))
        time.sleep(BACKOFF)
        answer = (RECOVER_WITH_GET and recovered(merchant_payout_id)) or shop.call("Create", message)
        print("careful app:", answer)
    if answer is not None and answer[0] == 200:
        ledger.made(merchant_payout_id, f"{minor_amount // 100}.{minor_amount % 100:02d}", answer[1]["payoutStatus"])
    elif answer is not None and answer[0] == 429:  # only with --give-up-on-429: common.request waits and sends it again
        print(f"careful app: payout of {merchant_payout_id} failed: HTTP 429 {answer[1]}")
    pending.done()
common.serve_until_quiet()
print("careful app: learnt", ledger.payouts())
