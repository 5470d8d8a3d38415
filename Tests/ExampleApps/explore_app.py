"""A D24 app that keeps a ledger of its payouts and serves it, for `cashout-sandbox explore`
(the Testing your app guide, "Exploring").

Careful by default: every notification is checked (control) and followed by POST
/v3/cashout/status (asked again after 100, 200, 400 ms when its answer is lost or a 5xx, then
refused with 503 to be sent again), whose answer is what the ledger believes; a create answered 5xx is sent again
with the same external_id; a create whose answer was lost, or answered 511 (already made), is
looked up by its external_id. The ledger is served at $CASHOUT_SANDBOX_APP_PORT/ledger, in the
sandbox's status words; the app ends once it has been read (after the suite's last step), or after
two minutes.

With --bug lost-then-rejected it has one bug that only a combination shows: a create whose
answer was lost is looked up, then booked as paid for good, and the notifications of that cashout,
though still followed up, no longer change the ledger. A cashout that completes after a lost
answer is right by luck; one that is rejected is wrong.
"""
import hmac
import sys
import threading
import time

import common
import shop

BUGGY = sys.argv[1:] == ["--bug", "lost-then-rejected"]
ledger = {}      # external_id -> {"external_id", "status", "amount"}
by_cashout = {}  # cashout_id -> external_id, from the creates' answers (the buggy app's only key)
lock = threading.Lock()




def book(external_id, amount, status):
    """Books a status in D24's words (the status answer's cashout_status_description)."""
    with lock:
        ledger[external_id] = {"external_id": external_id, "amount": amount, "status": shop.WORDS.get(status, status)}


def on_notification(form):
    if not hmac.compare_digest(form.get("control", ""), shop.control(form.get("external_id", ""))):
        return 401
    answer = common.retried(lambda: shop.call("/v3/cashout/status", {"cashout_id": int(form["cashout_id"])}))
    if answer is None or answer[0] != 200:
        return 503  # not learnt, even asked again: the sandbox sends it again
    # The careful app knows the cashout by the external_id its control vouches for; the buggy
    # one only by the cashout_id a create answered.
    external_id = by_cashout.get(form["cashout_id"]) if BUGGY else form["external_id"]
    if external_id in ledger:
        book(external_id, ledger[external_id]["amount"], answer[1]["cashout_status_description"])
    return 200


def create(external_id, amount, url):
    for _ in range(20):
        answer = shop.call("/v3/cashout", shop.create_fields(external_id, amount, url))
        if answer is not None and answer[0] == 200:
            by_cashout[str(answer[1]["cashout_id"])] = external_id
            with lock:
                ledger.setdefault(external_id, {"external_id": external_id, "amount": amount, "status": "PENDING"})
            return
        if answer is not None and answer[0] >= 500:
            time.sleep(0.05)
            continue
        # Lost, or answered 511 (made before): look it up by its external_id.
        for _ in range(20):
            found = shop.call("/v3/cashout/status", {"external_id": external_id})
            if found is not None and found[0] == 200:
                status = found[1]["cashout_status_description"]
                book(external_id, amount, "Completed" if BUGGY and status != "Rejected" else status)
                return
            time.sleep(0.05)
        return


def payouts():
    with lock:
        return list(ledger.values())


url = shop.receive_notifications(on_notification)
read = common.serve_ledger(payouts)
for external_id, amount in shop.ORDERS:
    create(external_id, amount, url)
read.wait(timeout=120)
