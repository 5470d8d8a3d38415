"""The careful PayoutService app: what the integration report expects of a PayoutService integration.

- A webhook is trusted only when its X-Webhook-Signature is the merchant's (a forged one gets 401).
- A webhook carries the payout's status: the app stores it and answers 200, once per event_id (a
  redelivered event is answered 200 again and not applied twice). A FAILED or REVERSED payout gives
  the money back to the user, so the app confirms it with Get before doing so.
- A Create whose answer is lost, or answered 5xx, is sent again with the same merchant_payout_id:
  PayoutService answers the payout that was made, and makes no second one.
- It keeps a ledger of what it learnt, served at $CASHOUT_SANDBOX_APP_PORT/ledger.
"""
import json
import time

import common
import payoutservice_shop as shop

ledger = common.Ledger("merchant_payout_id")
events = set()


def on_webhook(headers, body):
    if not shop.signed(headers, body):
        return 401
    event = json.loads(body)
    if event["event_id"] in events:
        return 200
    status = event["payout_status"]
    if status in ("FAILED", "REVERSED"):
        answer = shop.call("Get", {"connector_payout_id": event["connector_payout_id"]})
        if answer is None or answer[0] != 200:
            return 503  # not learnt: let the sandbox send it again
        status = answer[1]["payoutStatus"]
    ledger.book(event["merchant_payout_id"], status)
    events.add(event["event_id"])
    return 200


ledger.serve()
url = shop.receive_webhooks(on_webhook)
for merchant_payout_id, minor_amount in shop.PAYOUTS:
    message = shop.create_message(merchant_payout_id, minor_amount, url)
    answer = shop.call("Create", message)
    for _ in range(20):  # lost, or a 5xx: the same merchant_payout_id again (the payout made, if it was, is answered)
        if answer is not None and answer[0] < 500:
            break
        print(f"careful app: the answer to {merchant_payout_id} was {'lost' if answer is None else answer[0]}; creating it again with the same merchant_payout_id")
        time.sleep(0.05)
        answer = shop.call("Create", message)
        print("careful app:", answer)
    if answer is not None and answer[0] == 200:
        ledger.made(merchant_payout_id, f"{minor_amount // 100}.{minor_amount % 100:02d}", answer[1]["payoutStatus"])
common.serve_until_quiet()
print("careful app: learnt", ledger.payouts())
