"""Running one hook: try the running server, else open the brain here. Always exit 0.

Claude Code waits for this process before every prompt, so the module imports only
light standard-library modules; the brain, asyncio and NumPy load on the local path.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from brainbridge.acting import acting
from brainbridge.hooks.payload import context_output, read_payload

if TYPE_CHECKING:
    from brainbridge.ports import LLM
    from brainbridge.settings import Settings

log = logging.getLogger(__name__)

SERVER_FILE = "server.json"
FAILURE_LOG = "hooks.log"
# A server that does not answer in time is skipped: Stop then spools the turn instead.
FAST_TIMEOUT = {"prompt": 3.0, "session-start": 3.0, "stop": 3.0, "tool": 1.0, "pre-compact": 3.0}
# Claude Code kills a hook at its `timeout` (10 s for ours); a hook stuck on a locked
# database gives up first, leaving the conversation untouched.
DEADLINE = {"prompt": 7.0, "session-start": 7.0, "stop": 8.0, "tool": 8.0, "pre-compact": 8.0}
# Once the output is written, what is left (logging the turn) may hold the process this long.
AFTER_OUTPUT = 1.0
_HOME: dict[str, Path] = {}  # the brain folder of this process's hook, for `_leave_after`
EVENTS = {
    "prompt": "UserPromptSubmit",
    "session-start": "SessionStart",
    "stop": "Stop",
    "tool": "PostToolUse",  # and PostToolUseFailure
    "pre-compact": "PreCompact",
}


def brain_home() -> Path:
    """`$BRAIN_HOME`, else `~/.brain` (read here so the hook need not import settings)."""
    return Path(os.environ.get("BRAIN_HOME") or Path.home() / ".brain").expanduser()


def read_server_file(home: Path) -> dict[str, Any] | None:
    """The running server's {url, token, pid} from `<home>/server.json`, or None."""
    try:
        info = json.loads((home / SERVER_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return info if isinstance(info, dict) and isinstance(info.get("url"), str) else None


def as_caller(info: dict[str, Any] | None) -> dict[str, Any] | None:
    """The server to hand hooks to, with the token to send. The server file holds the
    owner's token; a person of a team brain (BRAIN_USER) sends their own (BRAIN_TOKEN) or,
    without one, handles hooks here as themselves, so their turns never land in the
    owner's workspace."""
    if info is None or not acting()[0]:
        return info
    token = os.environ.get("BRAIN_TOKEN", "").strip()
    return {**info, "token": token} if token else None


def via_server(info: dict[str, Any], kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    """POST the payload to the server's /hooks/KIND; None when it cannot answer."""
    url = urlsplit(info["url"])
    body = json.dumps(payload).encode("utf-8")
    try:
        status, data = _post(
            url.hostname or "127.0.0.1",
            url.port or 80,
            f"{url.path.rstrip('/')}/hooks/{kind}",
            body,
            str(info.get("token") or ""),
            FAST_TIMEOUT[kind],
        )
        if status != 200:
            log.info("brain server at %s answered %s; handling the hook here", info["url"], status)
            return None
        result = json.loads(data)
    except (OSError, ValueError) as exc:
        log.info("brain server at %s unreachable (%s); handling the hook here", info["url"], exc)
        return None
    if not isinstance(result, dict):
        return None
    log.info("hook %s answered by the brain server at %s", kind, info["url"])
    return result


def _post(
    host: str, port: int, path: str, body: bytes, token: str, timeout: float
) -> tuple[int, bytes]:
    """One HTTP/1.1 POST to our own server over a plain socket.

    http.client would do, but it imports the email package: ~30 ms more on the path
    every prompt waits on. Raises: OSError on connection trouble, ValueError on a reply
    that is not HTTP.
    """
    deadline = time.monotonic() + timeout
    netloc = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {netloc}\r\n"
        f"Content-Type: application/json\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.sendall(head.encode("latin-1") + body)
        chunks = []
        while True:
            sock.settimeout(max(0.001, deadline - time.monotonic()))
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    raw = b"".join(chunks)
    header, sep, data = raw.partition(b"\r\n\r\n")
    status_line = header.split(b"\r\n", 1)[0].split()
    if not sep or len(status_line) < 2 or not status_line[0].startswith(b"HTTP/"):
        raise ValueError("not an HTTP response")
    if b"transfer-encoding: chunked" in header.lower():
        data = _dechunk(data)
    return int(status_line[1]), data


def _dechunk(data: bytes) -> bytes:
    out, rest = [], data
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out.append(rest[:size])
        rest = rest[size + 2 :]
    return b"".join(out)


async def handle_locally(kind: str, payload: dict[str, Any], home: Path) -> dict[str, Any]:
    """Do the hook's work in this process: {"context": str | None}; prints the context first.

    The bridge, its LLM and the curator come from the brain's settings, as for `brain
    serve` and the CLI. The context goes out before background writes (the turn log)
    finish, so a busy database can delay only those, never what Claude Code sees.
    """
    settings = hook_settings(home, kind)
    # SessionStart reads project context only: an LLM SDK would just slow it down.
    llm = None if kind == "session-start" else _make_llm(settings, home, kind)
    try:
        return await _run_here(kind, payload, settings, llm)
    finally:
        if llm is not None:
            await llm.aclose()


async def _run_here(
    kind: str, payload: dict[str, Any], settings: Settings, llm: LLM | None
) -> dict[str, Any]:
    from brainbridge.brain import Brain
    from brainbridge.hooks.work import run_hook

    home = settings.brain_path
    # No embedding model on this cold path: BM25 and the graph answer in milliseconds.
    # These hooks write no entities, so the stored entity types serve (no YAML parse);
    # the drainer, which stores Stop turns, re-reads entity_types.yaml.
    brain = await Brain.open(home, embedder=None, background_indexing=False, sync_types=False)
    try:
        if kind == "session-start":  # project context: no bridge to build
            # It writes nothing: Claude Code waits for this process to exit, and the
            # session's project is recorded by its first tool call or Stop.
            result = await run_hook(brain, kind, payload)
            emit(kind, result)
            return result
        bridge = settings.make_bridge(brain, llm)
        try:
            result = await run_hook(brain, kind, payload, bridge)
            emit(kind, result)
            return result
        finally:
            await bridge.drain()
    finally:
        await brain.close()


def hook_settings(home: Path, kind: str) -> Settings:
    """The brain's settings as the CLI and `brain serve` read them (config.toml, BRAIN_*).

    Settings that cannot be read never stop a hook: it notes why and runs on defaults.
    """
    from brainbridge.settings import Settings, load_settings

    try:
        return load_settings(os.environ, home)
    except Exception as exc:
        _note(home, kind, f"{_problem(exc)}; this hook used the default settings")
        return Settings(brain_path=home)


def _make_llm(settings: Settings, home: Path, kind: str) -> LLM | None:
    try:
        return settings.make_llm()
    except Exception as exc:
        _note(home, kind, f"{_problem(exc)}; this hook ran without an LLM")
        return None


class _OneLine(logging.Formatter):
    """The message without the traceback."""

    def format(self, record: logging.LogRecord) -> str:
        return " ".join(record.getMessage().split())


def run(kind: str, home: Path | None = None, verbose: int = 0) -> int:
    """The one entry of both hook commands (`python -m brainbridge.hooks`, `brain hook`).

    Warnings and failures go to stderr as one line each (with -v, as log records); their
    tracebacks go to hooks.log only, never to the stderr Claude Code shows. Always 0.
    """
    if not verbose:
        handler = logging.StreamHandler(sys.stderr)
        handler.setLevel(logging.WARNING)
        handler.setFormatter(_OneLine())
        root = logging.getLogger("brainbridge")
        root.addHandler(handler)
        root.propagate = False  # nor through a handler someone else configured
    elif not logging.getLogger().handlers:
        logging.basicConfig(
            level=logging.DEBUG if verbose > 1 else logging.INFO,
            format="%(levelname)s %(name)s: %(message)s",
            stream=sys.stderr,
        )
    return main(kind, home)


def main(kind: str, home: Path | None = None) -> int:
    """Handle one hook event: reads stdin, prints hook JSON or nothing, exits 0.

    A brain folder that does not exist is not created: a hook only reads and logs into a
    brain someone made (`brain init`, the server, the CLI).
    """
    home = home or brain_home()
    if not home.is_dir():
        log.warning("brain hook %s: no brain folder at %s; nothing done", kind, home)
        return 0
    _HOME["home"] = home
    watchdog = threading.Timer(DEADLINE[kind], _give_up, (kind, home))
    watchdog.daemon = True
    watchdog.start()
    try:
        payload = read_payload()
        if kind == "stop" and payload.get("stop_hook_active"):
            return 0
        off = _memory_off(payload, home)
        if off:  # opted out here: nothing read, stored, spooled or logged
            log.info("brain hook %s: memory is off here: %s", kind, off)
            return 0
        if kind in ("tool", "pre-compact"):  # spooled like Stop (hooks/observe.py)
            from brainbridge.hooks.observe import hand_over

            hand_over(kind, payload, home, as_caller(read_server_file(home)), via_server)
            return 0
        record = None
        if kind == "stop":
            from brainbridge.hooks.spool import turn_record

            # Read here, where the transcript is this user's: the server reads no path.
            record = turn_record(payload)
            if record is None:
                return 0
            payload = {"turn": record}
        info = as_caller(read_server_file(home))
        result = via_server(info, kind, payload) if info else None
        if result is not None:
            emit(kind, result)
        elif record is not None:
            # No server to hand the turn to: make it durable in milliseconds (the client
            # may end this process any moment) and let a detached drainer store it.
            from brainbridge.hooks.spool import append, start_drainer

            append(home, record)
            start_drainer(home)
        else:
            import asyncio

            started = time.perf_counter()
            asyncio.run(handle_locally(kind, payload, home))
            log.info("hook %s handled here on %s in %.0f ms", kind, home, _ms(started))
    except Exception as exc:
        # Fail open: a broken brain must never block or alter the conversation. The
        # traceback goes to hooks.log; stderr gets one line.
        _log_failure(home, kind, _traceback())
        log.warning(
            "brain hook %s failed: %s (details in %s)", kind, _one_line(exc), home / FAILURE_LOG
        )
    finally:
        watchdog.cancel()
    return 0


def _memory_off(payload: dict[str, Any], home: Path) -> str | None:
    """Why memory is off for this hook (privacy.scope_for), or None."""
    from brainbridge.privacy import memory_off, read_scope_config

    cwd = payload.get("cwd")
    if not isinstance(cwd, str) or not cwd:
        cwd = os.getcwd()
    return memory_off(cwd, payload, os.environ, read_scope_config(home))


def emit(kind: str, result: dict[str, Any]) -> None:
    """Print the hook's context as Claude Code expects it; nothing for Stop or no context.

    Claude Code waits for the process to exit, not for the output: once it is written,
    background writes (the turn log) get `AFTER_OUTPUT` seconds, then the process leaves.
    """
    context = result.get("context")
    if context and kind in ("prompt", "session-start"):
        sys.stdout.write(context_output(EVENTS[kind], str(context)) + "\n")
        sys.stdout.flush()
    if kind in ("prompt", "session-start") and _HOME:  # only inside a hook process (`main`)
        _leave_after(kind, AFTER_OUTPUT)


def _leave_after(kind: str, seconds: float) -> None:
    home = _HOME.get("home")

    def leave() -> None:
        if home is not None:
            _log_failure(
                home,
                kind,
                f"left {seconds:.0f} s after its output; background writes (the"
                " turn log) were skipped (database locked or slow)\n",
            )
        log.warning("brain hook %s: background writes skipped (database busy)", kind)
        sys.stderr.flush()
        os._exit(0)

    timer = threading.Timer(seconds, leave)
    timer.daemon = True
    timer.start()


def _give_up(kind: str, home: Path) -> None:
    """Past the deadline: record why and leave without output (threads may be stuck in SQLite)."""
    _log_failure(home, kind, f"gave up after {DEADLINE[kind]:.0f} s (database locked or slow)\n")
    log.warning("brain hook %s gave up after %.0f s", kind, DEADLINE[kind])
    os._exit(0)


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def _traceback() -> str:
    import traceback

    return traceback.format_exc()


def _one_line(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:300]


def _log_failure(home: Path, kind: str, detail: str) -> None:
    _append_log(home, f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} hook {kind} failed\n{detail}\n")


def _problem(exc: Exception) -> str:
    """One line saying what is wrong with a setting; the unexpected also get a traceback."""
    from brainbridge.errors import BrainError

    if isinstance(exc, BrainError):
        return " ".join(str(exc).split())
    log.warning("unexpected error while reading the brain's settings", exc_info=exc)
    return " ".join(f"{type(exc).__name__}: {exc}".split())


def _note(home: Path, kind: str, problem: str) -> None:
    """A setting the hook could not use: a warning on stderr and a line in hooks.log.

    A problem that is already the log's last entry is not written again, so a broken
    config.toml adds one line, not one per prompt.
    """
    log.warning("brain hook %s: %s", kind, problem)
    if _last_log_line(home).endswith(f": {problem}"):
        return
    _append_log(home, f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} hook {kind}: {problem}\n")


def _last_log_line(home: Path) -> str:
    try:
        with (home / FAILURE_LOG).open("rb") as fh:
            fh.seek(max(0, fh.seek(0, os.SEEK_END) - 4096))
            tail = fh.read().decode("utf-8", "replace")
    except OSError:
        return ""
    lines = tail.rstrip("\n").rsplit("\n", 1)
    return lines[-1]


def _append_log(home: Path, text: str) -> None:
    try:
        with (home / FAILURE_LOG).open("a", encoding="utf-8") as fh:
            fh.write(text)
    except OSError:
        pass
