"""Helpers for the front-end service tests: a ``dustup engine`` subprocess and a ``dustup serve`` subprocess."""
from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def env() -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    e.setdefault("OMP_NUM_THREADS", "1")
    return e


class EngineProcess:
    """``dustup engine`` in a real subprocess; :meth:`ask` sends one request line and reads one response line."""

    def __init__(self, timeout: float = 60.0):
        self.err = tempfile.TemporaryFile()
        self.p = subprocess.Popen([sys.executable, "-m", "dustup_cli", "engine"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.err, env=env(), cwd=ROOT)
        self.timeout = timeout
        self.buf = b""
        self.requests = 0

    def send_raw(self, data: bytes) -> None:
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def read_line(self, timeout: float | None = None) -> bytes:
        deadline = time.monotonic() + (timeout or self.timeout)
        fd = self.p.stdout.fileno()
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no response within {timeout or self.timeout}s; stderr: {self.stderr()[-2000:]}")
            r, _, _ = select.select([fd], [], [], left)
            if r:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    raise EOFError(f"engine closed stdout; stderr: {self.stderr()[-2000:]}")
                self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line

    def ask_raw(self, line: bytes | str) -> dict:
        if isinstance(line, str):
            line = line.encode()
        self.send_raw(line + b"\n")
        self.requests += 1
        return json.loads(self.read_line())

    def ask(self, **req) -> dict:
        return self.ask_raw(json.dumps(req))

    def stderr(self) -> str:
        self.err.seek(0)
        return self.err.read().decode(errors="replace")

    def close(self, quit_: bool = True) -> int:
        if self.p.poll() is None:
            try:
                if quit_:
                    self.ask(cmd="quit")
                self.p.stdin.close()
            except (BrokenPipeError, OSError):
                pass
            try:
                return self.p.wait(20)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
                raise
        return self.p.returncode


class ServerProcess:
    """``dustup serve --port 0 --db DB`` in a real subprocess; ``url`` once it listens."""

    def __init__(self, db: str, extra=(), timeout: float = 60.0):
        self.err_path = tempfile.NamedTemporaryFile(prefix="dustup-serve-", suffix=".log", delete=False).name
        self.err = open(self.err_path, "wb")
        self.p = subprocess.Popen([sys.executable, "-m", "dustup_cli", "serve", "--port", "0", "--db", db, *extra],
                                  stdout=subprocess.DEVNULL, stderr=self.err, env=env(), cwd=ROOT,
                                  start_new_session=True)
        deadline = time.monotonic() + timeout
        self.url = None
        while time.monotonic() < deadline:
            text = self.stderr()
            for line in text.splitlines():
                if line.startswith("dustup serve: http://"):
                    self.url = line.split()[2].rstrip("/")
            if self.url:
                break
            if self.p.poll() is not None:
                raise RuntimeError(f"dustup serve exited {self.p.returncode}: {text}")
            time.sleep(0.05)
        if not self.url:
            self.kill()
            raise RuntimeError("dustup serve did not start: " + self.stderr())
        # wait until it answers
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/info", timeout=5).read()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("dustup serve does not answer: " + self.stderr())

    def stderr(self) -> str:
        if getattr(self, "_log", None) is not None:
            return self._log
        with open(self.err_path, "rb") as fh:
            return fh.read().decode(errors="replace")

    def kill(self) -> None:
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()
        self._cleanup()

    def stop(self, sig) -> int:
        self.p.send_signal(sig)
        rc = self.p.wait(30)
        self._cleanup()
        return rc

    def _cleanup(self) -> None:
        self.err.close()
        self._log = self.stderr()
        os.unlink(self.err_path)
