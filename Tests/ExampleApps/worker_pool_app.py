"""A D24 payout service shaped as production ones are: a pool of workers, retries with backoff, a
poller, and a ledger (the Testing your app guide, "App shapes and what the clock waits for").

- Its nine orders (BRL 101.00 to 109.00, as scenarios/certify.json and explore-d24.json expect)
  go to a pool of 4 workers in a random order each run, so creates arrive concurrently.
- Every create and status query that is answered 5xx, or not answered at all, is retried with
  exponential backoff and jitter: 100 ms first (--backoff 1s: 1 s, as Spring Retry's default),
  doubled each time up to 1.6 s, each delay drawn within 25 % of it. A create whose answer was lost is sent again as it
  was (D24 refuses it 511: the external_id is taken), then looked up by its external_id.
- Each notification is checked (control), answered 200 at once, and followed up on a thread of its
  own with POST /v3/cashout/status, one follow-up at a time per cashout, so that the last answer
  booked is the newest.
- A poller asks for the status of every payout not final that had no news for 3 s.
- Its ledger is served at $CASHOUT_SANDBOX_APP_PORT/ledger, and what it still has to do at /settled
  ({"pending": N}: creates queued or in flight, follow-ups not yet made, retries waiting; --no-settled:
  404, as an app that does not say); it ends once the suite's steps are over.

Bug flags, one at a time (--bug NAME), each a mistake real payout services make:
  duplicate-after-lost   a create whose answer was lost is sent again under a new external_id
  repay-after-rejection  a rejected payout is paid again under a new external_id, and the order's
                         ledger row follows the new payout under the old reference
  strict-states          a status is booked only as the next of PENDING, DELIVERED, COMPLETED (or a
                         final one): a COMPLETED learnt before DELIVERED is refused, and stays PENDING
  late-rejection-ignored once COMPLETED, a payout stays COMPLETED (a reversal is asked, never booked)
"""
import argparse
import concurrent.futures
import hmac
import random
import threading
import time

import common
import shop

parser = argparse.ArgumentParser()
parser.add_argument("--workers", type=int, default=4)
parser.add_argument("--backoff", default="100ms", help="the first retry's delay: 100ms, 1s")
parser.add_argument("--bug", choices=["duplicate-after-lost", "repay-after-rejection", "strict-states", "late-rejection-ignored"])
parser.add_argument("--no-settled", action="store_true", help="serve no /settled")
options = parser.parse_args()
FIRST = float(options.backoff[:-2]) / 1000 if options.backoff.endswith("ms") else float(options.backoff.rstrip("s"))
FINAL = {"COMPLETED", "REJECTED", "CANCELLED"}
# The transitions a strict state machine allows (strict-states): never PENDING to COMPLETED.
NEXT = {"PENDING": {"ON_HOLD", "DELIVERED", "REJECTED", "CANCELLED"}, "ON_HOLD": {"PENDING", "DELIVERED", "CANCELLED", "REJECTED"},
        "DELIVERED": {"COMPLETED", "REJECTED"}, "COMPLETED": {"REJECTED"}}

ledger = common.Ledger("external_id")
pending = common.Pending()  # what /settled answers
orders = {}                # external_id -> (order's external_id, amount): a re-payment books under its order's
news = {}                  # external_id -> when the app last heard of it (monotonic seconds)
follow_ups = {}            # external_id -> the lock that keeps its follow-ups one at a time
forgotten = set()          # payouts the app made again (its bugs): it no longer follows them
state = threading.Lock()
url = None


def retrying(path, fields, lost=None):
    """POSTs a signed D24 request until it is answered below 500: (status, answer), or None when
    every attempt failed. `lost()`, if given, decides instead what a lost answer comes to."""
    for attempt in range(8):
        answer = shop.call(path, fields)
        if answer is None and lost is not None:
            return lost()
        if answer is not None and answer[0] < 500:
            return answer
        time.sleep(min(FIRST * 2 ** attempt, max(FIRST, 1.6)) * random.uniform(0.75, 1.25))
    return None


def pending_work(work, *arguments):
    """Runs `work` counted as pending from now until it has ended (queued, waiting or in flight)."""
    pending.add()

    def counted():
        try:
            work(*arguments)
        finally:
            pending.done()
    return counted


def book(external_id, status):
    """Books what D24 answered of one of its payouts, under its order's reference, with the amount
    its order asked for."""
    order, amount = orders[external_id]
    if external_id in forgotten:
        return
    believed = ledger.status(order)
    if options.bug == "strict-states" and believed not in (None, status) and status not in NEXT.get(believed, ()):
        print(f"worker pool app: refused {believed} -> {status} for {order}")
        return
    if options.bug == "late-rejection-ignored" and believed == "COMPLETED":
        return
    ledger.book(order, status, amount)
    if status == "REJECTED" and options.bug == "repay-after-rejection" and external_id == order:
        with state:
            forgotten.add(order)
            news.pop(order, None)
        pool.submit(pending_work(create, order + "-again", orders[order][1], order))


def follow_up(external_id):
    """Asks for a payout's status and books it, one follow-up of a payout at a time."""
    with state:
        if external_id in forgotten:
            return
        lock = follow_ups.setdefault(external_id, threading.Lock())
        news[external_id] = time.monotonic()
    with lock:
        answer = retrying("/v3/cashout/status", {"external_id": external_id})
        if answer is not None and answer[0] == 200:
            book(external_id, shop.WORDS[answer[1]["cashout_status_description"]])


def on_notification(form):
    if not hmac.compare_digest(form.get("control", ""), shop.control(form.get("external_id", ""))):
        return 401
    if form.get("external_id") in orders:
        threading.Thread(target=pending_work(follow_up, form["external_id"]), daemon=True).start()
    return 200


def create(external_id, amount, order=None):
    with state:
        orders[external_id] = (order or external_id, amount)
        news[external_id] = time.monotonic()
    fields = shop.create_fields(external_id, amount, url)
    answer = retrying("/v3/cashout", fields, lost=(lambda: "lost") if options.bug == "duplicate-after-lost" else None)
    if answer == "lost":  # the bug: taken for not made, and made again under a new reference
        with state:
            forgotten.add(external_id)
            news.pop(external_id, None)
        return create(external_id + "-retry", amount)
    if answer is not None and answer[0] == 200:
        ledger.made(order or external_id, amount, "PENDING")
    elif answer is not None and answer[1].get("code") == 511:  # made before (412, code 511): its answer was lost
        found = retrying("/v3/cashout/status", {"external_id": external_id})
        if found is not None and found[0] == 200:
            ledger.made(order or external_id, amount, "PENDING")
            book(external_id, shop.WORDS[found[1]["cashout_status_description"]])
    else:
        print(f"worker pool app: {external_id} was refused: {answer}")


def poll():
    """Asks for the status of every payout not final that had no news for 3 s."""
    while True:
        time.sleep(0.5)
        with state:
            quiet = [external_id for external_id, heard in news.items() if time.monotonic() - heard >= 3
                     and ledger.status(orders[external_id][0]) not in FINAL]
        for external_id in quiet:
            pending_work(follow_up, external_id)()


ledger.serve(None if options.no_settled else pending)
url = shop.receive_notifications(on_notification)
pool = concurrent.futures.ThreadPoolExecutor(options.workers)
threading.Thread(target=poll, daemon=True).start()
for external_id, amount in random.sample(shop.ORDERS, len(shop.ORDERS)):
    pool.submit(pending_work(create, external_id, amount))
print("worker pool app: the suite", common.serve_until_quiet())
print("worker pool app: learnt", sorted(ledger.payouts(), key=lambda payout: payout["external_id"]))
