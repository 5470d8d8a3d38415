"""The naive Mannco app: what production punishes, one mistake per finding of the integration report.

- When a cashout's answer is lost it sends the same request again (refused "Pending cashout exists":
  the first was made); refused "Pending cashout exists", it sends the request again unchanged at
  once, and is refused again (retried_after_refusal).
- It keeps its token for ever: after a 403 it goes on sending the same token (expired_token_used).
- Asked to wait (HTTP 429 with Retry-After), it sends the request again at once (retried_before_retry_after).
"""
import time

import common
import mannco_shop as shop

common.HONOURS_RETRY_AFTER = False

tokens = {user: shop.login(user) for user in shop.USERS}
for user, amount in shop.FIRST_ROUND:
    if shop.process(tokens[user], amount) is None:
        print(f"naive app: the answer to user {user}'s cashout was lost; sending it again:", shop.process(tokens[user], amount))
user, amount = shop.AGAIN
if shop.process(tokens[user], amount)[1]["content"] == shop.PENDING_EXISTS:
    print("naive app: refused; trying again:", shop.process(tokens[user], amount))
shop.process(tokens[shop.LAST[0]], shop.LAST[1])

user, amount = shop.A_MONTH_LATER
started = time.monotonic()
while time.monotonic() - started < 120:
    if shop.history(tokens[user])[0] == 403:
        print("naive app: refused; trying again:", shop.history(tokens[user]))
        print("naive app: cashing out again:", shop.process(tokens[user], amount))
        break
    time.sleep(0.5)
