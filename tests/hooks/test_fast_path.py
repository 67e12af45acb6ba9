"""With `brain serve` running, hooks go through it; a dead server means the local path."""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.seed import seed_folder
from api.served import Served, free_port, serve_brain
from brainbridge.hooks.runner import via_server
from hooks.conftest import fresh_session, prompt_payload, run_hook, stop_payload
from hooks.transcript import realistic_transcript


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    home = seed_folder(tmp_path_factory.mktemp("fast") / "brain", with_session=False)
    with serve_brain(home) as served:
        yield served


def pointer_home(served: Served, tmp_path: Path) -> Path:
    """A brain folder holding nothing but the server's server.json.

    A hook that opened a brain here would create brain.db; one that used the server
    leaves the folder as it was.
    """
    home = tmp_path / "pointer"
    home.mkdir()
    shutil.copy(served.home / "server.json", home / "server.json")
    return home


def test_prompt_goes_through_the_server(server: Served, tmp_path: Path) -> None:
    home = pointer_home(server, tmp_path)
    run = run_hook(
        "prompt",
        prompt_payload("How is Kevin Ortiz getting on with the spring cohort?", fresh_session()),
        home,
        verbose=True,
    )
    context = run.context("UserPromptSubmit")
    assert context is not None and "Kevin Ortiz" in context
    assert "answered by the brain server" in run.err
    assert sorted(p.name for p in home.iterdir()) == ["server.json"]


def test_stop_goes_through_the_server(server: Served, tmp_path: Path) -> None:
    home = pointer_home(server, tmp_path)
    sid = fresh_session()
    transcript = realistic_transcript(
        tmp_path / "t.jsonl", sid, "Who will review the Quasar budget?", "x"
    )
    run = run_hook(
        "stop",
        stop_payload("Lena Park reviews the Quasar budget on Monday.", transcript, sid),
        home,
        verbose=True,
    )
    assert run.out == b""
    assert "answered by the brain server" in run.err
    assert sorted(p.name for p in home.iterdir()) == ["server.json"]
    with server.client() as http:  # the server's database got the exchange
        for _ in range(300):
            session = http.get(f"/sessions/{sid}")
            if session.status_code == 200 and session.json()["message_count"] == 1:
                break
            time.sleep(0.1)
        hits = http.get(
            "/search", params={"q": "Lena Park Quasar budget", "type": "Chat_Exchange"}
        ).json()
    assert any(h["attributes"]["session_id"] == sid for h in hits["results"]), hits


def test_dead_server_falls_back_to_the_local_brain(tmp_path: Path) -> None:
    home = seed_folder(tmp_path / "brain", with_session=False)
    port = free_port()  # nobody listens here
    (home / "server.json").write_text(
        json.dumps({"url": f"http://127.0.0.1:{port}", "token": "stale", "pid": 999_999_999})
    )
    run = run_hook(
        "prompt",
        prompt_payload("What did Acme Robotics agree to sponsor this spring?", fresh_session()),
        home,
        verbose=True,
    )
    context = run.context("UserPromptSubmit")
    assert context is not None and "Acme Robotics" in context
    assert "unreachable" in run.err and "handled here" in run.err


def test_wrong_token_falls_back_too(server: Served, tmp_path: Path) -> None:
    home = seed_folder(tmp_path / "brain", with_session=False)
    info = json.loads((server.home / "server.json").read_text())
    (home / "server.json").write_text(json.dumps({**info, "token": "not-the-token"}))
    run = run_hook(
        "prompt",
        prompt_payload("What did Acme Robotics agree to sponsor this spring?", fresh_session()),
        home,
        verbose=True,
    )
    context = run.context("UserPromptSubmit")
    assert context is not None and "Acme Robotics" in context
    assert "answered 401" in run.err


@pytest.mark.parametrize("content", ["", "{broken", "[]", '{"url": 5}'])
def test_unreadable_server_file_means_local(content: str, tmp_path: Path) -> None:
    home = seed_folder(tmp_path / "brain", with_session=False)
    (home / "server.json").write_text(content)
    run = run_hook(
        "prompt",
        prompt_payload("What did Acme Robotics agree to sponsor this spring?", fresh_session()),
        home,
    )
    assert "Acme Robotics" in (run.context("UserPromptSubmit") or "")


def test_fast_path_reads_chunked_replies_and_ignores_other_services() -> None:
    """A port reused by some other program must not break the hook."""
    parts = [b'{"context', b'": "from chunks"}']
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"
    replies = [
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked,
        b"SSH-2.0-OpenSSH_9.2\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]",
    ]
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def answer() -> None:
        for reply in replies:
            conn, _ = listener.accept()
            with conn:
                conn.recv(65536)
                conn.sendall(reply)

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    info = {"url": f"http://127.0.0.1:{port}", "token": "t"}
    assert via_server(info, "prompt", {"prompt": "hi"}) == {"context": "from chunks"}
    assert via_server(info, "prompt", {"prompt": "hi"}) is None
    assert via_server(info, "prompt", {"prompt": "hi"}) is None
    thread.join(timeout=30)
    listener.close()
