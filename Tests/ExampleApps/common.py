"""What every example app shares: a JSON POST to the sandbox, a receiver for its notifications,
and waiting until the suite's steps are over. Standard library only. The sandbox is at $CASHOUT_SANDBOX_URL,
as `cashout-sandbox test --serve --exec` sets it."""
import http.client
import json
import os
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BASE = urllib.parse.urlsplit(os.environ["CASHOUT_SANDBOX_URL"])
_last_notification = time.monotonic()


# A careful client waits as long as an answer's Retry-After asks (HTTP 429, a gateway's rate limit)
# before it sends the request again; a naive app (`common.HONOURS_RETRY_AFTER = False`) sends it again
# at once, which the report warns of (retried_before_retry_after).
HONOURS_RETRY_AFTER = True
# --give-up-on-429: an app that takes a rate limit (HTTP 429) for the payout's failure and never sends that
# request again, as many do; the certify suites fail its first payout's case, saying so, and judge the rest.
GIVES_UP_ON_429 = "--give-up-on-429" in sys.argv


def request(method, path, body=None, headers=None):
    """Sends one request: (status, JSON answer), or None when no whole answer came (the connection
    closed, or the answer was cut off: a create may still have been made). A 429 is sent again once
    the wait its Retry-After asks for has passed, up to 5 times (never, with GIVES_UP_ON_429)."""
    for _ in range(5):
        answer = send_once(method, path, body, headers)
        if answer is None or answer[0] != 429 or GIVES_UP_ON_429:
            return answer
        time.sleep(answer.retry_after if HONOURS_RETRY_AFTER and answer.retry_after is not None else 0)
    return answer


class Answer(tuple):
    """(status, JSON answer), and the seconds the answer's Retry-After asks to wait (None: none asked)."""
    def __new__(cls, status, body, retry_after=None):
        answer = super().__new__(cls, (status, body))
        answer.retry_after = retry_after
        return answer


def send_once(method, path, body=None, headers=None):
    connection = http.client.HTTPConnection(BASE.hostname, BASE.port, timeout=10)
    try:
        connection.request(method, path, body, headers or {})
        response = connection.getresponse()
        wait = response.getheader("Retry-After")
        return Answer(response.status, json.loads(response.read() or b"{}"), int(wait) if wait and wait.isdigit() else None)
    except (http.client.HTTPException, ConnectionError, ValueError):  # closed, cut off (IncompleteRead), or broken JSON
        return None
    finally:
        connection.close()


def retried(send, attempts=4, first=0.1, cap=None):
    """`send()`'s answer, asked again after 100, 200, 400 ms while it is lost (None) or a 5xx, as
    a careful client retries (each delay at most `cap` seconds): the last answer."""
    for attempt in range(attempts):
        answer = send()
        if answer is not None and answer[0] < 500:
            break
        if attempt + 1 < attempts:
            time.sleep(min(first * 2 ** attempt, cap or float("inf")))
    return answer


def receive(handle):
    """Serves the app's notification URL on a free port; `handle(headers, body)` answers each
    with a status. Returns the URL."""
    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self):
            global _last_notification
            _last_notification = time.monotonic()
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            status = handle(self.headers, body)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()
            _last_notification = time.monotonic()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}/notifications"


class Ledger:
    """The app's own view of its payouts, as the Testing your app guide's "Reconciliation" asks
    for: one entry per payout the API took, by the reference the app knows it by (`key`:
    external_id, merchant_payout_id, or Mannco's cashout_id), with the status the app believes in
    the API's own words and the amount it asked for. A refused request has no entry."""

    def __init__(self, key):
        self.key = key
        self.entries = {}
        self.lock = threading.Lock()

    def made(self, reference, amount, status):
        """A payout the API took: its amount, and `status` unless something was learnt of it already
        (a notification can come before the create's answer is read)."""
        with self.lock:
            self.entries.setdefault(str(reference), {self.key: reference, "status": status})["amount"] = amount

    def book(self, reference, status, amount=None):
        """Records the status the app learnt of a payout it made (and its amount, when it knows it)."""
        with self.lock:
            entry = self.entries.setdefault(str(reference), {self.key: reference})
            entry["status"] = status
            if amount is not None:
                entry.setdefault("amount", amount)

    def status(self, reference):
        with self.lock:
            return self.entries.get(str(reference), {}).get("status")

    def payouts(self):
        with self.lock:
            return [dict(entry) for entry in self.entries.values()]

    def serve(self, pending=None):
        """Serves it at $CASHOUT_SANDBOX_APP_PORT/ledger, and `pending` at /settled (`serve_ledger`)."""
        return serve_ledger(self.payouts, pending)


class Pending:
    """What the app still has to do, as $CASHOUT_SANDBOX_APP_PORT/settled answers it (the Testing
    your app guide, "Saying when your app is settled"): a count of its requests queued or in flight,
    retries waiting and follow-ups not yet made. Taken as a `with` block around each piece of work,
    or `add()` when work is queued and `done()` when it is finished; a notification's follow-up is
    added before the notification is answered."""

    def __init__(self):
        self.count = 0
        self.lock = threading.Lock()

    def add(self):
        with self.lock:
            self.count += 1

    def done(self):
        with self.lock:
            self.count -= 1

    def __enter__(self):
        self.add()

    def __exit__(self, *exception):
        self.done()


def serve_ledger(payouts, pending=None):
    """Serves the app's ledger on $CASHOUT_SANDBOX_APP_PORT (the Testing your app guide,
    "Reconciliation"): GET /ledger answers {"payouts": payouts()}, and with `pending` (a `Pending`)
    GET /settled answers {"pending": N}; anything else 404. Returns an event set once the ledger
    has been read, as the sandbox does after the suite's last step."""
    read = threading.Event()

    class Ledger(BaseHTTPRequestHandler):
        def do_GET(self):
            path = self.path.split("?")[0]
            if path == "/settled" and pending is not None:
                body = json.dumps({"pending": pending.count}).encode()
            elif path == "/ledger":
                body = json.dumps({"payouts": payouts()}).encode()
            else:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            if path == "/ledger":
                read.set()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ["CASHOUT_SANDBOX_APP_PORT"])), Ledger)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return read


def suite_state():
    """GET $CASHOUT_SANDBOX_SUITE_URL: running, passed or failed (None when it cannot be asked)."""
    url = urllib.parse.urlsplit(os.environ.get("CASHOUT_SANDBOX_SUITE_URL", ""))
    if not url.hostname:
        return None
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=5)
    try:
        connection.request("GET", url.path)
        response = connection.getresponse()
        return json.loads(response.read()).get("state") if response.status == 200 else None
    except (OSError, ValueError):
        return None
    finally:
        connection.close()


def serve_until_quiet(quiet=3.0, limit=120.0):
    """Keeps receiving until the suite's steps are over ($CASHOUT_SANDBOX_SUITE_URL says passed or
    failed); without that URL, until no notification came for `quiet` seconds. Never past `limit`.
    Returns the suite's state (None without one)."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        state = suite_state()
        if state in ("passed", "failed") or (state is None and time.monotonic() - _last_notification >= quiet):
            return state
        time.sleep(0.1)
