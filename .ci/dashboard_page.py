"""The browser side of .ci/check-dashboard: headless Chromium driven through the DevTools
protocol (a stdlib-only websocket client), the page's DOM helpers, and the admin API as the
check calls it. Shared by check-dashboard's steps and dashboard_polish's."""

import base64
import hashlib
import hmac
import json
import os
import shutil
import socket
import struct
import subprocess
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTS = os.path.join(ROOT, ".build", "dashboard-screenshots")
TOKEN = "dashboard-check-token"

class CheckFailed(Exception):
    pass


class WebSocket:
    """The smallest RFC 6455 client that CDP needs: text frames out (masked), frames in."""

    def __init__(self, url, timeout=30):
        assert url.startswith("ws://")
        host_port, _, path = url[5:].partition("/")
        host, _, port = host_port.rpartition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise CheckFailed("websocket: connection closed during the handshake")
            head += chunk
        head, _, self.buffer = head.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            raise CheckFailed(f"websocket: handshake refused: {head[:100]!r}")
        accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
        if accept.encode() not in head:
            raise CheckFailed("websocket: bad Sec-WebSocket-Accept")

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(max(65536, count - len(self.buffer)))
            if not chunk:
                raise CheckFailed("websocket: connection closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _send_frame(self, opcode, payload):
        header = bytes([0x80 | opcode])
        length = len(payload)
        if length < 126:
            header += bytes([0x80 | length])
        elif length < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", length)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, text):
        self._send_frame(0x1, text.encode())

    def receive(self):
        """The next whole text message."""
        message = b""
        while True:
            first, second = self._read(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if second & 0x80 else None
            payload = self._read(length)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0x8:
                raise CheckFailed("websocket: closed by the browser")
            if opcode in (0x0, 0x1, 0x2):
                message += payload
                if first & 0x80:
                    return message.decode()

    def close(self):
        try:
            self._send_frame(0x8, b"")
        except OSError:
            pass
        self.sock.close()


# Run in every document before the page's own script. Records Content-Security-Policy
# violations; with `?manual-poll` in the URL it also takes the 2 s poll over (`__polls`, run
# by the check) and can hold the answers of the GETs matching `__hold` until `__release()`.
INIT_SCRIPT = r"""
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(e.effectiveDirective + " " + e.blockedURI));
if (location.search === "?manual-poll") {
  window.__polls = [];
  window.setInterval = (fn) => { window.__polls.push(fn); return 0; };
  window.__fetches = [];
  window.__held = [];
  window.__hold = null;
  const realFetch = window.fetch.bind(window);
  window.fetch = async (url, init) => {
    const method = (init && init.method) || "GET";
    window.__fetches.push(method + " " + url);
    const response = await realFetch(url, init);
    if (window.__hold && method === "GET" && new RegExp(window.__hold).test(String(url))) {
      await new Promise((resolve) => window.__held.push(resolve));
    }
    return response;
  };
  window.__release = () => { window.__hold = null; const held = window.__held.splice(0); held.forEach((r) => r()); return held.length; };
}
"""


class Page:
    """CDP calls on one page target, and the DOM helpers the check uses."""

    def __init__(self, ws_url):
        self.ws = WebSocket(ws_url)
        self.next_id = 0
        self.exceptions = []
        self.csp_reports = []  # console messages about a Content-Security-Policy, from every document

    def call(self, method, **params):
        self.next_id += 1
        mine = self.next_id
        self.ws.send(json.dumps({"id": mine, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.receive())
            if message.get("method") == "Runtime.exceptionThrown":
                details = message["params"]["exceptionDetails"]
                self.exceptions.append(details.get("exception", {}).get("description") or details.get("text"))
            if message.get("method") == "Log.entryAdded":
                text = message["params"]["entry"].get("text", "")
                if "Content Security Policy" in text or "Content-Security-Policy" in text:
                    self.csp_reports.append(text)
            if message.get("id") == mine:
                if "error" in message:
                    raise CheckFailed(f"{method}: {message['error']}")
                return message.get("result", {})

    def js(self, expression, await_promise=False):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=await_promise)
        if "exceptionDetails" in result:
            raise CheckFailed(f"script error in {expression!r}: {result['exceptionDetails'].get('exception', {}).get('description')}")
        return result["result"].get("value")

    def wait(self, expression, what, timeout=10):
        deadline = time.monotonic() + timeout
        while True:
            value = self.js(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise CheckFailed(f"timed out after {timeout}s waiting for {what} ({expression})")
            time.sleep(0.05)

    def text(self, element_id):
        """The text of the element with this id, or else this data-testid."""
        return self.js(f"(document.getElementById({json.dumps(element_id)}) || "
                       f"document.querySelector('[data-testid=\"' + {json.dumps(element_id)} + '\"]') || {{}}).textContent")

    def click(self, element_id):
        ok = self.js(f"(() => {{ const b = document.getElementById({json.dumps(element_id)}); if (!b || b.disabled) return false; b.click(); return true; }})()")
        if not ok:
            raise CheckFailed(f"cannot click #{element_id}: missing or disabled")

    def choose(self, select_id, value):
        """Sets a select (or input) and fires its change event, as a user would."""
        self.js(f"(() => {{ const f = document.getElementById({json.dumps(select_id)}); f.value = {json.dumps(value)}; "
                f"f.dispatchEvent(new Event('change')); }})()")

    def navigate(self, url):
        self.call("Page.navigate", url=url)
        self.wait("document.readyState === 'complete' && document.body && document.body.dataset.view", "the page to load")

    def size(self, width, height, mobile=False):
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=mobile)

    def screenshot(self, name):
        metrics = self.call("Page.getLayoutMetrics")
        content = metrics.get("cssContentSize") or metrics["contentSize"]
        viewport = metrics.get("cssLayoutViewport") or metrics["layoutViewport"]
        clip = {"x": 0, "y": 0, "width": viewport["clientWidth"], "height": min(content["height"], 4000), "scale": 1}
        data = self.call("Page.captureScreenshot", format="png", clip=clip, captureBeyondViewport=True)["data"]
        path = os.path.join(SHOTS, name + ".png")
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))
        print(f"  screenshot {os.path.relpath(path, ROOT)}")


def step(message):
    print(f"ok {message}", flush=True)


def start_chromium(profile):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("chromium is missing: apt-get install -y chromium", flush=True)
        subprocess.run(["apt-get", "update", "-qq"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, stdout=subprocess.DEVNULL)
        chromium = shutil.which("chromium")
    browser = subprocess.Popen([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", f"--user-data-dir={profile}",
                                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                                "--disable-background-networking", "--disable-sync", "--window-size=1280,900", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, start_new_session=True)
    port_file = os.path.join(profile, "DevToolsActivePort")
    deadline = time.monotonic() + 30
    while not os.path.exists(port_file) or not open(port_file).read().strip():
        if browser.poll() is not None:
            raise CheckFailed(f"chromium exited with status {browser.returncode}")
        if time.monotonic() > deadline:
            raise CheckFailed("chromium did not write DevToolsActivePort within 30 s")
        time.sleep(0.1)
    port = int(open(port_file).read().split()[0])
    deadline = time.monotonic() + 10
    while True:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as answer:
            pages = [t for t in json.load(answer) if t.get("type") == "page"]
        if pages:
            return browser, pages[0]["webSocketDebuggerUrl"]
        if time.monotonic() > deadline:
            raise CheckFailed("chromium has no page target")
        time.sleep(0.1)


def admin(base, path, method="GET", body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def create_by_api(base, external_id, notification_url=None):
    """A PENDING cashout of the default merchant, through the signed D24 API (not the page)."""
    fields = {"login": "sandbox_login", "pass": "sandbox_pass", "external_id": external_id, "country": "BR",
              "currency": "BRL", "amount": "50.00", "document_id": "01716001340", "document_type": "CPF",
              "beneficiary_name": "Ana", "beneficiary_lastname": "Silva", "bank_code": "001",
              "bank_account": "3423422-7", "bank_branch": "1234", "account_type": "C"}
    if notification_url:
        fields["notification_url"] = notification_url
    body = json.dumps(fields).encode()
    signature = hmac.new(b"sandbox_secret", body, hashlib.sha256).hexdigest()
    request = urllib.request.Request(base + "/v3/cashout", data=body, method="POST",
                                     headers={"Content-Type": "application/json", "Payload-Signature": signature})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return str(json.load(answer)["cashout_id"])


# A table cell's text without what a phone shows in place of hidden columns (`.show-narrow`).
CELL_TEXT = "((td) => [...td.childNodes].filter(n => !(n.classList && n.classList.contains('show-narrow'))).map(n => n.textContent).join(''))"


def expect(condition, message):
    if not condition:
        raise CheckFailed(message)

