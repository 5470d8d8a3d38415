"""The naive app: what production punishes, one mistake per finding of the integration report.

- It answers every notification 200 without checking its control (forged_notification_accepted).
- It never asks POST /v3/cashout/status, so it never learns a rejection (notification_not_followed_up)
  nor a reversal after completion (late_rejection_missed).
- When a create's answer is lost it creates again with a new external_id (duplicate_after_lost_response).
- Asked to wait (HTTP 429 with Retry-After), it sends the request again at once (retried_before_retry_after).
"""
import common
import shop

common.HONOURS_RETRY_AFTER = False

url = shop.receive_notifications(lambda form: 200)
for external_id, amount in shop.ORDERS:
    if shop.call("/v3/cashout", shop.create_fields(external_id, amount, url)) is None:
        print(f"naive app: the answer to {external_id} was lost; trying again as {external_id}-retry")
        shop.call("/v3/cashout", shop.create_fields(f"{external_id}-retry", amount, url))
common.serve_until_quiet()
print("naive app: done")
