"""schemathesis hooks for .ci/check-openapi: sign D24 requests as the default merchant would, send
the default Mannco user's JWT on the Mannco routes, and the default PayoutService merchant's
metadata on the PayoutService methods.

Without them the fuzzing stops at the credentials (401/403) and never reaches the validations
and the bank. A D24 JSON object body gets the default merchant's `login` and `pass` (unless it was
generated invalid), is serialized once and signed over exactly those bytes (`Payload-Signature`,
lowercase hex HMAC-SHA256 keyed by the merchant's secret); other bodies go out unsigned. Other
routes get the `Authorization` they take: D24's lookups the read-only key, Mannco's a JWT of the
default user, logged in for each request at $CHECK_OPENAPI_URL (a token lives 31 days of the
virtual clock, which the fuzzing moves on by years). Both are set by an auth provider, not a hook,
so schemathesis's `ignored_auth` check knows them for credentials and tries each operation
without them too. Updates aimed at the default merchant or user go to another id, so they cannot
lock the fuzzing out.

An account's `PUT` may name the account's own id in its body (`merchant_id`, `id`) only as the
path names it: JSON Schema cannot say "equal to the path parameter", so a body generated as valid
gets the path's id there, as a client copying a `GET` answer would send it.

PayoutService calls (`POST /types.PayoutService/<Method>`, Connect's JSON) get the default
merchant's metadata in place of whatever was generated (`x-connector: sandbox`, `x-auth:
header-key`, its `x-api-key` and `x-merchant-id`; generated `x-key1`, `x-api-secret` and
`x-connector-config` dropped), so the generated messages reach the methods, not the metadata check.
"""

import hashlib
import hmac
import json
import os
import urllib.request

import schemathesis
from schemathesis.core.parameters import ParameterLocation

LOGIN, PASSWORD, SECRET = "sandbox_login", "sandbox_pass", b"sandbox_secret"  # the default merchant's
READ_ONLY_KEY = "sandbox_read_only"  # the default merchant's, for GET /v3/banks and /v3/exchange_rates
MANNCO_USER, MANNCO_API_KEY = "76561198000000001", "sandbox_mannco_key"  # the default Mannco user's
MANNCO_OPEN_ROUTES = {"/user/login", "/cashout/link/{token}"}  # no token needed
PRISM_PATH = "/types.PayoutService/"
PRISM_METADATA = {"x-connector": "sandbox", "x-auth": "header-key", "x-api-key": "sandbox_prism_key",
                  "x-merchant-id": "DefaultMerchantId"}  # the default PayoutService merchant's
PRISM_DROPPED = {"x-key1", "x-api-secret", "x-connector-config", "x-payout-connector"}
ID_MEMBERS = {"prism": "merchant_id", "mannco": "id"}  # an account's id in its PUT body, by dialect
ACCOUNT_PATHS = {"/sandbox/prism-merchants/{id}": "prism", "/sandbox/users/{id}": "mannco", "/sandbox/accounts/{dialect}/{id}": None}


def authorization(path):
    """The `Authorization` header `path` takes, or None."""
    if path in ("/v3/banks", "/v3/exchange_rates"):
        return f"Bearer {READ_ONLY_KEY}"
    if path.startswith(("/user/", "/cashout/")) and path not in MANNCO_OPEN_ROUTES:
        return f"Bearer {mannco_jwt()}"
    return None


def mannco_jwt():
    """A new JWT of the default Mannco user: `content.jwt` of POST /user/login."""
    request = urllib.request.Request(f"{os.environ['CHECK_OPENAPI_URL']}/user/login", method="POST",
                                     data=json.dumps({"apiKey": MANNCO_API_KEY}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)["content"]["jwt"]


@schemathesis.auth(refresh_interval=None)
class Credentials:
    """The credentials each route takes, as an auth provider: schemathesis knows them for credentials,
    so `ignored_auth` sends its probes without them (and with wrong ones) and expects a refusal."""

    def get(self, case, context):
        if case.path.startswith("/v3/cashout"):
            return "signed"
        return authorization(case.path)

    def set(self, case, data, context):
        probed = getattr(getattr(getattr(case.meta, "phase", None), "data", None), "parameter", None)
        if probed in ("Authorization", "Payload-Signature"):  # a case about that header's absence or value: left as generated
            return
        if data != "signed":
            case.headers = {**(case.headers or {}), "Authorization": data}
        elif isinstance(case.body, dict):  # not an object: sent unsigned, the server must refuse it
            # A body generated invalid keeps its (missing, mistyped) credentials: only a valid one gets the merchant's.
            negative = case.meta is not None and (case.meta.generation.mode.is_negative or case.meta.is_negative_at(ParameterLocation.BODY))
            body = json.dumps(case.body if negative else {**case.body, "login": LOGIN, "pass": PASSWORD}).encode()
            case.body = body
            case.headers = {**(case.headers or {}), "Payload-Signature": hmac.new(SECRET, body, hashlib.sha256).hexdigest()}


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.path == "/sandbox/merchants/{login}" and (case.path_parameters or {}).get("login") == LOGIN:
        # Fuzzing the default merchant (its IP allow-list, its secret) would lock the D24 fuzzing out.
        case.path_parameters = {**case.path_parameters, "login": "fuzzed_merchant"}
    if case.path == "/sandbox/users/{id}" and (case.path_parameters or {}).get("id") == MANNCO_USER:
        # Fuzzing the default user (its verification, balance, links) would stop the Mannco fuzzing early.
        case.path_parameters = {**case.path_parameters, "id": "fuzzed_user"}
    if case.method.upper() == "PUT" and case.path in ACCOUNT_PATHS and isinstance(case.body, dict) and \
            case.meta is not None and not case.meta.is_negative_at(ParameterLocation.BODY):
        parameters = case.path_parameters or {}
        member = ID_MEMBERS.get(ACCOUNT_PATHS[case.path] or parameters.get("dialect"))
        if member in case.body and "id" in parameters:
            case.body = {**case.body, member: parameters["id"]}
    if case.path.startswith(PRISM_PATH):
        kept = {name: value for name, value in (case.headers or {}).items()
                if name.lower() not in PRISM_DROPPED and name.lower() not in PRISM_METADATA}
        case.headers = {**kept, **PRISM_METADATA}


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
