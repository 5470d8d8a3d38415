"""The careful app: what the integration report expects of a D24 integration.

- A notification is trusted only when its control is the merchant's (a forged one gets 401).
- Each trusted notification is followed by POST /v3/cashout/status for that cashout: D24's
  notifications carry no status, so asking is the only way to learn a rejection or a reversal. A
  lost or 5xx answer is asked again after 100, 200, 400 ms, then the notification refused (503) to
  be sent again.
- A create whose answer is lost is not sent with a new external_id: the app sends it again as it
  was (D24 refuses it 511, the external_id being taken), then asks for the status by its own
  external_id (again after 100, 200, 400 ms while that answer is lost too), and finds the cashout
  that was made.
- It keeps a ledger of what each answer said, served at $CASHOUT_SANDBOX_APP_PORT/ledger.

--give-up-on-429: a create answered 429 (rate limited) is taken for a failed payout, never sent again.
"""
import hmac

import common
import shop

ledger = common.Ledger("external_id")


def on_notification(form):
    if not hmac.compare_digest(form.get("control", ""), shop.control(form.get("external_id", ""))):
        return 401
    answer = common.retried(lambda: shop.call("/v3/cashout/status", {"cashout_id": int(form["cashout_id"])}))
    if answer is None or answer[0] != 200:
        return 503  # not learnt, even asked again: let the sandbox send it again
    ledger.book(form["external_id"], shop.WORDS[answer[1]["cashout_status_description"]])
    return 200


ledger.serve()
url = shop.receive_notifications(on_notification)
for external_id, amount in shop.ORDERS:
    fields = shop.create_fields(external_id, amount, url)
    answer = shop.call("/v3/cashout", fields)
    if answer is not None and answer[0] == 200:
        ledger.made(external_id, amount, "PENDING")
        continue
    if answer is not None and answer[0] == 429:  # only with --give-up-on-429: common.request waits and sends it again
        print(f"careful app: payout of {external_id} failed: HTTP 429 {answer[1]}")
        continue
    print(f"careful app: the answer to {external_id} was lost; sending it again:", shop.call("/v3/cashout", fields))
    print("careful app: asking for it by its external_id")
    found = common.retried(lambda: shop.call("/v3/cashout/status", {"external_id": external_id}))  # that answer may be lost too
    print("careful app:", found)
    if found is not None and found[0] == 200:
        ledger.made(external_id, amount, shop.WORDS[found[1]["cashout_status_description"]])
common.serve_until_quiet()
print("careful app: learnt", ledger.payouts())
