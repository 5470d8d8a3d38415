"""The load scenario of the benchmarks (python3 stdlib only): N cashouts of merchant `load`, each
DELIVERED after 1 m, COMPLETED 1 h later, then REJECTED 826 a day later (refunded), every change
notified to the built-in sink; the steps check the ledger, the webhooks and the balance.

    from load_scenario import MERCHANT, load_scenario

    json.dump(load_scenario(100000), file)   # `cashout-sandbox test FILE` runs it
    # `serve --scenario FILE` loads its merchant and rule, not its steps: a bench creates over HTTP
"""

MERCHANT = {"login": "load", "pass": "load_pass", "secret": "load_secret", "balance": {"USD": "1000000000.00"}}
FIELDS = {"currency": "USD", "amount": "10.00"}
ADVANCE = "2d"  # past every status change of the rule below


def load_scenario(n):
    """The scenario of `n` cashouts, as JSON-ready data."""
    return {
        "name": f"load {n}",
        "merchants": [MERCHANT],
        "bank": {"rules": [{"name": "deliver, complete, late reject", "when": {},
                            "then": [{"after": "1m", "status": "DELIVERED"}, {"after": "1h", "status": "COMPLETED"},
                                     {"after": "1d", "status": "REJECTED", "rejection_code": 826}]}]},
        "steps": [
            {"create_cashouts": {"count": n, "merchant": MERCHANT["login"], "fields": FIELDS}},
            {"advance": ADVANCE},
            {"expect_ledger": {"merchant": MERCHANT["login"], "count": 2 * n}},
            *webhook_checks(n),
            {"expect_balance": {"merchant": MERCHANT["login"], **MERCHANT["balance"]}},
        ],
    }


STATUSES = ("DELIVERED", "COMPLETED", "REJECTED")
MOST_COUNTED = 100_000_000  # the largest count expect_webhooks takes


def webhook_checks(n):
    """The 3n notifications, each delivered once: in one expect_webhooks step while 3n is a count it
    takes, else one expect_deliveries step per status."""
    if 3 * n <= MOST_COUNTED:
        return [{"expect_webhooks": {"count": 3 * n, "attempts": 3 * n}}]
    return [{"expect_deliveries": {"status": status, "count": n, "answered": "2xx"}} for status in STATUSES]
