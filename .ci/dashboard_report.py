"""The Report page's steps of .ci/check-dashboard (#/report, GET /sandbox/report), at 1280px and
390px with screenshots: the summary says how many checks nothing exercised; the index at the top
lists every finding, each a link to its details; every account's headline, findings (severity,
id, occurrences, advice, one evidence row per request or delivery), passed and not exercised
checks (each with its description) are the admin API's; an account named by HTML is shown as its
text (nothing of it runs); the page follows the report when it changes; one account's page
(#/report/ID), and an account the sandbox never saw (one message, the 404's); a forged
notification the app answered 200 is shown red, as the failure it is. A report the journal cannot
make (409) is checked against a sandbox without a request journal (`check_report_unknowable`)."""

import hashlib
import hmac
import http.server
import json
import re
import threading
import time
import urllib.request

from dashboard_page import TOKEN, admin, create_by_api, expect, step
from dashboard_polish import MESSAGES, WIDTHS, assert_layout, send, show

# An account's login that is HTML: the page must show it, not build it.
HTML_LOGIN = '<img src=x onerror="window.__xss = 1">'

# What the Report page shows of each account, in order.
SHOWN = r"""[...document.querySelectorAll('#report-accounts > .report-account')].map((card) => ({
  account: card.querySelector('h2 > a').textContent,
  headline: card.querySelector('.report-headline').textContent,
  findings: [...card.querySelectorAll('.report-finding')].map((f) => ({
    id: f.querySelector('.report-id').textContent, severity: f.dataset.severity,
    occurrences: [...f.querySelectorAll('.report-occurrences > li')].map((li) => li.textContent),
    advice: f.querySelector('.report-advice').textContent,
    evidence: f.querySelectorAll('.report-evidence tbody tr').length })),
  passed: [...card.querySelectorAll('[data-testid^="report-passed-"] li')].map((li) => li.textContent),
  not_exercised: [...card.querySelectorAll('[data-testid^="report-not-exercised-"] li')].map((li) => li.textContent),
}))"""

# The findings index at the top: each line's account and id, in order.
INDEX = r"""[...document.querySelectorAll('#report-index > li')].map((li) => li.dataset.testid)"""


def plural(count, word):
    return f"{count} {word}{'' if count == 1 else 's'}"


def idle(not_exercised, checks):
    """`; 6 of 8 checks not exercised`, or nothing."""
    return f"; {not_exercised} of {plural(checks, 'check')} not exercised" if not_exercised else ""


def expected(report):
    """The admin API's report as the page must show it: each check with its description."""
    accounts = []
    for a in report["accounts"]:
        described = report["check_descriptions"][a["dialect"]]
        errors = sum(1 for f in a["findings"] if f["severity"] == "error")
        warnings = len(a["findings"]) - errors
        checks = len(a["findings"]) + len(a["passed"]) + len(a["not_exercised"])
        accounts.append({
            "account": a["account"],
            "headline": ((f"{plural(errors, 'error')}, {plural(warnings, 'warning')}" if a["findings"] else "ok")
                         + idle(len(a["not_exercised"]), checks) if a["findings"] or a["passed"] else "ok (no check exercised yet)"),
            "findings": [{"id": f["id"], "severity": f["severity"], "occurrences": f["occurrences"], "advice": "Advice: " + f["advice"],
                          "evidence": len(f["evidence"])} for f in a["findings"]],
            "passed": [f"{id_}: {described[id_]}" for id_ in a["passed"]],
            "not_exercised": [f"{id_}: {described[id_]}" for id_ in a["not_exercised"]],
        })
    return accounts


def expected_index(report):
    """The findings index: errors first, then warnings, each in the report's order."""
    found = [(f["severity"] != "error", a["account"], f["id"]) for a in report["accounts"] for f in a["findings"]]
    return [f"report-index-{account}-{id_}" for _, account, id_ in sorted(found, key=lambda item: item[0])]


def refuse(base, login):
    """A D24 create with a wrong pass: a signature_errors finding for `login`."""
    body = json.dumps({"login": login, "pass": "wrong", "external_id": "dash-report"}).encode()
    signature = hmac.new(b"sandbox_secret", body, hashlib.sha256).hexdigest()
    status = send(base, "POST", "/v3/cashout", body, {"Content-Type": "application/json", "Payload-Signature": signature})
    expect(status == 401, f"a create with a wrong pass answered {status}")


def shown_matches(page, base, hash_, what):
    """Opens `hash_` and waits until the page shows what the admin API's report says now."""
    report = admin(base, "/sandbox/report" + (f"?account={hash_.split('/')[2]}" if hash_.count("/") == 2 else ""))
    want = expected(report)
    show(page, hash_, "document.getElementById('report-accounts').children.length > 0")
    page.wait(f"JSON.stringify({SHOWN}) === {json.dumps(json.dumps(want, separators=(',', ':'), ensure_ascii=False))}", what, timeout=10)
    index = page.js(INDEX)
    expect(index == expected_index(report), f"the findings index lists {index}, not {expected_index(report)}")
    return report


def check_report_page(page, base):
    refuse(base, "sandbox_login")
    refuse(base, HTML_LOGIN)
    for width, height in WIDTHS:
        page.size(width, height, mobile=width < 600)
        report = shown_matches(page, base, "#/report", f"the Report page at {width}px to show GET /sandbox/report")
        accounts = [a["account"] for a in report["accounts"]]
        expect(HTML_LOGIN in accounts and "sandbox_login" in accounts, f"the report's accounts are {accounts}")
        expect(page.js("window.__xss") is None and page.js("document.querySelectorAll('#report-accounts img').length") == 0,
               f"the account {HTML_LOGIN!r} was built as HTML")
        summary = page.text("report-summary")
        expect(summary.startswith("not ok ") and summary.endswith(f"in {plural(len(accounts), 'account')}"
                                                                  + idle(report["not_exercised"], report["checks"])), f"the summary says {summary!r}")
        assert_layout(page, "#/report", width)
        page.screenshot(f"48-report-{width}")
        step(f"{width}px: Report shows {len(accounts)} accounts as GET /sandbox/report has them ({summary!r}); "
             f"the account {HTML_LOGIN!r} as text")
    page.size(1280, 900)
    # The page follows the report: a second refused request is a second occurrence's count.
    refuse(base, "sandbox_login")
    shown_matches(page, base, "#/report/sandbox_login", "one account's report after another refused request")
    occurrence = page.js("document.querySelector('[data-testid=\"report-finding-sandbox_login-signature_errors\"] .report-occurrences > li').textContent")
    expect(occurrence.startswith("2 requests refused"), f"after two refused requests the page says {occurrence!r}")
    expect(page.js("document.getElementById('report-all').checkVisibility()"), "one account's report has no link back to every account's")
    show(page, "#/report/nobody", "document.getElementById('report-unavailable').checkVisibility()")
    messages = page.js(MESSAGES)
    expect(messages == ['report-unavailable: HTTP 404: no account "nobody": the sandbox has none of that id, and no request named it'],
           f"an unknown account's report shows {messages}")
    expect(not page.js("document.getElementById('report-body').checkVisibility()"), "an unknown account's report still shows a report")
    step(f"Report: one account's page follows the report ({occurrence!r}); an unknown account is one message ({messages[0]!r})")
    # While nothing changes the page sends the report's ETag back, and the report is not made again.
    show(page, "#/report", "document.getElementById('report-accounts').children.length > 0")
    before, deadline = not_modified(base), time.monotonic() + 30
    while not_modified(base) == before:
        expect(time.monotonic() < deadline, "the page polled the unchanged report for 30 s and was never answered 304")
        time.sleep(0.2)
    step(f"Report: polled unchanged, the page sends the ETag back and is answered 304 (GET /sandbox/metrics: {not_modified(base)})")
    check_forged_accepted(page, base)


class Accepting(http.server.BaseHTTPRequestHandler):
    """An app's notification receiver that checks nothing: 200 to every notification, forged or not."""

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def check_forged_accepted(page, base):
    """A forged copy the app answered 200: a finding at the top of the index, its evidence red, not a 2xx's green."""
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Accepting)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    cashout = create_by_api(base, "dash-forged", f"http://127.0.0.1:{receiver.server_address[1]}/hook")
    admin(base, "/sandbox/clock/advance", "POST", {"by": "5s"})
    deadline = time.monotonic() + 10
    while True:
        webhooks = admin(base, f"/sandbox/webhooks?cashout_id={cashout}")["webhooks"]
        if any(a["response_status"] == 200 for w in webhooks for a in w["attempts"]):
            break
        expect(time.monotonic() < deadline, f"the receiver never acknowledged a notification of cashout {cashout}: {webhooks}")
        time.sleep(0.05)
    admin(base, f"/sandbox/webhooks/{webhooks[0]['id']}/chaos", "POST", {"kind": "forged"})
    while "forged_notification_accepted" not in [f["id"] for a in admin(base, "/sandbox/report?account=sandbox_login")["accounts"] for f in a["findings"]]:
        expect(time.monotonic() < deadline + 10, "the forged copy answered 200 is no finding")
        time.sleep(0.05)
    receiver.shutdown()
    shown_matches(page, base, "#/report", "the Report page to show the forged notification accepted")
    badge = page.js("(() => { const b = document.querySelector('[data-testid=\"report-forged-accepted\"]');"
                    " return b && { text: b.textContent, red: b.classList.contains('sev-error'), green: b.classList.contains('http-2xx'),"
                    " note: b.closest('tr').querySelector('.report-note').textContent }; })()")
    expect(badge == {"text": "200", "red": True, "green": False, "note": "forged: signed with a wrong key, and accepted"},
           f"the forged notification answered 200 is shown as {badge}")
    # The index's link shows the finding's details: its evidence row is on screen after the click.
    page.js("document.querySelector('[data-testid=\"report-index-sandbox_login-forged_notification_accepted\"] a').click()")
    page.wait("(() => { const r = document.querySelector('[data-testid=\"report-finding-sandbox_login-forged_notification_accepted\"]')"
              ".getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; })()", "the index's link to scroll to its finding")
    page.screenshot("48-report-forged-1280")
    step(f"Report: a forged notification answered 200 is red, listed at the top ({page.js(INDEX)[0]}), its link scrolls to it")


def not_modified(base):
    """How many report requests were answered 304, as GET /sandbox/metrics counts them."""
    request = urllib.request.Request(base + "/sandbox/metrics", headers={"Authorization": "Bearer " + TOKEN})
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read().decode()
    match = re.search(r'cashout_sandbox_http_requests_total\{route="GET /sandbox/report",status="304"\} (\d+)', text)
    return int(match.group(1)) if match else 0


def check_report_unknowable(page, base):
    """On a sandbox without a request journal the report cannot be made: the 409's message alone."""
    show(page, "#/report", "document.getElementById('report-unavailable').checkVisibility()")
    said = page.text("report-unavailable")
    expect(said.startswith("The report cannot be made: the request journal is off (--request-journal 0)"), f"a 409 shows {said!r}")
    expect(not page.js("document.getElementById('report-body').checkVisibility()") and len(page.js(MESSAGES)) == 1,
           f"a 409 shows more than its message: {page.js(MESSAGES)}")
    page.screenshot("49-report-unknowable-1280")
    step(f"Report on a sandbox without a request journal (409): {said!r}")
