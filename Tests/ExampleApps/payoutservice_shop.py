"""What the two PayoutService example apps share: a tiny client of Hyperswitch Prism's
PayoutService through Connect JSON over HTTP/1.1 (POST /types.PayoutService/<Method>), and a
webhook receiver.

Standard library only. The merchant is $CASHOUT_SANDBOX_PRISM_MERCHANT_ID with the API key
$CASHOUT_SANDBOX_PRISM_API_KEY, as `cashout-sandbox test --serve --exec` sets them. The payouts are
the eight that scenarios/certify-payoutservice.json expects (USD 101.00 to 108.00).
"""
import hashlib
import hmac
import json
import os

import common

MERCHANT = os.environ["CASHOUT_SANDBOX_PRISM_MERCHANT_ID"]
API_KEY = os.environ["CASHOUT_SANDBOX_PRISM_API_KEY"]

PAYOUTS = [(f"shop-payout-{amount}", amount * 100) for amount in range(101, 109)]


def call(method, message):
    """Calls a PayoutService method with the merchant's metadata as headers: (HTTP status, the
    response message or Connect error as JSON), or None when the connection closed without an
    answer (a Create may still have been made)."""
    headers = {"Content-Type": "application/json", "x-connector": "sandbox", "x-auth": "header-key",
               "x-api-key": API_KEY, "x-merchant-id": MERCHANT}
    return common.request("POST", f"/types.PayoutService/{method}", json.dumps(message).encode(), headers)


def create_message(merchant_payout_id, minor_amount, webhook_url, holder="Ana Lima", card="4111111111111111"):
    return {"merchant_payout_id": merchant_payout_id, "amount": {"minor_amount": minor_amount, "currency": "USD"},
            "destination_currency": "USD", "webhook_url": webhook_url,
            "payout_method_data": {"card": {"card_number": {"value": card}, "card_holder_name": {"value": holder}}}}


def signed(headers, body):
    """Whether X-Webhook-Signature is "sha256=" and the lowercase hex HMAC-SHA256 of the body's
    bytes keyed with the merchant's API key."""
    expected = "sha256=" + hmac.new(API_KEY.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(headers.get("X-Webhook-Signature", ""), expected)


def receive_webhooks(handle):
    """Serves the app's webhook_url; `handle(headers, body)` answers each webhook with a status."""
    return common.receive(handle)
