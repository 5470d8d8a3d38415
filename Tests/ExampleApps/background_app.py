"""The careful app, written the usual way for a webhook handler: each trusted notification is
answered at once, and followed up a moment later (100 ms; --delay 500ms) on a thread of its own with
POST /v3/cashout/status, asked again after 100, 200, 400 ms (then every 1.6 s, eight times in all)
while its answer is lost or a 5xx. A create is sent again so too; one refused 511 (made before its
answer was lost) is looked up by its external_id.
`cashout-sandbox test --serve` stops the clock for the app after each notification, so the
follow-ups count as made when the notification came (the Testing your app guide, "Real time and
virtual time"). It keeps a ledger of what each answer said, served at
$CASHOUT_SANDBOX_APP_PORT/ledger, and the follow-ups it has still to make at /settled
({"pending": N}; --no-settled: 404, as an app that does not say).

--bug swallow: a follow-up whose answer is lost is never asked again (the notification was answered
200 already, so nobody tells the app again).
"""
import argparse
import hmac
import threading
import time

import common
import shop

parser = argparse.ArgumentParser()
parser.add_argument("--delay", default="100ms", help="how long after a notification its follow-up is asked: 100ms, 1s")
parser.add_argument("--bug", choices=["swallow"])
parser.add_argument("--no-settled", action="store_true", help="serve no /settled")
options = parser.parse_args()
DELAY = float(options.delay[:-2]) / 1000 if options.delay.endswith("ms") else float(options.delay.rstrip("s"))
ledger = common.Ledger("external_id")
pending = common.Pending()  # what /settled answers


AMOUNTS = dict(shop.ORDERS)


def follow_up(external_id, cashout_id):
    try:
        time.sleep(DELAY)
        ask = lambda: shop.call("/v3/cashout/status", {"cashout_id": cashout_id})
        answer = ask() if options.bug == "swallow" else common.retried(ask, attempts=8, cap=1.6)
        if answer is not None and answer[0] == 200:
            ledger.book(external_id, shop.WORDS[answer[1]["cashout_status_description"]], AMOUNTS.get(external_id))
    finally:
        pending.done()


def on_notification(form):
    if not hmac.compare_digest(form.get("control", ""), shop.control(form.get("external_id", ""))):
        return 401
    pending.add()  # owed from before the answer goes
    threading.Thread(target=follow_up, args=(form["external_id"], int(form["cashout_id"]))).start()
    return 200


ledger.serve(None if options.no_settled else pending)
url = shop.receive_notifications(on_notification)
for external_id, amount in shop.ORDERS:
    with pending:
        # Sent again as it was while its answer is lost or a 5xx: D24 refuses a create made before (412,
        # code 511), which is then looked up by its external_id.
        fields = shop.create_fields(external_id, amount, url)
        answer = common.retried(lambda: shop.call("/v3/cashout", fields), attempts=8, cap=1.6)
        if answer is not None and answer[0] == 200:
            ledger.made(external_id, amount, "PENDING")
        elif answer is not None and answer[1].get("code") == 511:
            print(f"background app: {external_id} was made before its answer was lost; asking for it by its external_id")
            found = common.retried(lambda: shop.call("/v3/cashout/status", {"external_id": external_id}), attempts=8, cap=1.6)
            if found is not None and found[0] == 200:
                ledger.made(external_id, amount, shop.WORDS[found[1]["cashout_status_description"]])
print("background app: the suite", common.serve_until_quiet())
print("background app: learnt", ledger.payouts())
