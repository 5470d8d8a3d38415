"""The careful app, written the usual way for a webhook handler: each trusted notification is
answered at once, and followed up a moment later (100 ms) on a thread of its own with
POST /v3/cashout/status. `cashout-sandbox test --serve` waits for the app to go quiet before the
clock moves, so the follow-ups count as made when the notification came (the Testing your app
guide, "Real time and virtual time").
"""
import hmac
import threading
import time

import common
import shop

statuses = {}


def follow_up(cashout_id):
    time.sleep(0.1)
    answer = shop.call("/v3/cashout/status", {"cashout_id": cashout_id})
    if answer is not None and answer[0] == 200:
        statuses[str(cashout_id)] = answer[1].get("cashout_status_description")


def on_notification(form):
    if not hmac.compare_digest(form.get("control", ""), shop.control(form.get("external_id", ""))):
        return 401
    threading.Thread(target=follow_up, args=(int(form["cashout_id"]),)).start()
    return 200


url = shop.receive_notifications(on_notification)
for external_id, amount in shop.ORDERS:
    fields = shop.create_fields(external_id, amount, url)
    if shop.call("/v3/cashout", fields) is None:
        print(f"background app: the answer to {external_id} was lost; sending it again:", shop.call("/v3/cashout", fields))
        print(f"background app: asking for it by its external_id")
        print("background app:", shop.call("/v3/cashout/status", {"external_id": external_id}))
print("background app: the suite", common.serve_until_quiet())
print("background app: learnt", statuses)
