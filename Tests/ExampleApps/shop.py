"""What both example apps share: a tiny D24 Cashouts v3 client and a notification receiver.

Standard library only. The sandbox is at $CASHOUT_SANDBOX_URL and the merchant's credentials are
in $CASHOUT_SANDBOX_D24_LOGIN, _PASS and _SECRET_KEY, as `cashout-sandbox test --serve --exec`
sets them. The orders are the nine that scenarios/certify.json expects (BRL 101.00 to 109.00).
"""
import hashlib
import hmac
import http.client
import json
import os
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BASE = urllib.parse.urlsplit(os.environ["CASHOUT_SANDBOX_URL"])
LOGIN = os.environ["CASHOUT_SANDBOX_D24_LOGIN"]
PASS = os.environ["CASHOUT_SANDBOX_D24_PASS"]
SECRET = os.environ["CASHOUT_SANDBOX_D24_SECRET_KEY"].encode()

ORDERS = [(f"shop-order-{amount}", f"{amount}.00") for amount in range(101, 110)]
_last_notification = time.monotonic()


def call(path, fields):
    """POSTs a signed D24 request: (status, JSON answer), or None when the connection closed
    without an answer (the create may still have been made)."""
    body = json.dumps({"login": LOGIN, "pass": PASS, **fields}).encode()
    signature = hmac.new(SECRET, body, hashlib.sha256).hexdigest()
    connection = http.client.HTTPConnection(BASE.hostname, BASE.port, timeout=10)
    try:
        connection.request("POST", path, body, {"Content-Type": "application/json", "Payload-Signature": signature})
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    except (http.client.RemoteDisconnected, ConnectionError):
        return None
    finally:
        connection.close()


def create_fields(external_id, amount, notification_url):
    return {"external_id": external_id, "country": "BR", "currency": "BRL", "amount": amount, "document_id": "01716001340",
            "document_type": "CPF", "beneficiary_name": "Ana", "beneficiary_lastname": "Silva", "bank_code": "001",
            "bank_account": "3423422-7", "bank_branch": "1234", "account_type": "C", "notification_url": notification_url}


def control(external_id):
    """A notification's control (D24 spec 2.4): uppercase hex HMAC-SHA256 of "Be4" + external_id + "Bo7"."""
    return hmac.new(SECRET, f"Be4{external_id}Bo7".encode(), hashlib.sha256).hexdigest().upper()


def receive_notifications(handle):
    """Serves the app's notification URL on a free port; `handle(form)` answers each with a status."""
    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self):
            global _last_notification
            _last_notification = time.monotonic()
            length = int(self.headers.get("Content-Length") or 0)
            form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
            status = handle(form)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()
            _last_notification = time.monotonic()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}/notifications"


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
    failed); without that URL, until no notification came for `quiet` seconds. Never past `limit`."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        state = suite_state()
        if state in ("passed", "failed") or (state is None and time.monotonic() - _last_notification >= quiet):
            return state
        time.sleep(0.1)
