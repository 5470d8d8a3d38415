"""The careful app, written the usual way for a webhook handler: each trusted notification is
answered at once, and followed up a moment later (100 ms) on a thread of its own with
POST /v3/cashout/status. `cashout-sandbox test --serve` stops the clock for the app after each
notification, so the follow-ups count as made when the notification came (the Testing your app
guide, "Real time and virtual time"). It keeps a ledger of what each answer said, served at
$CASHOUT_SANDBOX_APP_PORT/ledger.
"""
import hmac
import threading
import time

import common
import shop

ledger = common.Ledger("external_id")


def follow_up(external_id, cashout_id):
    time.sleep(0.1)
    answer = shop.call("/v3/cashout/status", {"cashout_id": cashout_id})
    if answer is not None and answer[0] == 200:
        ledger.book(external_id, shop.WORDS[answer[1]["cashout_status_description"]])


def on_notification(form):
    if not hmac.compare_digest(form.get("control", ""), shop.control(form.get("external_id", ""))):
        return 401
    threading.Thread(target=follow_up, args=(form["external_id"], int(form["cashout_id"]))).start()
    return 200


ledger.serve()
url = shop.receive_notifications(on_notification)
for external_id, amount in shop.ORDERS:
    fields = shop.create_fields(external_id, amount, url)
    answer = shop.call("/v3/cashout", fields)
    if answer is not None and answer[0] == 200:
        ledger.made(external_id, amount, "PENDING")
        continue
    print(f"background app: the answer to {external_id} was lost; sending it again:", shop.call("/v3/cashout", fields))
    found = shop.call("/v3/cashout/status", {"external_id": external_id})
    print("background app: asking for it by its external_id:", found)
    if found is not None and found[0] == 200:
        ledger.made(external_id, amount, shop.WORDS[found[1]["cashout_status_description"]])
print("background app: the suite", common.serve_until_quiet())
print("background app: learnt", ledger.payouts())
