"""The naive PayoutService app: what production punishes, one mistake per finding of the integration report.

- It accepts every webhook without checking X-Webhook-Signature (forged_notification_accepted).
- Its state machine knows no way back from SUCCESS: it refuses a REVERSED webhook with 400 on every
  attempt (notification_failed) and never asks Get, so it never learns the reversal (late_rejection_missed).
- On a FAILED webhook it pays again to another card under the same merchant_payout_id (idempotency_key_reused):
  PayoutService answers the failed payout, and nothing is paid.
- It waits for its first payout by calling Get in a loop (status_polling_excessive).
- When a Create's answer is lost it creates again with a new merchant_payout_id (duplicate_after_lost_response).
- Asked to wait (HTTP 429 with Retry-After), it sends the request again at once (retried_before_retry_after).
"""
import json

import common
import payoutservice_shop as shop

common.HONOURS_RETRY_AFTER = False

url = None


def on_webhook(headers, body):
    event = json.loads(body)
    if event["payout_status"] == "REVERSED":
        return 400
    if event["payout_status"] == "FAILED":
        amount = dict(shop.PAYOUTS)[event["merchant_payout_id"]]
        shop.call("Create", shop.create_message(event["merchant_payout_id"], amount, url, card="5555555555554444"))
    return 200


url = shop.receive_webhooks(on_webhook)
for index, (merchant_payout_id, minor_amount) in enumerate(shop.PAYOUTS):
    answer = shop.call("Create", shop.create_message(merchant_payout_id, minor_amount, url))
    if answer is None:
        print(f"naive app: the answer to {merchant_payout_id} was lost; trying again as {merchant_payout_id}-retry")
        shop.call("Create", shop.create_message(f"{merchant_payout_id}-retry", minor_amount, url))
    elif index == 0:
        for _ in range(15):  # waiting for it to leave PENDING, without a pause
            if shop.call("Get", {"connector_payout_id": answer[1]["connectorPayoutId"]})[1].get("payoutStatus") != "PENDING":
                break
common.serve_until_quiet()
print("naive app: done")
