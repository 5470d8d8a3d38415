"""The steps of .ci/check-dashboard that judge the page as a user sees it (issue 17, section 5), each at
1280px and at 390px with screenshots: the header's height share and its stability when "next event"
fills in, no horizontal overflow and no clipped status badge, a banner gone after navigating, one
message for a missing cashout, a currency beside every amount, webhook attempts numbered once, what
decided a cashout, and the Requests and Webhooks pages (a diagnosis, a near miss, chaos marks, and
the buttons that send a duplicate or a forged notification).

The Requests and Webhooks steps need GET /sandbox/requests and POST /sandbox/webhooks/{id}/chaos,
and the decided_by step the admin API's `decided_by`: where the sandbox lacks them, the page must say
so gracefully (checked), and the rest of the step is skipped with a printed SKIPPED notice.
"""

import hashlib
import hmac
import json
import time
import urllib.error
import urllib.request

from dashboard_page import CELL_TEXT, TOKEN, admin, create_by_api, expect, step

WIDTHS = ((1280, 900), (390, 844))
HEADER_SHARE = 0.15  # of the screen's height, at most, at 390px

# Every visible status badge whose text does not fit in it, or that lies outside the screen or
# outside a box that scrolls or clips it (a table scrolled sideways): what a user cannot read.
CLIPPED_BADGES = r"""(() => {
  const clipped = [];
  for (const badge of document.querySelectorAll('.badge')) {
    if (!badge.checkVisibility()) continue;
    const r = badge.getBoundingClientRect();
    let out = badge.scrollWidth > badge.clientWidth || r.left < 0 || r.right > document.documentElement.clientWidth;
    for (let box = badge.parentElement; box && !out; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const b = box.getBoundingClientRect();
      out = r.left < b.left - 0.5 || r.right > b.right + 0.5;
    }
    if (out) clipped.push((badge.dataset.testid || badge.className) + ' ' + JSON.stringify(badge.textContent));
  }
  return clipped;
})()"""
HEADER = "(() => { const r = document.getElementById('top').getBoundingClientRect(); return { height: r.height, share: r.height / innerHeight }; })()"
# The places a user reads a message: the banner, a view's own message, an action's result.
MESSAGES = ("[...document.querySelectorAll('#notice, .missing, #action-result, #cashout-status, [role=alert]')]"
            ".filter(e => e.checkVisibility() && e.textContent.trim()).map(e => e.id + ': ' + e.textContent.trim())")


def skipped(what, why):
    print(f"SKIPPED {what}: {why}", flush=True)


def route_exists(base, method_path):
    """Whether the sandbox routes `METHOD /path`: another method on a routed path answers 405, not 404."""
    method, path = method_path.split(" ", 1)
    probe = "GET" if method != "GET" else "HEAD"
    request = urllib.request.Request(base + path, method=probe, headers={"Authorization": "Bearer " + TOKEN})
    try:
        with urllib.request.urlopen(request, timeout=5):
            return True
    except urllib.error.HTTPError as error:
        return error.code != 404


def show(page, hash_, ready="true"):
    """Opens a view and waits for a whole refresh after it (a refresh begun before is dropped), and `ready`."""
    before = page.js("document.body.dataset.refreshed || ''")
    page.js(f"location.hash === {json.dumps(hash_)} ? CashoutDashboard.refresh() : (location.hash = {json.dumps(hash_)})")
    page.wait(f"document.body.dataset.refreshed !== {json.dumps(before)} && ({ready})", f"{hash_} shown")


def assert_layout(page, hash_, width):
    """At this width: nothing wider than the screen, no clipped badge; at 390px a small header."""
    seen = page.js("document.documentElement.scrollWidth")
    expect(seen <= width, f"{hash_} is {seen}px wide at a {width}px screen")
    clipped = page.js(CLIPPED_BADGES)
    expect(not clipped, f"{hash_} at {width}px clips these statuses: {clipped}")
    header = page.js(HEADER)
    if width <= 390:
        expect(header["share"] < HEADER_SHARE, f"{hash_} at {width}px: the header takes {header['share']:.1%} of the screen ({header['height']}px)")
    return header


def check_polish(page, base, cashout_id, prism_payout):
    """The layout and messages at both widths; then the journal pages."""
    for width, height in WIDTHS:
        page.size(width, height, mobile=width < 600)
        check_header_stability(page, base, width)
        check_clock_fits(page, base, width, "manual")
        check_banner_cleared(page, width)
        check_missing_cashout(page, width)
        check_currencies(page, cashout_id, prism_payout, width)
        check_attempts_numbered_once(page, cashout_id, width)
        check_decided_by(page, base, cashout_id, width)
    page.size(1280, 900)
    check_requests_page(page, base)
    check_webhooks_page(page, base, cashout_id)
    page.size(1280, 900)


# Where the header and its parts are: none may move as the clock's reading fills in or changes.
HEADER_PARTS = ("(() => { const at = (id) => { const r = document.getElementById(id).getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };"
                " return { header: at('top'), nav: at('nav'), now: at('clock-now'), next: at('clock-next'), button: at('next-event-button') }; })()")


def moved(before, after):
    """Whether a part of the header moved or changed size by half a pixel or more (less is rounding)."""
    return any(abs(a - b) >= 0.5 for part in before for a, b in zip(before[part], after[part]))


def check_header_stability(page, base, width):
    # Before the clock is first read ("…", no mode) and after: the same header. The first read is
    # held (`?manual-poll` and `__hold`) to see the page before it.
    hold = page.call("Page.addScriptToEvaluateOnNewDocument", source="window.__hold = '/sandbox/clock$';")["identifier"]
    page.navigate(page.js("location.origin") + "/?manual-poll#/cashouts")
    page.call("Page.removeScriptToEvaluateOnNewDocument", identifier=hold)
    page.wait("window.__held.length === 1", "the first clock read held")
    unread = [page.js(HEADER_PARTS), page.text("clock-now"), page.text("clock-mode")]
    page.js("window.__release()")
    page.wait("document.getElementById('clock-mode').textContent !== ''", "the clock read")
    read = [page.js(HEADER_PARTS), page.text("clock-now"), page.text("clock-mode")]
    expect(not moved(unread[0], read[0]), f"at {width}px the header moved when the clock was first read ({unread[1:]} -> {read[1:]}): {unread[0]} -> {read[0]}")
    page.navigate(page.js("location.origin") + "/#/cashouts")

    # No event pending ("next event none"), then a cashout's: the same header again.
    admin(base, "/sandbox/clock/advance", "POST", {"by": "30d"})
    show(page, "#/cashouts", "document.getElementById('clock-next').textContent === 'none'")
    before = page.js(HEADER_PARTS)
    expect(not moved(read[0], before), f"at {width}px the header moved once the clock had events: {read[0]} -> {before}")
    made = create_by_api(base, f"dash-next-{width}-{int(time.time())}")
    shown = json.dumps(admin(base, "/sandbox/clock")["next_event_at"].replace("T", " "))
    page.wait(f"document.getElementById('clock-next').textContent === {shown}", "next event filled in")
    after = page.js(HEADER_PARTS)
    expect(not moved(before, after), f"at {width}px the header moved when next event filled in: {before} -> {after}")
    header = assert_layout(page, "#/cashouts", width)
    page.screenshot(f"40-header-next-event-{width}")
    step(f"{width}px: the header ({header['height']:.0f}px, {header['share']:.1%} of the screen) does not move when the clock is "
         f"first read, nor when next event fills in (cashout {made}); no overflow, no clipped status")


# The clock's parts: each reading's text (its ink, measured by a Range) inside its own box, and
# no two of the reading's boxes and the clock's controls overlapping, all inside the screen.
CLOCK_PARTS = ("(() => { const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };"
               " const ink = (id) => { const range = document.createRange(); range.selectNodeContents(document.getElementById(id));"
               " return box(range); };"
               " const shown = (id) => { const e = document.getElementById(id); return e && e.checkVisibility() ? box(e) : null; };"
               " return { width: document.documentElement.clientWidth, now: [document.getElementById('clock-now').textContent, ink('clock-now'), shown('clock-now')],"
               " next: [document.getElementById('clock-next').textContent, ink('clock-next'), shown('clock-next')],"
               " controls: ['clock-mode', 'next-event-button', 'clock-toggle', 'advance-by', 'advance-button', 'advance-1m', 'advance-1h', 'advance-1d']"
               ".map((id) => [id, shown(id)]).filter((part) => part[1]) }; })()")


def overlap(a, b):
    """Whether two boxes [left, top, right, bottom] share more than half a pixel each way."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def check_clock_fits(page, base, width, clock):
    """On either clock (a real one reads milliseconds: 2026-11-25 07:01:59.119Z), the time and
    the next event's fit their boxes, which overlap no control, inside the screen."""
    show(page, "#/cashouts", "document.getElementById('clock-mode').textContent !== ''")
    create_by_api(base, f"dash-clock-{clock}-{width}-{int(time.time() * 1000)}")
    page.wait("/[0-9]$|Z$/.test(document.getElementById('clock-next').textContent)", "the next event's time")
    parts = page.js(CLOCK_PARTS)
    boxes = []
    for name in ("now", "next"):
        text, ink, own = parts[name]
        expect(own is not None, f"{clock} clock at {width}px: clock-{name} is not shown")
        expect(ink[0] >= own[0] - 0.5 and ink[2] <= own[2] + 0.5,
               f"{clock} clock at {width}px: clock-{name}'s text {text!r} ({ink[0]:.0f}-{ink[2]:.0f}px) is wider than its box ({own[0]:.0f}-{own[2]:.0f}px)")
        boxes.append((f"clock-{name} {text!r}", own))
    boxes += [(name, box) for name, box in parts["controls"]]
    for index, (name, box) in enumerate(boxes):
        expect(box[0] >= -0.5 and box[2] <= parts["width"] + 0.5, f"{clock} clock at {width}px: {name} ({box[0]:.0f}-{box[2]:.0f}px) is off the screen")
        for other, other_box in boxes[index + 1:]:
            expect(not overlap(box, other_box), f"{clock} clock at {width}px: {name} {box} overlaps {other} {other_box}")
    page.screenshot(f"41-clock-{clock}-{width}")
    step(f"{width}px, {clock} clock: the time {parts['now'][0]!r} and next event {parts['next'][0]!r} fit their boxes, overlapping no control")


def check_banner_cleared(page, width):
    # An error banner (a refused advance) goes away on navigation. On a phone the advance
    # controls wait behind the clock's toggle.
    controls = "document.getElementById('advance-button').checkVisibility()"
    if width < 600:
        expect(not page.js(controls), f"at {width}px the advance controls are shown before the toggle is")
        page.click("clock-toggle")
        expect(page.js(controls) and page.js("document.getElementById('clock-toggle').getAttribute('aria-expanded')") == "true",
               "the clock's toggle did not show the advance controls")
    page.choose("advance-by", "soon")
    page.click("advance-button")
    said = page.wait("document.getElementById('notice').checkVisibility() && document.getElementById('notice').textContent", "the error banner")
    expect(said.startswith("HTTP 400"), f"advance by 'soon' said {said!r}")
    page.choose("advance-by", "1m")
    page.screenshot(f"41-banner-{width}")
    if width < 600:
        page.click("clock-toggle")
        expect(not page.js(controls), "the clock's toggle did not hide the advance controls again")
    show(page, "#/merchants")
    expect(not page.js("document.getElementById('notice').checkVisibility()"), f"at {width}px the banner {said!r} stays after navigating")
    step(f"{width}px: the banner {said!r} is gone after navigating" + (" (advance controls behind the clock's toggle)" if width < 600 else ""))


def check_missing_cashout(page, width):
    show(page, "#/cashouts/999", "document.getElementById('cashout-missing').checkVisibility()")
    messages = page.js(MESSAGES)
    expect(len(messages) == 1 and messages[0].startswith("cashout-missing: There is no cashout 999"),
           f"at {width}px a missing cashout shows {messages}")
    expect(not page.js("document.getElementById('cashout-body').checkVisibility()"), "a missing cashout still shows its cards")
    assert_layout(page, "#/cashouts/999", width)
    page.screenshot(f"42-missing-cashout-{width}")
    step(f"{width}px: #/cashouts/999 shows one message, {messages[0]!r}, and no empty cards")


# An amount with its currency: "12.50 USD", "-50.00 BRL", "1250 USD (12.50 USD)".
AMOUNTS = r"""(() => {
  const money = /^-?[0-9][0-9,]*(\.[0-9]+)? [A-Z]{3}( \(-?[0-9][0-9,]*(\.[0-9]+)? [A-Z]{3}\))?$/;
  const cells = [...document.querySelectorAll(SELECTOR)].filter((e) => e.checkVisibility());
  return { count: cells.length, bare: cells.map((e) => e.textContent).filter((t) => !money.test(t)) };
})()"""


def amounts(page, selector):
    return page.js(AMOUNTS.replace("SELECTOR", json.dumps(selector)))


def check_currencies(page, cashout_id, prism_payout, width):
    places = (("#/cashouts", "#cashouts-body td.num", "the list"),
              (f"#/cashouts/{cashout_id}", "#cashout-details dd[data-field$=amount], #cashout-fields dd[data-field=amount]", "a D24 cashout"),
              (f"#/cashouts/{prism_payout}", "#cashout-details dd[data-field=amount], #cashout-fields dd[data-field=amount]", "a PayoutService payout"),
              ("#/merchants/sandbox_login", "#merchants-body td.num, #ledger-body td.num", "merchants and a ledger"),
              ("#/payoutservice", "#prism-merchants-body td.num", "PayoutService's merchants"))
    for hash_, selector, what in places:
        show(page, hash_, f"document.querySelectorAll({json.dumps(selector)}).length > 0")
        seen = amounts(page, selector)
        expect(seen["count"] > 0 and not seen["bare"], f"at {width}px {what} ({hash_}) shows amounts without a currency: {seen}")
        assert_layout(page, hash_, width)
        if hash_.startswith("#/merchants"):
            page.screenshot(f"43-currencies-ledger-{width}")
    step(f"{width}px: every amount carries its currency (list, details, request fields, balances, ledger)")


def check_attempts_numbered_once(page, cashout_id, width):
    # Each attempt says "Attempt N" once, and its list adds no number of its own.
    show(page, f"#/cashouts/{cashout_id}", "document.querySelectorAll('#webhooks li').length > 0")
    seen = page.js("[...document.querySelectorAll('#webhooks .attempts > li')].map(li => [li.dataset.testid.split('-').pop(), "
                   "getComputedStyle(li).listStyleType, li.textContent.match(/\\b(Attempt|#) ?\\d+/g)])")
    bad = [s for s in seen if s[1] != "none" or s[2] != [f"Attempt {s[0]}"]]
    expect(seen and not bad, f"at {width}px webhook attempts are numbered {bad}")
    assert_layout(page, f"#/cashouts/{cashout_id}", width)
    page.screenshot(f"44-cashout-webhooks-{width}")
    step(f"{width}px: {len(seen)} webhook attempts, each numbered once ({seen[0][2][0]!r}, no list marker)")


def check_decided_by(page, base, cashout_id, width):
    decided = admin(base, f"/sandbox/cashouts/{cashout_id}").get("decided_by")
    if decided is None:
        expect(not page.js("document.getElementById('cashout-decided').checkVisibility()"), "a cashout without decided_by shows 'Decided by'")
        skipped(f"{width}px: decided_by on a cashout's page", "the admin API has no decided_by yet (the page shows nothing in its place)")
        return
    shown = page.wait("document.getElementById('cashout-decided').checkVisibility() && document.getElementById('cashout-decided-summary').textContent",
                      "what decided the cashout")
    expect(shown == decided["summary"], f"at {width}px the page says it was decided by {shown!r}, the API {decided['summary']!r}")
    step(f"{width}px: cashout {cashout_id}'s page says what decided it: {shown!r}")


def send(base, method, path, body, headers):
    request = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def check_requests_page(page, base):
    # A request refused for its signature (uppercase hex) and one to a path that is not a route.
    body = json.dumps({"login": "sandbox_login", "pass": "sandbox_pass", "external_id": "dash-refused"}).encode()
    signature = hmac.new(b"sandbox_secret", body, hashlib.sha256).hexdigest().upper()
    refused = send(base, "POST", "/v3/cashout", body, {"Content-Type": "application/json", "Payload-Signature": signature})
    missed = send(base, "POST", "/v3/cashouts", body, {"Content-Type": "application/json"})
    expect(refused == 401 and missed == 404, f"the refused request answered {refused}, the near miss {missed}")
    if not route_exists(base, "GET /sandbox/requests"):
        show(page, "#/requests", "document.getElementById('requests-unavailable').checkVisibility()")
        said = page.text("requests-unavailable")
        expect(said.startswith("This sandbox keeps no request journal") and len(page.js(MESSAGES)) == 1, f"the Requests page without a journal: {said!r}")
        page.screenshot("45-requests-unavailable-1280")
        skipped("the Requests page's rows, diagnosis, near miss, filters and Clear", f"GET /sandbox/requests answers 404 (the page says {said!r})")
        return
    for width, height in WIDTHS:
        page.size(width, height, mobile=width < 600)
        show(page, "#/requests", "document.querySelectorAll('#requests-rows tr').length >= 2")
        rows = page.js(f"[...document.querySelectorAll('#requests-rows tr')].slice(0, 2).map(r => [r.dataset.id, {CELL_TEXT}(r.children[2]), "
                       "r.children[3].textContent, r.children[5].textContent])")
        expect(rows[0][1:] == ["POST /v3/cashouts", "404", "near miss"] and rows[1][1:3] == ["POST /v3/cashout", "401"]
               and rows[1][3] == "signature_mismatch", f"the newest requests are listed as {rows}")
        page.js(f"document.querySelector('[data-testid=\"request-row-{rows[1][0]}\"]').click()")
        message = page.wait("document.getElementById('request-diagnosis').checkVisibility() && "
                            "document.querySelector('[data-testid=request-diagnosis-message]').textContent", "the diagnosis")
        expect("upper" in message.lower() or "signature" in message.lower(), f"the diagnosis says {message!r}")
        top = page.js("document.getElementById('request-diagnosis').getBoundingClientRect().top")
        expect(top < page.js("innerHeight"), f"at {width}px the diagnosis is below the fold ({top}px)")
        assert_layout(page, f"#/requests/{rows[1][0]}", width)
        page.screenshot(f"45-requests-diagnosis-{width}")
        page.js(f"document.querySelector('[data-testid=\"request-row-{rows[0][0]}\"]').click()")
        near = page.wait("(document.querySelector('[data-testid=request-near-miss]') || {}).textContent", "the near miss")
        expect("POST /v3/cashout" in near, f"the near miss says {near!r}")
        page.screenshot(f"46-requests-near-miss-{width}")
        step(f"{width}px: Requests lists {rows[0][1]} (near miss: {near!r}) and {rows[1][1]} ({rows[1][3]}: {message!r})")
    page.js("location.hash = '#/requests'")
    page.choose("requests-status", "401")
    page.wait("[...document.querySelectorAll('#requests-rows tr')].every(r => r.children[3].textContent === '401')", "the 401 filter")
    page.choose("requests-status", "")
    page.click("requests-clear")
    page.wait("document.getElementById('requests-empty').checkVisibility()", "the journal cleared")
    expect(admin(base, "/sandbox/requests")["requests"] == [], "Clear journal left requests in GET /sandbox/requests")
    step("Requests: the status filter lists only 401s; Clear journal empties it (DELETE /sandbox/requests)")


def check_webhooks_page(page, base, cashout_id):
    webhook = admin(base, f"/sandbox/cashouts/{cashout_id}")["webhooks"][0]["id"]
    if not route_exists(base, "POST /sandbox/webhooks/1/chaos"):
        show(page, "#/webhooks", f"!!document.querySelector('#view-webhooks [data-testid=\"duplicate-{webhook}\"]')")
        page.js(f"document.querySelector('#view-webhooks [data-testid=\"duplicate-{webhook}\"]').click()")
        said = page.wait("document.getElementById('notice').checkVisibility() && document.getElementById('notice').textContent", "the refusal")
        expect("HTTP 404" in said, f"Send duplicate without the chaos route: {said!r}")
        page.screenshot("47-webhooks-1280")
        skipped("the chaos marks of Send duplicate and Send forged", f"POST /sandbox/webhooks/{{id}}/chaos answers 404 (the page says {said!r})")
        return
    for kind, button in (("duplicate", "duplicate"), ("forged", "forged")):
        show(page, "#/webhooks", f"!!document.querySelector('#view-webhooks [data-testid=\"{button}-{webhook}\"]')")
        page.js(f"document.querySelector('#view-webhooks [data-testid=\"{button}-{webhook}\"]').click()")
        page.wait(f"!!document.querySelector('[data-testid=\"webhook-{webhook}\"] li[data-chaos=\"{kind}\"]')", f"the {kind} attempt marked")
    marks = page.js(f"[...document.querySelectorAll('[data-testid=\"webhook-{webhook}\"] li[data-chaos]')].map(li => li.dataset.chaos)")
    api = [a["chaos"]["kind"] for a in admin(base, f"/sandbox/cashouts/{cashout_id}")["webhooks"][0]["attempts"] if a.get("chaos")]
    expect(marks == api and {"duplicate", "forged"} <= set(marks), f"the Webhooks page marks {marks}, the API {api}")
    for width, height in WIDTHS:
        page.size(width, height, mobile=width < 600)
        show(page, "#/webhooks", "document.querySelectorAll('.badge.chaos').length >= 2")
        assert_layout(page, "#/webhooks", width)
        page.screenshot(f"47-webhooks-chaos-{width}")
    step(f"Webhooks: Send duplicate and Send forged on webhook {webhook} add attempts marked {marks}, as the API has them")
