"""schemathesis hooks for .ci/check-openapi (what each does and why: the Contributing guide, "The OpenAPI check"): the
default accounts' credentials for the schemes an operation's `security` names, PayoutService's metadata where it takes
`x-api-key`, a loaded scenario undone before the next case, a call aimed at a default account sent to another id, and
each call's `METHOD path status CREDENTIALS` appended to $CHECK_OPENAPI_LOG.
"""
import functools, json, os

import schemathesis
from schemathesis.core.parameters import ParameterLocation

from cilib import LOGIN, PASS, SECRET, fetch, require, signature  # the default merchant's credentials

READ_ONLY_KEY = "sandbox_read_only"  # the default merchant's
MANNCO_USER, MANNCO_API_KEY = "76561198000000001", "sandbox_mannco_key"  # the default Mannco user's
PRISM_METADATA = {"x-connector": "sandbox", "x-auth": "header-key", "x-api-key": "sandbox_prism_key",
                  "x-merchant-id": "DefaultMerchantId"}  # the default PayoutService merchant's
PRISM_DROPPED = {"x-key1", "x-api-secret", "x-connector-config", "x-payout-connector"}
ID_MEMBERS = {"prism": "merchant_id", "mannco": "id"}  # an account's id in its PUT body, by dialect
# Every path that names an account: its id parameter and its dialect (None: the path's own `dialect`).
ACCOUNTS = {"/sandbox/merchants/{login}": ("login", "d24"), "/sandbox/users/{id}": ("id", "mannco"),
            "/sandbox/prism-merchants/{id}": ("id", "prism"), "/sandbox/accounts/{dialect}/{id}": ("id", None)}
# The default accounts' ids, and the id a case aimed at one goes to instead.
FUZZED_INSTEAD = {LOGIN: "fuzzed_merchant", MANNCO_USER: "fuzzed_user", PRISM_METADATA["x-merchant-id"]: "fuzzed_prism_merchant"}

def call(method, path, body=None):
    """The JSON answer of the sandbox under test."""
    status, _, answer = fetch(f"{os.environ['CHECK_OPENAPI_URL']}{path}", None if body is None else json.dumps(body).encode(),
                              {"Content-Type": "application/json"}, method)
    require(status < 400, f"{method} {path}: HTTP {status} {answer[:200]!r}")
    return json.loads(answer)

@functools.cache
def document():
    return call("GET", "/openapi.json")

def operation(case):
    """The case's operation in the document (a case may send another method, to see it refused)."""
    return document()["paths"][case.operation.path][case.operation.method.lower()]

def header(scheme):
    """The header that carries `scheme`'s credential."""
    scheme = document()["components"]["securitySchemes"][scheme]
    return scheme["name"] if scheme["type"] == "apiKey" else "Authorization"

def signed(case):
    if isinstance(case.body, dict):  # not an object: sent unsigned, the server must refuse it
        # A body generated invalid keeps its (missing, mistyped) credentials: only a valid one gets the merchant's.
        negative = case.meta is not None and (case.meta.generation.mode.is_negative or case.meta.is_negative_at(ParameterLocation.BODY))
        body = json.dumps(case.body if negative else {**case.body, "login": LOGIN, "pass": PASS}).encode()
        case.body = body
        case.headers = {**(case.headers or {}), "Payload-Signature": signature(SECRET, body)}

def bearer(token):
    return lambda case: setattr(case, "headers", {**(case.headers or {}), "Authorization": f"Bearer {token()}"})

METADATA = "PayoutServiceMetadata"  # what the log calls PRISM_METADATA
APPLIED = {}  # id(case): the credentials set on it, for the log
CREDENTIALS = {  # by scheme name (components.securitySchemes): what sets the credential on a case
    "PayloadSignature": signed,
    "ReadOnlyKey": bearer(lambda: READ_ONLY_KEY),
    "ManncoJWT": bearer(lambda: call("POST", "/user/login", {"apiKey": MANNCO_API_KEY})["content"]["jwt"]),
}

# An auth provider, not a hook: schemathesis's `ignored_auth` check knows these for credentials and tries each operation without.
@schemathesis.auth(refresh_interval=None)
class Credentials:
    def get(self, case, context):
        """The schemes of the operation's first security alternative the hooks hold all of; None without one."""
        alternatives = operation(case).get("security", document().get("security", []))
        return next((list(schemes) for schemes in alternatives if schemes and schemes.keys() <= CREDENTIALS.keys()), None)

    def set(self, case, data, context):
        probed = getattr(getattr(getattr(case.meta, "phase", None), "data", None), "parameter", None)
        for scheme in data or ():
            if header(scheme) != probed:  # a case about that header's absence or value is left as generated
                CREDENTIALS[scheme](case)
                APPLIED.setdefault(id(case), []).append(scheme)
        # The credentials are not the generated data: schemathesis 4.32.5 says so after its coverage phase's auth
        # (`drivers.py`), not after its fuzzing phase's, where the signed body (bytes, which it cannot validate against
        # the schema) would turn a valid case negative and its 200 into "Schema-violating request accepted".
        case._record_starting_state()

@schemathesis.hook
def before_call(context, case, kwargs):
    parameters, (name, dialect) = case.path_parameters or {}, ACCOUNTS.get(case.path, (None, None))
    if name and parameters.get(name) in FUZZED_INSTEAD:
        # Fuzzing a default account, by its own path or by /sandbox/accounts/{dialect}/{id} (a merchant's IP allow-list or
        # secret, a Mannco user's key or verification, a PayoutService merchant's key), would lock its API's fuzzing out:
        # the stateful phase takes ids from earlier answers, the default ones too.
        case.path_parameters = parameters = {**parameters, name: FUZZED_INSTEAD[parameters[name]]}
    # JSON Schema cannot say "equal to the path parameter": a valid PUT body names the account's id as the path does.
    if case.method.upper() == "PUT" and name and isinstance(case.body, dict) and \
            case.meta is not None and not case.meta.is_negative_at(ParameterLocation.BODY):
        member = ID_MEMBERS.get(dialect or parameters.get("dialect"))
        if member in case.body and name in parameters:
            case.body = {**case.body, member: parameters[name]}
    if any(parameter.get("in") == "header" and parameter.get("name") == "x-api-key" for parameter in operation(case).get("parameters", [])):
        kept = {name: value for name, value in (case.headers or {}).items()
                if name.lower() not in PRISM_DROPPED and name.lower() not in PRISM_METADATA}
        case.headers = {**kept, **PRISM_METADATA}
        APPLIED.setdefault(id(case), []).append(METADATA)

@schemathesis.hook
def after_call(context, case, response):
    if case.method.upper() == "POST" and case.path == "/sandbox/scenario" and response.status_code == 200:
        # A generated scenario that loads may hold HTTP faults (every endpoint answers 500, or nothing) or change the
        # default accounts: the sandbox goes back to its starting setup (POST /sandbox/reset) before the next case.
        call("POST", "/sandbox/reset")
    # `METHOD path status CREDENTIALS` (`+`-joined, `-` for none): what the fuzzing reached with the credentials set.
    applied = "+".join(APPLIED.pop(id(case), [])) or "-"
    log = os.environ.get("CHECK_OPENAPI_LOG")
    if log:
        with open(log, "a") as file:
            file.write(f"{case.method.upper()} {case.path} {response.status_code} {applied}\n")

# PUT /sandbox/snapshot takes a snapshot file; generated values (strings) are sent as their UTF-8
# bytes, which the sandbox must refuse with a 400 naming what is wrong.
schemathesis.serializer.alias("application/vnd.cashout-sandbox.snapshot", "application/octet-stream")
