"""A team at once: people writing turns and enriching concurrently through `brain serve`.

One PostgreSQL database (the embedded server, Unix socket) holds a team brain seeded with
a synthetic brain of knowledge and past chat (`bench_bridge.Synth`, through
`upsert_many` as its owner). `brain serve` runs as a subprocess on a loopback port; each
person is a client with their own token, acting through their own database role and
views (`api/people.py`). Every person runs the turn a chat client runs: POST /enrich with
the message, then POST /observe with the message and a reply, waiting until the turn is
stored. All people start together; one person alone runs first, same turns, as the
baseline.

Reported: enrich and observe p50 / p95 as the clients see them, turns stored per second
(all turns over wall time), errors (non-2xx or a failed request), turns missing from the
database afterwards, and how often a write waited on the brain's write lock (a sampler
reads `pg_stat_activity` every 20 ms: the share of samples with a backend waiting on an
advisory lock, and the mean number waiting).

Run: python -m benchmarks --only team [--quick]
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg

from benchmarks.bench_bridge import Synth
from benchmarks.timing import p50_p95, percentile
from brainbridge.brain import Brain
from brainbridge.store.postgres import people
from brainbridge.store.postgres.embedded import EmbeddedServer

FULL = {"people": 20, "turns": 25, "entities": 20_000, "exchanges": 40_000}
QUICK = {"people": 4, "turns": 5, "entities": 1_000, "exchanges": 2_000}
# One person's enrich target on a 300k brain (docs/DESIGN.md); no team target is set, so a
# team's is shown beside it and beside one person alone on the same server.
ENRICH_P95_MS = 30.0
START_TIMEOUT = 120.0


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LockSampler:
    """Samples `pg_stat_activity` for backends waiting on an advisory lock."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.samples: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> LockSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            while not self._stop.is_set():
                row = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND wait_event_type = 'Lock' AND wait_event = 'advisory'"
                ).fetchone()
                self.samples.append(int(row[0]) if row else 0)
                time.sleep(0.02)

    def summary(self) -> dict[str, float]:
        n = max(len(self.samples), 1)
        return {
            "waiting_share": sum(1 for s in self.samples if s) / n,
            "mean_waiting": sum(self.samples) / n,
        }


async def _person(
    url: str, token: str, name: str, messages: list[str], out: dict[str, list[Any]]
) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    session = f"team-{name}"
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=120) as http:
        for i, message in enumerate(messages):
            for kind, path, body in (
                ("enrich", "/enrich", {"message": message, "session_id": session}),
                (
                    "observe",
                    "/observe",
                    {
                        "session_id": session,
                        "message": message,
                        "response": f"Noted, {name}: {message[:80]} (turn {i})",
                        "wait": True,
                    },
                ),
            ):
                started = time.perf_counter()
                try:
                    r = await http.post(path, json=body)
                    ok = r.status_code < 300
                    if not ok:
                        out["errors"].append(f"{kind} {r.status_code}: {r.text[:200]}")
                except httpx.HTTPError as exc:
                    out["errors"].append(f"{kind}: {exc!r}")
                    ok = False
                if ok:
                    out[kind].append((time.perf_counter() - started) * 1000)


async def _round(
    url: str, tokens: dict[str, str], messages: dict[str, list[str]], db: str
) -> dict[str, Any]:
    out: dict[str, list[Any]] = {"enrich": [], "observe": [], "errors": []}
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:  # seat everyone first
        for n in tokens:
            await http.get("/stats", headers={"Authorization": f"Bearer {tokens[n]}"})
    with LockSampler(db) as sampler:
        started = time.perf_counter()
        await asyncio.gather(*(_person(url, tokens[n], n, messages[n], out) for n in tokens))
        seconds = time.perf_counter() - started
    turns = sum(len(messages[n]) for n in tokens)
    with psycopg.connect(db) as conn:
        stored = conn.execute(
            "SELECT count(*) FROM entities WHERE type = 'Chat_Exchange'"
            " AND attributes->>'session_id' = ANY(%s)",
            ([f"team-{n}" for n in tokens],),
        ).fetchone()[0]
    return {
        **out,
        "seconds": seconds,
        "turns": turns,
        "stored": int(stored),
        "turns_per_s": turns / seconds,
        **sampler.summary(),
    }


def _serve(home: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "BRAIN_HOME": str(home), "BRAIN_EMBEDDER": "none"}
    cmd = [sys.executable, "-m", "brainbridge.cli", "serve", "--port", str(port)]
    with log.open("wb") as fh:
        proc = subprocess.Popen(cmd, env=env, stdout=fh, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"brain serve exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"brain serve did not start: {log.read_text()[-2000:]}")


async def _seed(home: Path, url: str, cfg: dict[str, int]) -> tuple[dict[str, str], Synth]:
    """The owner's brain with knowledge and past chat, and the people's tokens."""
    synth = Synth()
    owner = await Brain.open(home, embedder=None, background_indexing=False, database_url=url)
    try:
        for rows in (synth.entities(cfg["entities"]), synth.exchanges(cfg["exchanges"])):
            for k in range(0, len(rows), 5000):
                await owner.upsert_many(rows[k : k + 5000])
        tokens = {}
        for i in range(cfg["people"] + 1):
            name = f"p{i:02d}"
            tokens[name] = await owner._run(people.add, owner.store.conn, name)  # type: ignore[attr-defined]
        await owner._run(owner.store.conn.execute, "ANALYZE")  # type: ignore[attr-defined]
    finally:
        await owner.close()
    return tokens, synth


def _init(home: Path, url: str) -> None:
    env = {**os.environ, "BRAIN_HOME": str(home), "BRAIN_EMBEDDER": "none"}
    subprocess.run(
        [sys.executable, "-m", "brainbridge.cli", "init", "--database-url", url],
        env=env,
        check=True,
        capture_output=True,
    )


async def _run(quick: bool) -> str:
    cfg = QUICK if quick else FULL
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-team-") as tmp:
        root = Path(tmp)
        server = EmbeddedServer.start(root / "pg")
        try:
            with server.fresh_database("team") as db:
                home = root / "brain"
                _init(home, db)
                tokens, synth = await _seed(home, db, cfg)
                names = sorted(tokens)
                alone, team = names[:1], names[1:]
                texts = synth.messages(cfg["turns"] * len(names))
                messages = {
                    n: texts[i * cfg["turns"] : (i + 1) * cfg["turns"]] for i, n in enumerate(names)
                }
                port = _free_port()
                proc = _serve(home, port, root / "serve.log")
                try:
                    url = f"http://127.0.0.1:{port}"
                    one = await _round(url, {n: tokens[n] for n in alone}, messages, db)
                    many = await _round(url, {n: tokens[n] for n in team}, messages, db)
                finally:
                    proc.terminate()
                    proc.wait(timeout=60)
        finally:
            server.stop()
    return report(cfg, one, many, time.perf_counter() - started)


def report(cfg: dict[str, int], one: dict[str, Any], many: dict[str, Any], seconds: float) -> str:
    def lost(r: dict[str, Any]) -> str:
        missing = r["turns"] - r["stored"]
        return f"{r['stored']:,} of {r['turns']:,}" + (f" ({missing} MISSING)" if missing else "")

    n = cfg["people"]
    rows = [
        (
            "enrich p50 / p95 ms",
            p50_p95(one["enrich"]),
            p50_p95(many["enrich"]),
            f"p95 ≤ {ENRICH_P95_MS:.0f} (one person, 300k brain)",
        ),
        (
            "observe (stored, waited for) p50 / p95 ms",
            p50_p95(one["observe"]),
            p50_p95(many["observe"]),
            "—",
        ),
        (
            "turns stored per second",
            f"{one['turns_per_s']:.1f}",
            f"{many['turns_per_s']:.1f}",
            "≥ one person's (writes not serialised behind each other)",
        ),
        ("turns in the database", lost(one), lost(many), "all"),
        ("errors", str(len(one["errors"])), str(len(many["errors"])), "0"),
        (
            "samples with a write waiting on the write lock",
            f"{one['waiting_share']:.0%}",
            f"{many['waiting_share']:.0%} (mean {many['mean_waiting']:.2f} waiting)",
            "—",
        ),
    ]
    lines = [
        f"{n} people of one team brain on PostgreSQL 18.6 (embedded, Unix socket), each"
        f" running {cfg['turns']} turns (POST /enrich, then POST /observe waiting until"
        " stored) at once through one `brain serve` (HTTP over a loopback socket, each with"
        f" their own token and database role); the brain holds {cfg['entities']:,} knowledge"
        f" entities + {cfg['exchanges']:,} chat exchanges; no embedder. One person alone"
        " runs first on the same server as the baseline.",
        "",
        f"| | one person | {n} people at once | target |",
        "|---|---|---|---|",
        *(f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows),
        "",
    ]
    if many["errors"] or one["errors"]:
        lines += [
            "First errors:",
            "",
            *(f"- `{e}`" for e in (one["errors"] + many["errors"])[:5]),
            "",
        ]
    p95 = percentile(many["enrich"], 0.95) if many["enrich"] else float("nan")
    lines += [
        f"Team enrich p95 {p95:.0f} ms against {ENRICH_P95_MS:.0f}. Suite time {seconds:.0f} s."
    ]
    return "\n".join(lines) + "\n"


def run(quick: bool = False) -> str:
    return asyncio.run(_run(quick))
