"""The careful Mannco app: what the integration report expects of a Mannco integration.

- A cashout whose answer is lost is looked for in GET /user/getCashoutHistory, not sent again.
- A refusal that only time changes ("Pending cashout exists", "Cooldown period") is shown to the
  user, and the cashout offered again once the history shows the first one ended: never retried as it was.
- A 403 on a token that has expired (tokens last 31 days) means logging in again, then repeating the call.
"""
import time

import mannco_shop as shop

tokens = {user: shop.login(user) for user in shop.USERS}
for user, amount in shop.FIRST_ROUND:
    if shop.process(tokens[user], amount) is None:
        found = [c for c in shop.history(tokens[user])[1]["content"]["cashouts"] if c["amount"] == amount]
        print(f"careful app: the answer to user {user}'s cashout was lost; its history shows {found}")
user, amount = shop.AGAIN
status, answer = shop.process(tokens[user], amount)
print(f"careful app: user {user} is told: {answer['content']}")
shop.process(tokens[shop.LAST[0]], shop.LAST[1])

# User 101's cashouts page, refreshed until the user comes back a month later (the token has expired by then).
user, amount = shop.A_MONTH_LATER
started = time.monotonic()
while time.monotonic() - started < 120:
    status, answer = shop.history(tokens[user])
    if status == 403:
        print(f"careful app: user {user}'s token was refused ({answer}); logging in again")
        tokens[user] = shop.login(user)
        print("careful app: history", [(c["amount"], c["status"]) for c in shop.history(tokens[user])[1]["content"]["cashouts"]])
        print("careful app: cashing out again:", shop.process(tokens[user], amount))
        break
    time.sleep(0.5)
