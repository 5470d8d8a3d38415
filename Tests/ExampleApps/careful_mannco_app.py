"""The careful Mannco app: what the integration report expects of a Mannco integration, written as a
PHP or Python shop's cashouts page is. Mannco sends no notifications: the app learns what became of
each cashout by polling GET /user/getCashoutHistory, every 2 s ($POLL_SECONDS), for every user.

- A cashout whose answer is lost (or answered 5xx) is looked for in the user's history (a cashout
  of that amount and method the ledger does not have yet) before it is sent again: a blind resend
  is refused "Pending cashout exists", or pays twice.
- A refusal that only time changes ("Pending cashout exists", "Cooldown period") is shown to the
  user, never retried as it was.
- A 403 (tokens last 31 days) means logging in again, then repeating the call.
- Its ledger (cashout_id, the status in Mannco's words, the gross amount in dollars) is served at
  $CASHOUT_SANDBOX_APP_PORT/ledger; a refused cashout has no entry. What it still has to do is at
  /settled ({"pending": N}: the cashouts not yet sent, a request in flight; the next poll is not
  pending work); --no-settled: 404, as an app that does not say.
- A lost or 5xx answer is looked up after $BACKOFF_SECONDS (default 0.05 s).

The users and cashouts are scenarios/certify-mannco.json's (and scenarios/explore-mannco.json's):
when user 101's token is refused on the month-later poll, user 101 logs in again and cashes out
109.00. --refresh-on-create: the app's page and its payment worker each keep a token of their own
(the page logs in again once the first cashout moved on); after the month the page's is refused
first, and the worker sends that cashout with its cached token, is refused 403, logs in and sends
the same cashout again. --bug completed-stays: a cashout the ledger holds as completed stays so,
though the history shows it failed (returned) later. --bug strict-states: a status is booked only
as the next of pending, processing, completed (or failed, cancelled): a cashout seen pending, then
completed, stays pending. --bug swallow: a cashout whose answer was lost is looked for in the history
once, and given up when that read's answer is lost too. --give-up-on-429: a cashout answered 429 (rate
limited) is taken for a failed one, never sent again.
"""
import os
import sys
import time

import common
import mannco_shop as shop

POLL = float(os.environ.get("POLL_SECONDS", "2"))
STAYS = "completed-stays" in sys.argv
STRICT = "strict-states" in sys.argv
SWALLOW = "swallow" in sys.argv
# The changes a strict state machine allows (--bug strict-states): never pending to completed.
NEXT = {"pending": {"processing", "failed", "cancelled"}, "processing": {"completed", "failed"}, "completed": {"failed"}}
REFRESH_ON_CREATE = "--refresh-on-create" in sys.argv
BACKOFF = float(os.environ.get("BACKOFF_SECONDS", "0.05"))
ledger = common.Ledger("cashout_id")
pending = common.Pending()  # what /settled answers
tokens = {user: shop.login(user) for user in shop.USERS}  # the payment worker's (and the page's, but with --refresh-on-create)
page_tokens = {}


def dollars(cents):
    return f"{cents // 100}.{cents % 100:02d}"


def page_token(user):
    return page_tokens.get(user, tokens[user])


def history(user):
    """The user's cashouts (a list) and whether its token had been refused (then it logged in again);
    None when they could not be read."""
    answer = shop.history(page_token(user))
    refused = answer is not None and answer[0] == 403
    if refused:
        (page_tokens if user in page_tokens else tokens)[user] = shop.login(user)
        answer = shop.history(page_token(user))
    cashouts = answer[1]["content"]["cashouts"] if answer is not None and answer[0] == 200 else None
    # The page's own session, from a login once the clock has moved (a token of its own).
    if REFRESH_ON_CREATE and user not in page_tokens and any(c["status"] != "pending" for c in cashouts or []):
        page_tokens[user] = shop.login(user)
    return cashouts, refused


def book(cashouts):
    for cashout in cashouts:
        if STAYS and ledger.status(cashout["id"]) == "completed":
            continue
        believed = ledger.status(cashout["id"])
        if STRICT and believed not in (None, cashout["status"]) and cashout["status"] not in NEXT.get(believed, ()):
            continue
        if ledger.status(cashout["id"]) is not None:
            ledger.book(cashout["id"], cashout["status"])


def cash_out(user, amount):
    """Sends the cashout once, and books it; looks for it in the history when the answer is lost.
    Counted as pending by whoever queued it, until it returns."""
    try:
        send(user, amount)
    finally:
        pending.done()


def send(user, amount):
    for _ in range(20):
        answer = shop.process(tokens[user], amount)
        if answer is not None and answer[0] == 403:
            print(f"careful app: user {user}'s token was refused; logging in again")
            tokens[user] = shop.login(user)
            continue
        if answer is not None and answer[0] == 429:  # only with --give-up-on-429: common.request waits and sends it again
            print(f"careful app: user {user}'s cashout of {amount} failed: HTTP 429 {answer[1]}")
            return
        if answer is not None and answer[0] < 500:
            content = answer[1]["content"]
            if answer[1].get("success"):
                ledger.made(content["cashoutId"], dollars(amount), content["status"])
            else:
                print(f"careful app: user {user} is told: {content}")
            return
        # Lost, or a 5xx: made or not? The history says, after the backoff.
        time.sleep(BACKOFF)
        for _ in range(1 if SWALLOW else 20):
            cashouts, _ = history(user)
            if cashouts is not None:
                break
            time.sleep(0.05)
        if SWALLOW and cashouts is None:
            print(f"careful app: user {user}'s history could not be read; giving the cashout up")
            return
        known = {entry["cashout_id"] for entry in ledger.payouts()}
        found = [c for c in cashouts or [] if c["amount"] == amount and c["method"] == "payoneer" and c["id"] not in known]
        print(f"careful app: the answer to user {user}'s cashout of {amount} was {'lost' if answer is None else answer[0]}; "
              f"its history shows {found}")
        if found:
            ledger.made(found[0]["id"], dollars(amount), found[0]["status"])
            return
        time.sleep(0.05)


def poll():
    """The cashouts page of every user, refreshed every POLL seconds until the suite is over. User
    101 comes back when its token is refused (a month later), and cashes out again."""
    came_back = False
    while common.suite_state() not in ("passed", "failed"):
        for user in shop.USERS:
            with pending:
                cashouts, refused = history(user)
            if refused and not came_back and user == shop.A_MONTH_LATER[0]:
                came_back = True
                pending.add()
                cash_out(*shop.A_MONTH_LATER)  # with --refresh-on-create, by the worker's cached token first
            if cashouts is not None:
                book(cashouts)
        time.sleep(POLL)


ledger.serve(None if "--no-settled" in sys.argv else pending)
orders = shop.FIRST_ROUND + [shop.AGAIN, shop.LAST]
for _ in orders:
    pending.add()  # queued: the app has them to send
for user, amount in orders:
    cash_out(user, amount)
poll()
print("careful app: ledger", sorted((entry["cashout_id"], entry["status"]) for entry in ledger.payouts()))
