"""A PayoutService (Hyperswitch Prism's `types.PayoutService`) client for the CI checks, over
grpcio with the stubs grpc_stubs.generate() made from the project's own .proto files (import this
module after generating them), with the admin API read over HTTP/1.1 and a webhook receiver.

    from payoutservice_client import Admin, PayoutService, Receiver, require

    service = PayoutService(channel)                        # DefaultMerchantId, sandbox_prism_key
    answer = service.call("Create", service.create("order-1", minor=1000, holder="Ana Lima"))
    answer.code, answer.details, answer.status               # grpc.StatusCode.OK, "", "PENDING"
    answer.initial["x-request-id"]                           # every call sends one: it is echoed
    Admin(port).balance("DefaultMerchantId", "1000000.00")   # /sandbox/prism-merchants, checked against the ledger

Every call sends its own `x-request-id` and `call` checks it comes back: in the initial metadata
(the response headers) of an answered call, in the trailers of a refused one.
"""

import hashlib
import hmac
import itertools
import json
import threading
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import grpc
import payment_methods_pb2
import payment_pb2
import payouts_pb2
import services_pb2_grpc
from d24_client import Broken, Client

DEFAULT_MERCHANT, DEFAULT_KEY = "DefaultMerchantId", "sandbox_prism_key"
STATUS = payouts_pb2.PayoutEnums.PayoutStatus


class PrismMessages:
    """The grpc-message details the sandbox gives, as Sources/Dialects/Prism/PrismMessage.swift words them."""
    credentials = "Invalid credentials: the API key does not match the merchant"

    @staticmethod
    def missing(field):
        return f"Missing required field: {field}"

    @staticmethod
    def invalid(field):
        return f"Invalid data format: {field}"

    @staticmethod
    def not_found(payout_id):
        return f"Payout not found: {payout_id}"

    @staticmethod
    def method_not_found(method_id):
        return f"Payout method not found: {method_id}"

    @staticmethod
    def not_staged(status):
        return f"You cannot transfer this payout because it has status {status}: only a staged payout (REQUIRES_FULFILLMENT) is transferred"


class CheckFailed(Exception):
    pass


def require(condition, message):
    if not condition:
        raise CheckFailed(message)


class Answer:
    """A unary call's outcome: its status code and details, the response (None when refused), and
    its initial and trailing metadata as dicts."""

    def __init__(self, code, details, response, initial, trailing):
        self.code, self.details, self.response = code, details or "", response
        self.initial, self.trailing = dict(initial or ()), dict(trailing or ())

    @property
    def status(self):
        """The payout_status's name (PENDING...), or None without a response."""
        return STATUS.Name(self.response.payout_status) if self.response is not None else None

    @property
    def id(self):
        return self.response.connector_payout_id if self.response is not None else ""

    def __repr__(self):
        shown = str(self.response).replace("\n", " ") if self.response is not None else ""
        return f"<{self.code.name} {self.details!r} {shown}>"


class PayoutService:
    """The eight RPCs of one merchant, with its credentials as `x-auth: header-key` metadata."""

    _request_ids = itertools.count(1)

    def __init__(self, channel, merchant=DEFAULT_MERCHANT, api_key=DEFAULT_KEY):
        self.stub = services_pb2_grpc.PayoutServiceStub(channel)
        self.merchant, self.api_key = merchant, api_key

    def metadata(self, drop=(), **extra):
        """The merchant's metadata; `drop` removes names, `extra` adds or replaces (x_api_key=...)."""
        headers = {"x-connector": "sandbox", "x-auth": "header-key", "x-api-key": self.api_key}
        if self.merchant != DEFAULT_MERCHANT:
            headers["x-merchant-id"] = self.merchant
        headers.update({name.replace("_", "-"): value for name, value in extra.items()})
        return [(name, value) for name, value in headers.items() if name not in drop]

    def call(self, method, request, metadata=None, request_id=True, timeout=30):
        """One unary call; checks the echo of the `x-request-id` it sends (request_id=False: none sent)."""
        sent = list(self.metadata() if metadata is None else metadata)
        request_id = f"ps-{next(self._request_ids)}" if request_id is True else None
        if request_id:
            sent.append(("x-request-id", request_id))
        try:
            response, call = getattr(self.stub, method).with_call(request, metadata=sent, timeout=timeout)
            answer = Answer(call.code(), call.details(), response, call.initial_metadata(), call.trailing_metadata())
            where = answer.initial
        except grpc.RpcError as error:
            answer = Answer(error.code(), error.details(), None, error.initial_metadata(), error.trailing_metadata())
            where = answer.trailing
        if request_id:
            require(where.get("x-request-id") == request_id,
                    f"{method}: x-request-id {request_id} not echoed in the {'initial metadata' if answer.response else 'trailers'}: "
                    f"initial {answer.initial}, trailers {answer.trailing}")
        return answer

    def expect(self, method, request, code, details, metadata=None):
        """A refused call: exactly `code` (grpc.StatusCode) and `details`."""
        answer = self.call(method, request, metadata)
        require(answer.code == code and answer.details == details,
                f"{method}: {answer.code.name} {answer.details!r}, expected {code.name} {details!r}")
        return answer

    def ok(self, method, request, status, metadata=None, **fields):
        """An answered call with `payout_status` `status` and the response `fields` given; status_code
        200 and no error unless `fields` says otherwise."""
        answer = self.call(method, request, metadata)
        require(answer.code == grpc.StatusCode.OK, f"{method}: {answer!r}, expected OK {status}")
        fields.setdefault("status_code", 200)
        require(answer.status == status, f"{method}: payout_status {answer.status}, expected {status}: {answer!r}")
        for name, value in fields.items():
            require(getattr(answer.response, name) == value, f"{method}: {name} {getattr(answer.response, name)!r}, expected {value!r}")
        if answer.status not in ("FAILED", "REVERSED") and fields["status_code"] == 200:
            require(not answer.response.HasField("error"), f"{method}: an error with {status}: {answer!r}")
        return answer

    # Requests.

    @staticmethod
    def money(minor, currency=payment_pb2.USD):
        return payment_pb2.Money(minor_amount=minor, currency=currency)

    @staticmethod
    def card(holder):
        """A card payout method, held by `holder` (None: no holder name)."""
        card = payouts_pb2.CardPayout(card_number=payment_methods_pb2.CardNumberType(value="4111111111111111"),
                                      card_exp_month=payment_methods_pb2.SecretString(value="12"),
                                      card_exp_year=payment_methods_pb2.SecretString(value="2030"))
        if holder is not None:
            card.card_holder_name.value = holder
        return payouts_pb2.PayoutMethod(card=card)

    def create(self, merchant_payout_id, minor=1000, holder="Ana Lima", webhook=None, method=True, amount=True, method_id=None):
        request = payouts_pb2.PayoutServiceCreateRequest(merchant_payout_id=merchant_payout_id, destination_currency=payment_pb2.USD)
        if amount:
            request.amount.CopyFrom(self.money(minor))
        if method:
            request.payout_method_data.CopyFrom(self.card(holder))
        if method_id:
            request.connector_payout_method_id = method_id
        if webhook:
            request.webhook_url = webhook
        return request

    def create_link(self, merchant_payout_id, minor=4000, webhook=None):
        request = payouts_pb2.PayoutServiceCreateLinkRequest(merchant_payout_id=merchant_payout_id, amount=self.money(minor),
                                                             destination_currency=payment_pb2.USD)
        if webhook:
            request.webhook_url = webhook
        return request

    def stage(self, quote, minor=2500, customer="Ana Lima"):
        return payouts_pb2.PayoutServiceStageRequest(merchant_quote_id=quote, amount=self.money(minor), destination_currency=payment_pb2.USD,
                                                     customer=payment_pb2.Customer(name=customer))

    @staticmethod
    def lookup(method, connector=None, merchant=None):
        """A Get, Void or Transfer request by `connector_payout_id` and/or `merchant_payout_id`."""
        request = getattr(payouts_pb2, f"PayoutService{method}Request")()
        if connector is not None:
            request.connector_payout_id = connector
        if merchant is not None:
            request.merchant_payout_id = merchant
        return request


class Admin:
    """The admin API over HTTP/1.1 (a keep-alive d24_client.Client)."""

    def __init__(self, port):
        self.client = Client(port)

    def call(self, method, path, body=None, expect=200):
        status, answer = self.client.call(method, path, body)
        if status != expect:
            raise Broken(f"{method} {path}: HTTP {status} {str(answer)[:300]}, expected {expect}")
        return answer

    def advance(self, by):
        return self.call("POST", "/sandbox/clock/advance", {"by": by})

    def ledger(self, merchant):
        return self.call("GET", f"/sandbox/ledger?merchant={merchant}")["entries"]

    def balance(self, merchant, start):
        """The merchant's balance (GET /sandbox/prism-merchants), which must be what the ledger
        says: its start plus every entry, the last entry's balance_after."""
        merchants = self.call("GET", "/sandbox/prism-merchants")["merchants"]
        balance = Decimal(next(m for m in merchants if m["merchant_id"] == merchant)["balance"])
        entries = self.ledger(merchant)
        summed = Decimal(start) + sum(Decimal(entry["amount"]) for entry in entries)
        require(balance == summed and (not entries or Decimal(entries[-1]["balance_after"]) == summed),
                f"{merchant}: balance {balance}, but the ledger's start {start} plus its entries is {summed}"
                + (f" and its last balance_after {entries[-1]['balance_after']}" if entries else ""))
        return balance

    def entries(self, merchant, payout_id, kind):
        """How many `kind` (debit, refund) ledger entries the merchant has for the payout."""
        return sum(1 for entry in self.ledger(merchant) if str(entry["cashout_id"]) == str(payout_id) and entry["kind"] == kind)


class Receiver(ThreadingHTTPServer):
    """Webhooks received on 127.0.0.1: (path, headers, body bytes), in order; answers 200."""

    daemon_threads = True

    def __init__(self):
        self.received, self.changed = [], threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.changed:
                    receiver.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    receiver.changed.notify_all()
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server_address[1]}"
        threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def statuses(self, path):
        """The payout_status of each notification `path` received, in order."""
        with self.changed:  # an RLock: wait() calls it holding the lock
            return [json.loads(body)["payout_status"] for got, _, body in self.received if got == path]

    def wait(self, path, count, timeout=10):
        """Waits (up to `timeout` s) until `path` has received `count` notifications; their statuses."""
        with self.changed:
            self.changed.wait_for(lambda: len(self.statuses(path)) >= count, timeout)
            return self.statuses(path)


def signature(api_key, body):
    """`sha256=` and the lowercase hex HMAC-SHA256 of the body keyed with the API key."""
    return "sha256=" + hmac.new(api_key.encode(), body, hashlib.sha256).hexdigest()
