"""schemathesis hooks for .ci/check-openapi: sign D24 requests as the default merchant would.

Without them every generated /v3/cashout body stops at the credentials or the signature check
(401/403), and the fuzzing never reaches the validations, the bank or the status changes behind
them. Each JSON object body gets the default merchant's `login` and `pass`, is serialized once,
and gets a `Payload-Signature` over exactly those bytes (lowercase hex HMAC-SHA256 keyed by the
merchant's secret, as D24 asks). The body is sent as those bytes, so the signature always matches.
Bodies that are not objects (null, arrays, strings) go out unsigned: the server must refuse them.
Merchant updates aimed at the default merchant go to another login, so they cannot lock it out.
"""

import hashlib
import hmac
import json
import os

import schemathesis

LOGIN, PASSWORD, SECRET = "sandbox_login", "sandbox_pass", b"sandbox_secret"  # the default merchant's


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.path == "/sandbox/merchants/{login}" and (case.path_parameters or {}).get("login") == LOGIN:
        # Fuzzing the default merchant (its IP allow-list, its secret) would lock the D24 fuzzing out.
        case.path_parameters = {**case.path_parameters, "login": "fuzzed_merchant"}
    if not case.path.startswith("/v3/cashout") or not isinstance(case.body, dict):
        return
    body = json.dumps({**case.body, "login": LOGIN, "pass": PASSWORD}).encode()
    case.body = body
    case.headers = {**(case.headers or {}), "Payload-Signature": hmac.new(SECRET, body, hashlib.sha256).hexdigest()}


@schemathesis.hook
def after_call(context, case, response):
    """Appends `METHOD path status` to $CHECK_OPENAPI_LOG, so the check can show what the fuzzing reached."""
    log = os.environ.get("CHECK_OPENAPI_LOG")
    if log:
        with open(log, "a") as file:
            file.write(f"{case.method.upper()} {case.path} {response.status_code}\n")


# PUT /sandbox/snapshot takes a snapshot file; generated values (strings) are sent as their UTF-8
# bytes, which the sandbox must refuse with a 400 naming what is wrong.
schemathesis.serializer.alias("application/vnd.cashout-sandbox.snapshot", "application/octet-stream")
