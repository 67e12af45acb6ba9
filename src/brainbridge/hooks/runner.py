"""Running one hook: try the running server, else open the brain here. Always exit 0."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from brainbridge.hooks.payload import context_output, read_payload, transcript_exchanges

log = logging.getLogger(__name__)

SERVER_FILE = "server.json"
FAST_TIMEOUT = {"prompt": 3.0, "session-start": 3.0, "stop": 30.0}
EVENTS = {"prompt": "UserPromptSubmit", "session-start": "SessionStart", "stop": "Stop"}


def _brain_home() -> Path:
    return Path(os.environ.get("BRAIN_HOME") or Path.home() / ".brain").expanduser()


def _server(home: Path) -> dict[str, Any] | None:
    try:
        info = json.loads((home / SERVER_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return info if isinstance(info, dict) and info.get("url") else None


def _via_server(info: dict[str, Any], kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    req = urllib.request.Request(
        f"{info['url'].rstrip('/')}/hooks/{kind}",
        data=json.dumps(payload).encode(),
        headers={
            "Content-Type": "application/json",
            "Authorization": f"Bearer {info.get('token', '')}",
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=FAST_TIMEOUT[kind]) as resp:
            return json.loads(resp.read().decode())
    except (urllib.error.URLError, OSError, ValueError) as exc:
        log.info("brain server unreachable (%s); handling the hook locally", exc)
        return None


def last_exchange(payload: dict[str, Any]) -> tuple[str, str]:
    """The prompt and reply to observe: hook fields first, the transcript as fallback."""
    prompt = str(payload.get("prompt") or "")
    reply = str(payload.get("last_assistant_message") or "")
    if not prompt or not reply:
        pairs = transcript_exchanges(payload.get("transcript_path") or "")
        if pairs:
            prompt = prompt or pairs[-1][0]
            reply = reply or pairs[-1][1]
    return prompt, reply


async def handle_locally(kind: str, payload: dict[str, Any], home: Path) -> dict[str, Any]:
    """Do the hook's work in this process: {"context": str | None}."""
    from brainbridge.brain import Brain
    from brainbridge.hooks.work import run_hook

    # No embedding model on this cold path: BM25 and the graph answer in milliseconds.
    brain = await Brain.open(home, embedder=None, background_indexing=False)
    try:
        return await run_hook(brain, kind, payload)
    finally:
        await brain.close()


def main(kind: str) -> int:
    """Entry point of `brain hook KIND`: reads stdin, prints hook JSON or nothing, exits 0."""
    try:
        payload = read_payload()
        if kind == "stop" and payload.get("stop_hook_active"):
            return 0
        home = _brain_home()
        info = _server(home)
        result = _via_server(info, kind, payload) if info else None
        if result is None:
            result = asyncio.run(handle_locally(kind, payload, home))
        context = result.get("context")
        if context and kind in ("prompt", "session-start"):
            sys.stdout.write(context_output(EVENTS[kind], context) + "\n")
    except Exception:
        # Fail open: a broken brain must never block or alter the conversation.
        log.exception("brain hook %s failed", kind)
        _log_failure(kind)
    return 0


def _log_failure(kind: str) -> None:
    import traceback

    try:
        path = _brain_home() / "hooks.log"
        with path.open("a", encoding="utf-8") as fh:
            fh.write(f"--- hook {kind} failed\n{traceback.format_exc()}\n")
    except OSError:
        pass
