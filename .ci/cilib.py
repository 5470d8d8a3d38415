"""Shared plumbing of the CI checks (python3 stdlib only). A `cashout-sandbox serve` child process:

    from cilib import SandboxProcess, SandboxError

    with SandboxProcess(binary, ["--host", "127.0.0.1", "--port", "0", "--clock", "manual"]) as server:
        ...  # server.url ("http://127.0.0.1:PORT"), server.port, server.pid
        server.stop()  # SIGTERM; raises SandboxError unless it exits 0 within 10 s

The arguments after `serve` are the caller's. Starting waits for the `listening on http://HOST:PORT`
line (within `timeout` seconds, else SandboxError with the exit status and the output so far). A
daemon thread reads the combined stdout and stderr from the first byte to the end, so the server
never blocks on a full pipe: `startup` holds every line before the `listening on` line, and
`tail(n)` the last lines (up to `keep`) for error messages. `stop()` is the checked stop;
`close()`, also run on leaving a `with` block, the clean-up that never raises (SIGTERM, then
SIGKILL after 10 s). Extra keyword arguments go to subprocess.Popen (preexec_fn, env, cwd...).
"""

import collections
import os
import re
import signal as signals
import subprocess
import threading
import time

LISTENING = re.compile(r"listening on (http://(\[[^\]]*\]|[^\s:/]+):(\d+))")


class SandboxError(RuntimeError):
    """The server did not start, or did not stop as expected."""


class SandboxProcess:
    def __init__(self, binary, args=(), timeout=30.0, keep=200, **popen):
        self.command = [binary, "serve", *args]
        self.timeout, self.popen = timeout, popen
        self.process = self.url = self.host = self.port = None
        self.startup = []
        self.lines = collections.deque(maxlen=keep)
        self._listening = threading.Event()
        self.start()

    def start(self):
        """Starts the server (again, after it stopped) and waits for its `listening on` line; returns self."""
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, text=True, errors="replace", **self.popen)
        self.startup, self.url, self.port = [], None, None
        self._listening.clear()
        threading.Thread(target=self._drain, args=(self.process,), daemon=True).start()
        deadline = time.monotonic() + self.timeout
        while not self._listening.wait(0.05):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self._listening.wait(0.2)  # the reader may still be on the last lines
                if self._listening.is_set():
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

    @property
    def pid(self):
        return self.process.pid

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def tail(self, count=20):
        """The last `count` lines the server printed (at most `keep`)."""
        return list(self.lines)[-count:]

    def send_signal(self, signal):
        if self.alive():
            self.process.send_signal(signal)

    def stop(self, signal=signals.SIGTERM, expect_exit=0, timeout=10.0):
        """Sends `signal` and waits up to `timeout` s; returns the exit status. SandboxError, with the
        last output lines, when it does not exit in time (it is killed first) or exits otherwise
        than `expect_exit` (None: any status)."""
        self.send_signal(signal)
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise SandboxError(f"the server did not exit within {timeout:g}s of {signals.Signals(signal).name}; "
                               f"last output:\n" + "\n".join(self.tail()))
        if expect_exit is not None and status != expect_exit:
            raise SandboxError(f"the server exited {status} on {signals.Signals(signal).name}, expected {expect_exit}; "
                               f"last output:\n" + "\n".join(self.tail()))
        return status

    def close(self, timeout=10.0):
        """Clean-up that never raises: SIGTERM if it still runs, SIGKILL after `timeout` s; the exit status."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
        return self.kill()

    def kill(self):
        """SIGKILL unless it has exited, and waits for it; returns the exit status."""
        if self.process.poll() is None:
            self.process.kill()
        return self.process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()


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
