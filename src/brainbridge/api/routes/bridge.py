"""The bridge over HTTP: context before a message, storing a turn after it, and the
Claude Code hooks' fast path."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from brainbridge.api.deps import brain, bridge, next_exchange
from brainbridge.api.models import EnrichIn, ObserveIn
from brainbridge.bounds import TooDeep, load_json
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.errors import InvalidInput, NotFound
from brainbridge.hooks.payload import field as payload_field
from brainbridge.hooks.spool import received_turn
from brainbridge.hooks.work import note_project, run_hook, store_turn

router = APIRouter()


@router.post("/enrich")
async def enrich(body: EnrichIn, br: Bridge = Depends(bridge)) -> dict[str, Any]:
    return (await br.enrich(body.message, body.session_id)).to_dict()


@router.post("/observe", status_code=202)
async def observe(
    body: ObserveIn, b: Brain = Depends(brain), br: Bridge = Depends(bridge)
) -> dict[str, Any]:
    n = await next_exchange(b, body.session_id, body.exchange_number)
    if body.wait:
        obs = await br.observe_now(body.session_id, n, body.message, body.response)
        return {
            "exchange_number": n,
            "exchange": obs.exchange,
            "stored": list(obs.stored),
            "skipped": obs.skipped,
            "error": obs.error,
        }
    br.observe(body.session_id, n, body.message, body.response)
    return {"exchange_number": n, "accepted": True}


@router.post("/hooks/{kind}")
async def hook(
    kind: str, request: Request, b: Brain = Depends(brain), br: Bridge = Depends(bridge)
) -> dict[str, Any]:
    if kind not in ("prompt", "stop", "session-start"):
        raise NotFound(f"no hook {kind!r}")
    # Parsed here, bounded: a payload nested thousands deep is refused (TooDeep, a
    # 400), not a 500; one that is not JSON reads as empty, as in the hook process.
    try:
        payload = load_json(await request.body(), "the hook payload")
    except TooDeep:
        raise
    except InvalidInput:
        payload = {}
    if not isinstance(payload, dict):
        payload = {}
    if kind == "stop":
        # The hook process must not wait for extraction: answer now, observe after.
        record = received_turn(payload)
        if record is None or await b._run(b.store.has_turn_key, record["key"]):
            return {"context": None, "accepted": False}
        n = await next_exchange(b, record["session_id"])
        br._background(store_turn(b, br, record, n))
        return {"context": None, "accepted": True, "exchange_number": n}
    result = await run_hook(b, kind, payload, br)
    if kind == "session-start":  # after the answer: which project this session is in
        br._background(
            note_project(b, payload_field(payload, "session_id"), payload_field(payload, "cwd"))
        )
    return result
