"""The one shared module of the .ci checks and benchmarks (python3 stdlib; grpcio when asked for).

    from cilib import LOCAL, SandboxProcess, require, step

    with SandboxProcess(binary, LOCAL + ["--log-format", "off"]) as server:  # `BINARY serve ARGS`
        ...  # server.url, server.port, server.pid; server.tail(n): the last lines it printed
        server.stop()  # SIGTERM; SandboxError unless it exits 0 within 10 s

Starting waits for the `listening on http://HOST:PORT` line (SandboxError with the output after `timeout` s or an early
exit); a thread reads stdout and stderr to the end, so the server never blocks on a full pipe. Also: step/require/wait_until
reporting, D24 signing and a keep-alive JSON client, pipelined HTTP/1.1 load, urllib fetches, a webhook Receiver, the release
build, apt-get and PyPI installs, a check's command line, grpcio stubs of the project's own .proto files with a channel to a
sandbox, the Java example app compiled, and a headless Chromium page driven over the DevTools protocol (Page).
"""
import argparse, base64, collections, contextlib, glob, hashlib, hmac, http.client, http.server, importlib, importlib.machinery, importlib.util, json
import os, re, shutil, signal as signals, site, socket, struct, subprocess, sys, tempfile, threading, time, urllib.error, urllib.request, zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APPS = os.path.join(ROOT, "Tests", "ExampleApps")  # the example apps the checks run beside a sandbox
LOCAL = ["--host", "127.0.0.1", "--port", "0", "--clock", "manual"]
LISTENING = re.compile(r"listening on (http://(\[[^\]]*\]|[^\s:/]+):(\d+))")

class SandboxError(RuntimeError):
    """The server did not start, or did not stop as expected."""

class SandboxProcess:
    def __init__(self, binary, args=(), timeout=30.0, keep=200, argv=None, **popen):  # popen: cwd, env... for subprocess.Popen
        # argv: a whole command line (a Dockerfile's ENTRYPOINT + CMD) in place of `BINARY serve ARGS`
        self.command, self.timeout, self.popen = argv or [binary, "serve", *args], timeout, popen
        self.process = self.url = self.host = self.port = None
        self.startup, self.lines, self._listening = [], collections.deque(maxlen=keep), threading.Event()
        self.start()

    def start(self):
        """Starts the server; returns self once it listens (`startup`: the lines before)."""
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, text=True, errors="replace", **self.popen)
        threading.Thread(target=self._drain, args=(self.process,), daemon=True).start()
        deadline = time.monotonic() + self.timeout
        while not self._listening.wait(0.05):
            if self.process.poll() is not None or time.monotonic() > deadline:
                if self._listening.wait(0.2):  # the reader may still be on the last lines
                    break
                status = self.process.poll()
                self.kill()
                what = (f"exited {status} before printing 'listening on'" if status is not None
                        else f"did not print 'listening on' within {self.timeout:g}s (killed)")
                raise SandboxError(f"the server {what}; its output:\n" + "\n".join(self.startup[-40:]))
        return self

    def _drain(self, process):
        for line in process.stdout:
            line = line.rstrip("\n")
            self.lines.append(line)
            if not self._listening.is_set():
                match = LISTENING.search(line)
                if match:
                    self.url, self.host, self.port = match.group(1), match.group(2), int(match.group(3))
                    self._listening.set()
                else:
                    self.startup.append(line)

    pid = property(lambda self: self.process.pid)

    def tail(self, count=20):
        return list(self.lines)[-count:]

    def stop(self, signal=signals.SIGTERM, expect_exit=0, timeout=10.0):
        """Sends `signal`; the exit status. SandboxError (with the last output) when it does not exit
        within `timeout` s (it is killed) or exits otherwise than `expect_exit` (None: any)."""
        if self.process.poll() is None:
            self.process.send_signal(signal)
        name = signals.Signals(signal).name
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise SandboxError(f"the server did not exit within {timeout:g}s of {name}; last output:\n" + "\n".join(self.tail()))
        if expect_exit is not None and status != expect_exit:
            raise SandboxError(f"the server exited {status} on {name}, expected {expect_exit}; last output:\n" + "\n".join(self.tail()))
        return status

    def close(self, timeout=10.0):
        """Clean-up that never raises: SIGTERM if it still runs, SIGKILL after `timeout` s; the exit status."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
        return self.kill()

    def kill(self):
        """SIGKILL unless it has exited; the exit status."""
        if self.process.poll() is None:
            self.process.kill()
        return self.process.wait()

    __enter__ = lambda self: self  # noqa: E731
    __exit__ = lambda self, *_: self.close()  # noqa: E731

def memory(pid):
    """VmRSS (now) and VmHWM (the peak so far) of a live process, in bytes."""
    with open(f"/proc/{pid}/status") as status:
        fields = dict(line.split(":", 1) for line in status)
    return {name: int(fields[name].split()[0]) * 1024 for name in ("VmRSS", "VmHWM")}

def cpu_seconds(pid):
    """The CPU time (user + system) a live process used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()  # after the command's name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime and stime, fields 14 and 15

class CheckFailed(Exception):
    """An answer the check did not expect, or an invariant that does not hold."""

def require(condition, message):
    if not condition:
        raise CheckFailed(message)

def step(text):
    print(f"- {text}", flush=True)

def arguments(doc, optional=False, **options):
    """A check's command line: BINARY (made absolute; None when `optional` and not given), and `--NAME VALUE` for each
    option (name=default, the value converted to the default's type); argparse's usage and exit 2 otherwise."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", type=os.path.abspath, nargs="?" if optional else None)
    for name, default in options.items():
        parser.add_argument("--" + name.replace("_", "-"), type=type(default), default=default)
    return parser.parse_args()

def shown_run(command, shown, timeout, **options):
    """subprocess.run in ROOT (output captured as text, no stdin), printed: `$ shown`, the exit status and
    the time it took, the output."""
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, **options)
    print(f"$ {shown}\nexit {done.returncode} ({time.monotonic() - started:.1f} s)\n{done.stdout}{done.stderr}")
    return done

def verdict(name, problems):
    """Prints each problem and the check's verdict; the exit status."""
    for problem in problems:
        print("FAIL", problem)
    print(f"{name}:", "FAILED" if problems else "passed")
    return 1 if problems else 0

def wait_until(condition, what, timeout=10, interval=0.05):
    """condition()'s first true value, asked every `interval` s; CheckFailed once `timeout` s passed without one."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        require(time.monotonic() < deadline, f"timed out after {timeout:g}s waiting for {what}")
        time.sleep(interval)
    return value

def release_build():  # quick when it is up to date
    subprocess.run(["swift", "build", "-c", "release", "--product", "cashout-sandbox"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    return os.path.join(ROOT, ".build", "release", "cashout-sandbox")

def apt_install(package, *needed):
    """Installs a Debian package unless all it is `needed` for is here: each a command on PATH, or a file by its absolute path."""
    assert needed, f"apt_install({package!r}) names nothing to look for, so it would never install"
    if not all(os.path.exists(need) if os.path.isabs(need) else shutil.which(need) for need in needed):
        print(f"{', '.join(needed)} missing: apt-get install -y {package}", flush=True)
        subprocess.run(["apt-get", "update", "-qq"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "-qq", package], check=True, stdout=subprocess.DEVNULL)

JUNIT = "/usr/share/java/junit-platform-console-standalone.jar"

def java_example(build):
    """Compiles Tests/ExampleApps/java into `build` (a JDK and JUnit 5 from Debian first, when missing);
    the command that runs its JUnit test, as the Testing your app guide shows it."""
    apt_install("default-jdk-headless", "javac")
    apt_install("junit5", JUNIT)
    sources = glob.glob(os.path.join(APPS, "java", "*.java"))
    subprocess.run(["javac", "-d", build, "-cp", JUNIT, *sources], check=True, stdin=subprocess.DEVNULL)
    return f"java -jar {JUNIT} -cp {build} --select-class PayoutWorkersTest --disable-banner --details=summary"

def pip_install(*packages, modules=()):
    """Installs PyPI packages for this user (Debian's Python refuses that unless told: PEP 668) unless every
    one of `modules` is found (found, not imported)."""
    if modules and all(importlib.util.find_spec(module) for module in modules):
        return
    print("missing: pip install " + " ".join(packages), flush=True)
    base = [sys.executable, "-m", "pip", "install", "--quiet", "--user", *packages]
    if subprocess.run(base).returncode != 0:
        subprocess.run(base + ["--break-system-packages"], check=True)
    importlib.invalidate_caches()
    if site.getusersitepackages() not in sys.path:
        if site.ENABLE_USER_SITE:
            # This install made the user's site folder: Python puts it before site-packages only at start, and
            # its packages may need a newer copy of one there (anyio, typing_extensions), so the script starts again.
            print("restarting: pip made the user's site folder", flush=True)
            os.execv(sys.executable, [sys.executable, *sys.argv])
        sys.path.append(site.getusersitepackages())
    # A module this process imported before the install (typing_extensions) may now have a newer copy
    # that the new packages need: mixing the two fails at import, so the script starts again.
    stale = [name for name, module in list(sys.modules.items())
             if "." not in name and getattr(module, "__file__", None)
             and (spec := importlib.machinery.PathFinder.find_spec(name)) and spec.origin != module.__file__]
    if stale:
        print(f"restarting: pip replaced {', '.join(sorted(stale))}, already imported", flush=True)
        os.execv(sys.executable, [sys.executable, *sys.argv])

def fetch(url, data=None, headers=None, method=None, timeout=10):
    """(status, headers, body bytes) of one request; an error status is an answer too."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data, headers or {}, method=method), timeout=timeout) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()

class Receiver(http.server.ThreadingHTTPServer):
    """A notification receiver on 127.0.0.1 (`url`, serving until shutdown()) that answers every POST 200
    and checks nothing; `received`: (path, headers with lowercase names, body bytes), in order."""

    daemon_threads = True

    def __init__(self):
        self.received, self.changed = [], threading.Condition()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            log_message = lambda *_: None  # noqa: E731

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.changed:
                    receiver.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    receiver.changed.notify_all()
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        super().__init__(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server_address[1]}"
        threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def wait(self, condition, timeout=10):
        """Waits until condition() holds (or `timeout` s passed), as notifications arrive; its last value."""
        with self.changed:
            return self.changed.wait_for(condition, timeout)

# D24: the default merchant, a valid Brazilian create, the Payload-Signature, a keep-alive JSON client.

LOGIN, PASS, SECRET = "sandbox_login", "sandbox_pass", b"sandbox_secret"

def create_fields(external_id, amount, name="Ana", login=LOGIN, password=PASS, currency="BRL"):
    """The fields of a valid signed create for Brazil (CPF, Banco do Brasil)."""
    return {"login": login, "pass": password, "external_id": external_id, "country": "BR", "currency": currency,
            "amount": amount, "document_id": "01716001340", "document_type": "CPF", "beneficiary_name": name,
            "beneficiary_lastname": "Silva", "bank_code": "001", "bank_account": "3423422-7", "bank_branch": "1234",
            "account_type": "C"}

def signature(secret, body):
    """The Payload-Signature of `body` (bytes): lowercase hex HMAC-SHA256."""
    return hmac.new(secret, body, hashlib.sha256).hexdigest()

def signed(path, fields, secret=SECRET):
    """A signed POST of `fields` as compact JSON (or of the bytes given), as raw HTTP/1.1 bytes (for pipeline)."""
    body = fields if isinstance(fields, bytes) else json.dumps(fields, separators=(",", ":")).encode()
    return (b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nPayload-Signature: %s\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (path.encode(), signature(secret, body).encode(), len(body), body))

class Client:
    """One keep-alive connection to 127.0.0.1:port; reconnects after an error (a GET is tried twice)."""

    def __init__(self, port, timeout=30):
        self.port, self.timeout, self.connection = port, timeout, None

    def call(self, method, path, body=None, secret=None, raw=False, headers=None):
        """Sends `body` (JSON-encoded, or bytes as they are) as JSON with `headers`, signed with `secret` when given;
        returns (HTTP status, the answer's JSON, its text when not JSON, or its bytes with raw=True)."""
        data = body if body is None or isinstance(body, bytes) else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", **(headers or {})}
        if secret is not None:
            headers["Payload-Signature"] = signature(secret, data)
        for attempt in range(2):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                answer = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                if raw:
                    return response.status, answer
                try:
                    return response.status, json.loads(answer) if answer else None
                except ValueError:
                    return response.status, answer.decode(errors="replace")
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt or method != "GET":
                    raise
        raise AssertionError("unreachable")

    def close(self):
        if self.connection is not None:
            self.connection.close()
        self.connection = None

CONTENT_LENGTH = re.compile(rb"\r\ncontent-length: *(\d+)", re.IGNORECASE)

def read_answers(sock, count, pending):
    """Reads count HTTP answers from sock (after the bytes pending); raises unless each is a 200.
    Returns the bytes read past them."""
    buffer, position = bytearray(pending), 0
    while count:
        end = buffer.find(b"\r\n\r\n", position)
        length = CONTENT_LENGTH.search(buffer, position, end) if end >= 0 else None
        if end >= 0 and length is None:
            raise ValueError(f"an answer without Content-Length: {bytes(buffer[position:end])!r}")
        if end < 0 or len(buffer) < end + 4 + int(length.group(1)):
            more = sock.recv(1 << 20)
            if not more:
                raise ConnectionError("the server closed the connection")
            buffer += more
            continue
        after = end + 4 + int(length.group(1))
        if buffer[position + 9:position + 12] != b"200":
            raise ValueError(f"a request was answered {bytes(buffer[position:after])!r}")
        position, count = after, count - 1
    return bytes(buffer[position:])

def pipeline(port, count, request, connections=8, batch=64):
    """Sends request(0) ... request(count - 1) (raw bytes), `batch` at a time pipelined on each of
    `connections` connections; exits unless every one is answered 200."""
    failures = []

    def connection(first):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=3600) as sock:
                pending = b""
                for start in range(first, count, batch * connections):
                    indices = range(start, min(start + batch, count))
                    sock.sendall(b"".join(request(index) for index in indices))
                    pending = read_answers(sock, len(indices), pending)
        except Exception as error:  # noqa: BLE001 - reported once every thread ended
            failures.append(f"{type(error).__name__}: {error}")

    threads = [threading.Thread(target=connection, args=(index * batch,)) for index in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        sys.exit(f"filling the server failed: {failures[0]}")

# gRPC: grpcio from PyPI, and Python stubs of every .proto of the project (Sources/**/Protos/**/*.proto).

@contextlib.contextmanager
def grpc_sandbox(binary, keep=200):
    """grpcio, grpcio-tools, grpcio-health-checking and grpcio-reflection (installed when missing), a sandbox
    (`BINARY serve LOCAL`), the project's stubs generated in a scratch folder, and a channel to the
    sandbox: yields (server, channel, the descriptor set files of generate_stubs). A CheckFailed in the
    block is printed with the server's last lines and exits 1; otherwise the server must stop with status 0."""
    # Found, not imported: grpc_health's descriptors would clash with the project's health.proto.
    pip_install("grpcio", "grpcio-tools", "grpcio-health-checking", "grpcio-reflection",
                modules=["grpc", "grpc_tools", "grpc_health", "grpc_reflection"])
    with tempfile.TemporaryDirectory() as directory, SandboxProcess(binary, LOCAL, keep=keep) as server:
        descriptors = generate_stubs(directory)
        import grpc
        try:
            with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
                yield server, channel, descriptors
        except CheckFailed as failure:
            print(f"FAIL: {failure}\nserver output (last lines):\n" + "\n".join(server.tail(30)), file=sys.stderr)
            sys.exit(1)
        server.stop()

GRPCAnswer = collections.namedtuple("GRPCAnswer", "code details response initial trailing")

def grpc_call(method, request, **options):
    """One unary call through a grpcio stub's `method` (options: metadata, timeout, compression...),
    answered or refused: its code, details ("" when none), response (None when refused), and initial
    and trailing metadata as dicts."""
    import grpc
    try:
        response, outcome = method.with_call(request, **options)
    except grpc.RpcError as error:
        response, outcome = None, error
    return GRPCAnswer(outcome.code(), outcome.details() or "", response, dict(outcome.initial_metadata() or ()),
                      dict(outcome.trailing_metadata() or ()))

def generate_stubs(directory):
    """Messages and grpc stubs for every .proto, generated by grpcio-tools into `directory` (put first
    on sys.path); returns {relative path: descriptor set file}. A .proto under `grpc/` (health,
    reflection) goes to the package `project_protos`: a top-level `grpc` package is grpcio's own."""
    from grpc_tools import protoc
    roots = sorted(glob.glob(os.path.join(ROOT, "Sources", "**", "Protos"), recursive=True))
    files = [(root, os.path.relpath(path, root)) for root in roots
             for path in sorted(glob.glob(os.path.join(root, "**", "*.proto"), recursive=True))]
    require(files, "no .proto files under Sources/**/Protos")
    descriptors = {}
    for root, relative in files:
        descriptors[relative] = os.path.join(directory, relative.replace("/", "_") + ".pb")
        require(protoc.main(["protoc", f"-I{root}", f"--python_out={directory}", f"--grpc_python_out={directory}",
                             f"--descriptor_set_out={descriptors[relative]}", relative]) == 0, f"protoc failed on {relative}")
    if os.path.isdir(os.path.join(directory, "grpc")):
        os.rename(os.path.join(directory, "grpc"), os.path.join(directory, "project_protos"))
        for path in glob.glob(os.path.join(directory, "project_protos", "**", "*.py"), recursive=True):
            with open(path) as f:
                text = f.read()
            with open(path, "w") as f:
                f.write(re.sub(r"^from grpc\.(\w)", r"from project_protos.\1", text, flags=re.M))
    sys.path.insert(0, directory)
    return descriptors

# Shorthands declared before every expression a Page evaluates (a function declaration may be repeated; the value is the
# expression's): an element by id or data-testid, a row's cells (by data-testid), its text, whether it is shown, a selector's elements.
HELPERS = ("function __id(id) { return document.getElementById(id); } function __text(id) { return __id(id).textContent; }"
           " function __tid(testid) { return document.querySelector('[data-testid=\"' + testid + '\"]'); }"
           " function __cells(testid) { const row = __tid(testid); return row && [...row.children]; }"
           " function __shown(id) { return __id(id).checkVisibility(); } function __all(css) { return [...document.querySelectorAll(css)]; }\n")

class Page:
    """Headless Chromium driven through --remote-debugging-pipe (CDP as NUL-separated JSON on fds 3 and 4), attached to its
    page target, with a profile of its own thrown away on close(); and the DOM helpers the checks use. Screenshots go to
    `shots`."""

    def __init__(self, shots):
        self.shots, profile = shots, tempfile.mkdtemp(prefix="cilib-chromium-")
        os.makedirs(shots, exist_ok=True)
        if not shutil.which("chromium-browser"):
            apt_install("chromium", "chromium")
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        (commands, to_browser), (from_browser, answers) = os.pipe(), os.pipe()

        def on_fds_3_and_4():  # dup first: a pipe's own fd may be 3 or 4
            read, write = os.dup(commands), os.dup(answers)
            os.dup2(read, 3)
            os.dup2(write, 4)
        self.browser = subprocess.Popen([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                         "--remote-debugging-pipe", f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check",
                                         "--disable-extensions", "--disable-background-networking", "--disable-sync", "--window-size=1280,900",
                                         "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                                        start_new_session=True, pass_fds=(3, 4), preexec_fn=on_fds_3_and_4)
        os.close(commands)
        os.close(answers)
        self.to_browser, self.from_browser, self.buffer, self.session, self.profile = to_browser, from_browser, b"", None, profile
        self.next_id, self.exceptions, self.csp_reports = 0, [], []
        try:
            pages = wait_until(lambda: [t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page"],
                               "chromium's page target", timeout=30, interval=0.1)
            self.session = self.call("Target.attachToTarget", targetId=pages[0]["targetId"], flatten=True)["sessionId"]
        except BaseException:
            self.close()
            raise

    def call(self, method, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params, **({"sessionId": self.session} if self.session else {})}
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self.to_browser, data):]
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_browser, 1 << 20)
                require(chunk, f"chromium closed its pipe (exit status {self.browser.poll()})")
                self.buffer += chunk
            raw, _, self.buffer = self.buffer.partition(b"\0")
            message = json.loads(raw)
            if message.get("method") == "Runtime.exceptionThrown":
                details = message["params"]["exceptionDetails"]
                self.exceptions.append(details.get("exception", {}).get("description") or details.get("text"))
            if message.get("method") == "Log.entryAdded":  # console messages about a Content-Security-Policy, from every document
                text = message["params"]["entry"].get("text", "")
                if "Content Security Policy" in text or "Content-Security-Policy" in text:
                    self.csp_reports.append(text)
            if message.get("id") == self.next_id:
                require("error" not in message, f"{method}: {message.get('error')}")
                return message.get("result", {})

    def close(self):  # the whole process group: the profile it wrote is thrown away
        if self.browser.poll() is None:
            os.killpg(self.browser.pid, signals.SIGKILL)
        self.browser.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)

    def js(self, expression, await_promise=False):
        result = self.call("Runtime.evaluate", expression=HELPERS + expression, returnByValue=True, awaitPromise=await_promise)
        require("exceptionDetails" not in result,
               f"script error in {expression!r}: {result.get('exceptionDetails', {}).get('exception', {}).get('description')}")
        return result["result"].get("value")

    def wait(self, expression, what, timeout=10):
        return wait_until(lambda: self.js(expression), f"{what} ({expression})", timeout)

    def text(self, element_id):
        """The text of the element with this id, or else this data-testid."""
        return self.js(f"(__id('{element_id}') || __tid('{element_id}') || {{}}).textContent")

    def shown(self, element_id):
        return self.js(f"__shown('{element_id}')")

    def click(self, element_id):
        ok = self.js(f"(() => {{ const b = __id('{element_id}'); if (!b || b.disabled) return false; b.click(); return true; }})()")
        require(ok, f"cannot click #{element_id}: missing or disabled")

    def choose(self, select_id, value):
        """Sets a select (or input) and fires its change event, as a user would."""
        self.js(f"(() => {{ const f = __id('{select_id}'); f.value = {json.dumps(value)}; f.dispatchEvent(new Event('change')); }})()")

    def go(self, hash_, ready, what=None):
        """Sets location.hash and waits for `ready`; its value."""
        self.js(f"location.hash = {json.dumps(hash_)}")
        return self.wait(ready, what or f"{hash_}: {ready}")

    def navigate(self, url, ready="document.readyState === 'complete'"):
        self.call("Page.navigate", url=url)
        self.wait(ready, f"{url} to load")

    def widths(self, sizes):
        """Sets each (width, height) in turn, yielding the width; then 1280x900 again."""
        for width, height in sizes:
            self.size(width, height)
            yield width
        self.size(1280, 900)

    def size(self, width, height):
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=width < 600)

    def screenshot(self, name):
        """shots/NAME.png, the whole page up to 4,000 px: its width, height and how many distinct rows of pixels it has."""
        metrics = self.call("Page.getLayoutMetrics")  # in CSS pixels
        height = min(metrics["cssContentSize"]["height"], 4000)
        clip = {"x": 0, "y": 0, "width": metrics["cssLayoutViewport"]["clientWidth"], "height": height, "scale": 1}
        data = self.call("Page.captureScreenshot", format="png", clip=clip, captureBeyondViewport=True)["data"]
        path = os.path.join(self.shots, name + ".png")
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))
        width, height, rows = png_rows(path)
        print(f"  screenshot {os.path.relpath(path, ROOT)}: {width}x{height}, {rows} distinct rows")
        return width, height, rows


def png_rows(path):
    """A PNG's width, height and how many distinct rows of pixels it has (zlib only: filtered scanlines)."""
    data = open(path, "rb").read()
    width, height = struct.unpack(">II", data[16:24])
    chunks, at = b"", 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            chunks += data[at + 8:at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(chunks)
    stride = len(raw) // height
    return width, height, len({raw[row * stride + 1:(row + 1) * stride] for row in range(height)})
