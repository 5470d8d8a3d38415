"""An app with a ledger (the Testing your app guide, "Reconciliation"): it follows up every
notification with POST /v3/cashout/status, and shows its own view of its payouts at
GET /ledger on $CASHOUT_SANDBOX_APP_PORT.

Its bug: once a cashout is COMPLETED its ledger keeps it COMPLETED, so a reversal (REJECTED after
COMPLETED) is asked for but never recorded. With --careful it records what every answer says.
It ends once its ledger has been read (or after two minutes).
"""
import hmac
import sys
import threading

import common
import shop

CAREFUL = "--careful" in sys.argv
ORDERS = [("late-1", "101.00"), ("fine-2", "102.00")]
ledger = {external_id: {"status": "PENDING", "amount": amount} for external_id, amount in ORDERS}
idle = threading.Condition()
working = 0


def on_notification(form):
    global working
    if not hmac.compare_digest(form.get("control", ""), shop.control(form.get("external_id", ""))):
        return 401
    with idle:
        working += 1
    try:
        answer = shop.call("/v3/cashout/status", {"cashout_id": int(form["cashout_id"])})
        if answer is None or answer[0] != 200:
            return 503
        entry = ledger[form["external_id"]]
        if CAREFUL or entry["status"] != "COMPLETED":
            entry["status"] = shop.WORDS[answer[1]["cashout_status_description"]]
        return 200
    finally:
        with idle:
            working -= 1
            idle.notify_all()


def payouts():
    with idle:  # what the app is still learning goes in first
        idle.wait_for(lambda: working == 0, timeout=30)
        return [{"external_id": key, **entry} for key, entry in ledger.items()]


read = common.serve_ledger(payouts)
url = shop.receive_notifications(on_notification)
for external_id, amount in ORDERS:
    shop.call("/v3/cashout", shop.create_fields(external_id, amount, url))
read.wait(timeout=120)
