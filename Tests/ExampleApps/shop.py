"""What the two D24 example apps share: a tiny D24 Cashouts v3 client and a notification receiver.

Standard library only. The merchant's credentials are in $CASHOUT_SANDBOX_D24_LOGIN, _PASS and
_SECRET_KEY, as `cashout-sandbox test --serve --exec` sets them. The orders are the nine that scenarios/certify.json expects (BRL 101.00 to 109.00).
"""
import hashlib
import hmac
import json
import os
import urllib.parse

import common

LOGIN = os.environ["CASHOUT_SANDBOX_D24_LOGIN"]
PASS = os.environ["CASHOUT_SANDBOX_D24_PASS"]
SECRET = os.environ["CASHOUT_SANDBOX_D24_SECRET_KEY"].encode()

ORDERS = [(f"shop-order-{amount}", f"{amount}.00") for amount in range(101, 110)]
# D24's status descriptions (POST /v3/cashout/status: cashout_status_description) as a ledger writes them.
WORDS = {"Pending": "PENDING", "Completed": "COMPLETED", "Canceled": "CANCELLED", "Rejected": "REJECTED",
         "Delivered": "DELIVERED", "On Hold": "ON_HOLD"}


def call(path, fields):
    """POSTs a signed D24 request: (status, JSON answer), or None when the connection closed
    without an answer (the create may still have been made)."""
    body = json.dumps({"login": LOGIN, "pass": PASS, **fields}).encode()
    signature = hmac.new(SECRET, body, hashlib.sha256).hexdigest()
    return common.request("POST", path, body, {"Content-Type": "application/json", "Payload-Signature": signature})


def create_fields(external_id, amount, notification_url):
    return {"external_id": external_id, "country": "BR", "currency": "BRL", "amount": amount, "document_id": "01716001340",
            "document_type": "CPF", "beneficiary_name": "Ana", "beneficiary_lastname": "Silva", "bank_code": "001",
            "bank_account": "3423422-7", "bank_branch": "1234", "account_type": "C", "notification_url": notification_url}


def control(external_id):
    """A notification's control (D24 spec 2.4): uppercase hex HMAC-SHA256 of "Be4" + external_id + "Bo7"."""
    return hmac.new(SECRET, f"Be4{external_id}Bo7".encode(), hashlib.sha256).hexdigest().upper()


def receive_notifications(handle):
    """Serves the app's notification URL; `handle(form)` answers each form-encoded notification with a status."""
    return common.receive(lambda headers, body: handle(dict(urllib.parse.parse_qsl(body.decode()))))
