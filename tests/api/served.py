"""`brain serve` as a real subprocess on a free loopback port, for tests over a socket."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from cli.runner import COMMAND, clean_env

START_TIMEOUT = 90.0  # generous: CI machines are slow and share their two cores


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Served:
    """A running `brain serve`: where it listens, its token and its brain folder."""

    url: str
    token: str
    home: Path
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def client(self, **kwargs: Any) -> httpx.Client:
        """An HTTP client for the server, sending the token."""
        return httpx.Client(base_url=self.url, headers=self.auth, timeout=60, **kwargs)

    def stop(self) -> int:
        """Terminate like a service manager would (SIGTERM) and wait; return the exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def serve_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment for `brain serve` and hooks: a private brain, model-free vectors."""
    return clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing", **extra)


@contextmanager
def serve_brain(home: Path, *args: str, token: str | None = None) -> Iterator[Served]:
    """Start `brain serve` on `home`, wait until /health answers, stop it afterwards."""
    port = free_port()
    log = home.parent / f"serve-{port}.log"
    command = [*COMMAND, "serve", "--port", str(port), *args]
    if token:
        command += ["--token", token]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=serve_env(home), cwd=home.parent
        )
    url = f"http://127.0.0.1:{port}"
    served = Served(url, "", home, proc, log)
    try:
        served.token = _wait_until_up(served)
        yield served
    finally:
        served.stop()


def _wait_until_up(served: Served) -> str:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if served.proc.poll() is not None:
            raise AssertionError(
                f"brain serve exited {served.proc.returncode}: {served.log.read_text()}"
            )
        info = read_server_file(served.home)
        if info and info.get("pid") == served.proc.pid:
            try:
                if httpx.get(f"{served.url}/health", timeout=5).json().get("ok"):
                    return str(info["token"])
            except httpx.HTTPError:
                pass
        time.sleep(0.1)
    raise AssertionError(f"brain serve did not come up: {served.log.read_text()}")


def read_server_file(home: Path) -> dict[str, Any] | None:
    try:
        return json.loads((home / "server.json").read_text())
    except (OSError, ValueError):
        return None


def server_file_mode(home: Path) -> int:
    return os.stat(home / "server.json").st_mode & 0o777
