"""What the two Mannco example apps share: a tiny Mannco.store client.

Standard library only. Each user's API key is in $CASHOUT_SANDBOX_MANNCO_<ID>_API_KEY, as
`cashout-sandbox test --serve --exec` sets it. The users and cashouts are the ones that
scenarios/certify-mannco.json expects: users ...101 to ...106 cash out USD 101.00 to 106.00, user
...101 asks again for 107.00, user ...107 cashes out 108.00, and after a month user ...101 cashes
out 109.00.
"""
import json
import os
import time

import common

USERS = [f"76561198000000{n}" for n in range(101, 108)]
FIRST_ROUND = list(zip(USERS[:6], range(10100, 10700, 100)))
AGAIN = (USERS[0], 10700)
LAST = (USERS[6], 10800)
A_MONTH_LATER = (USERS[0], 10900)
PENDING_EXISTS = "Pending cashout exists"


def login(user):
    """POST /user/login with the user's API key: the JWT (tried again while the answer is lost or a 5xx)."""
    key = os.environ[f"CASHOUT_SANDBOX_MANNCO_{user}_API_KEY"]
    for _ in range(20):
        answer = common.request("POST", "/user/login", json.dumps({"apiKey": key}).encode(), {"Content-Type": "application/json"})
        if answer is not None and answer[0] < 500:
            assert answer[0] == 200, answer
            return answer[1]["content"]["jwt"]
        time.sleep(0.05)
    raise SystemExit(f"user {user} could not log in")


def process(token, amount):
    """POST /cashout/process (Payoneer): (status, JSON answer), or None when the answer was lost."""
    return common.request("POST", "/cashout/process", json.dumps({"amount": amount, "method": "payoneer"}).encode(),
                          {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})


def history(token):
    """GET /user/getCashoutHistory: (status, JSON answer)."""
    return common.request("GET", "/user/getCashoutHistory", None, {"Authorization": f"Bearer {token}"})
