"""D24 requests for the CI checks (python3 stdlib only): the default merchant, a valid Brazilian
create, the Payload-Signature, and a keep-alive JSON client.

    from d24_client import Client, create_fields

    client = Client(port)
    status, body = client.call("POST", "/v3/cashout", create_fields("order-1", "10.00"), secret=b"sandbox_secret")
    cashouts = client.get("/sandbox/cashouts")["cashouts"]  # raises Broken unless 200
"""

import hashlib
import hmac
import http.client
import json
import re

LOGIN, PASS, SECRET = "sandbox_login", "sandbox_pass", b"sandbox_secret"


class Broken(Exception):
    """An answer the check did not expect (or an invariant that does not hold)."""


def create_fields(external_id, amount, name="Ana", login=LOGIN, password=PASS, currency="BRL"):
    """The fields of a valid signed create for Brazil (CPF, Banco do Brasil)."""
    return {"login": login, "pass": password, "external_id": external_id, "country": "BR", "currency": currency,
            "amount": amount, "document_id": "01716001340", "document_type": "CPF", "beneficiary_name": name,
            "beneficiary_lastname": "Silva", "bank_code": "001", "bank_account": "3423422-7", "bank_branch": "1234",
            "account_type": "C"}


def signature(secret, body):
    """The Payload-Signature of `body` (bytes): lowercase hex HMAC-SHA256."""
    return hmac.new(secret, body, hashlib.sha256).hexdigest()


class Client:
    """One keep-alive connection to 127.0.0.1:port; reconnects after an error (a GET is tried twice)."""

    def __init__(self, port, timeout=30):
        self.port, self.timeout, self.connection = port, timeout, None

    def call(self, method, path, body=None, secret=None, raw=False, token=None, headers=None):
        """Sends `body` (JSON-encoded, or bytes as they are), signed with `secret` when given, with
        `Authorization: Bearer <token>` when given (Mannco's JWT) and `headers` over the JSON
        Content-Type; returns (HTTP status, the answer's JSON, its text when not JSON, or its bytes
        with raw=True)."""
        data = body if body is None or isinstance(body, bytes) else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", **(headers or {})}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if secret is not None:
            headers["Payload-Signature"] = signature(secret, data)
        for attempt in range(2):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                answer = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                if raw:
                    return response.status, answer
                try:
                    return response.status, json.loads(answer) if answer else None
                except ValueError:
                    return response.status, answer.decode(errors="replace")
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt or method != "GET":
                    raise
        raise AssertionError("unreachable")

    def get(self, path):
        status, body = self.call("GET", path)
        if status != 200:
            raise Broken(f"GET {path}: HTTP {status} {str(body)[:300]}")
        return body

    def close(self):
        if self.connection is not None:
            self.connection.close()
        self.connection = None


CONTENT_LENGTH = re.compile(rb"\r\ncontent-length: *(\d+)", re.IGNORECASE)


def read_answers(sock, count, pending):
    """Reads count HTTP answers from sock (after the bytes pending); raises unless each is a 200.
    Returns the bytes read past them."""
    buffer, position = bytearray(pending), 0
    while count:
        end = buffer.find(b"\r\n\r\n", position)
        length = CONTENT_LENGTH.search(buffer, position, end) if end >= 0 else None
        if end >= 0 and length is None:
            raise ValueError(f"an answer without Content-Length: {bytes(buffer[position:end])!r}")
        if end < 0 or len(buffer) < end + 4 + int(length.group(1)):
            more = sock.recv(1 << 20)
            if not more:
                raise ConnectionError("the server closed the connection")
            buffer += more
            continue
        after = end + 4 + int(length.group(1))
        if buffer[position + 9:position + 12] != b"200":
            raise ValueError(f"a request was answered {bytes(buffer[position:after])!r}")
        position, count = after, count - 1
    return bytes(buffer[position:])
