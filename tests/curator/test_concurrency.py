"""Runs for one session never overlap, in one process or several; triggers are coalesced."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from brainbridge.curator import Curator, CuratorConfig
from brainbridge.curator.files import day_record_file, read_day
from brainbridge.curator.local import Exchange, session_summary
from fakes.llm_server import FakeLLMServer, reply_tool_calls

from .conftest import MIGRATION_CHAT, GatedLLM, fixed_now, seed


def assert_serial(runs: list[dict]) -> None:
    """No run started before the previous one finished."""
    ordered = sorted(runs, key=lambda r: r["started_at"])
    for earlier, later in zip(ordered, ordered[1:], strict=False):
        assert earlier["finished_at"] is not None
        assert later["started_at"] >= earlier["finished_at"], (earlier, later)


async def test_ten_triggers_at_once_run_once_plus_one_follow_up(brain) -> None:
    await seed(brain, "s-1", MIGRATION_CHAT)
    curator = Curator(brain, now=fixed_now)

    results = await asyncio.gather(*(curator.run("s-1", f"exchange {n}") for n in range(1, 11)))

    ran = [r for r in results if r is not None]
    assert len(ran) == 1  # the rest were handed to the run in progress
    runs = await curator.history("s-1")
    assert [r["trigger"] for r in reversed(runs)] == ["exchange 1", "coalesced"]
    assert_serial(runs)
    session = await brain._run(brain.sessions.get, "s-1")
    chat = [Exchange(n, u, a) for n, (u, a) in enumerate(MIGRATION_CHAT, start=1)]
    assert session.summary == session_summary(chat, 600)


async def test_triggers_during_a_run_are_never_lost(brain) -> None:
    curator = Curator(brain, now=fixed_now)
    for n, turn in enumerate(MIGRATION_CHAT, start=1):
        await seed(brain, "s-1", [turn], start=n)
        curator.schedule("s-1", f"exchange {n}")  # never awaited: they pile onto each other
    await curator.drain()

    runs = await curator.history("s-1")
    assert_serial(runs)
    assert len(runs) < len(MIGRATION_CHAT)
    # The last run saw the last exchange, so the summary is the one of the whole session.
    last = read_day(day_record_file(brain.path, fixed_now().date()))[-1]
    assert last["through"] == len(MIGRATION_CHAT)
    chat = [Exchange(n, u, a) for n, (u, a) in enumerate(MIGRATION_CHAT, start=1)]
    session = await brain._run(brain.sessions.get, "s-1")
    assert session.summary == session_summary(chat, 600)


async def test_a_slow_llm_never_piles_up_runs(brain, gated_llm: GatedLLM) -> None:
    await seed(brain, "s-1", MIGRATION_CHAT[:3])
    curator = Curator(brain, gated_llm)
    for n in range(1, 21):
        curator.schedule("s-1", f"exchange {n}")
    await gated_llm.entered.wait()
    await asyncio.sleep(0)  # let every scheduled trigger reach the curator

    assert gated_llm.in_flight == 1
    gated_llm.release.set()
    await curator.drain()

    assert gated_llm.max_in_flight == 1
    assert len(gated_llm.requests) == 2  # the first run and one follow-up for the other 19
    assert_serial(await curator.history("s-1"))


async def test_a_manual_run_waits_for_the_run_in_progress(brain, gated_llm: GatedLLM) -> None:
    await seed(brain, "s-1", MIGRATION_CHAT[:3])
    curator = Curator(brain, gated_llm)
    curator.schedule("s-1", "exchange 3")
    await gated_llm.entered.wait()

    manual = asyncio.ensure_future(curator.curate("s-1"))
    await asyncio.sleep(0.05)
    assert not manual.done() and gated_llm.in_flight == 1
    gated_llm.release.set()
    run = await manual
    await curator.drain()

    assert run.trigger == "manual" and run.error is None
    runs = await curator.history("s-1")
    assert [r["trigger"] for r in reversed(runs)] == ["exchange 3", "manual"]
    assert_serial(runs)


CHILD = textwrap.dedent(
    """
    import asyncio, json, sys
    from brainbridge.brain import Brain
    from brainbridge.curator import Curator, CuratorConfig
    from brainbridge.llm import make_llm

    async def main(path, base_url, session_id, trigger, times):
        llm = make_llm("openai", "fake-model", base_url, "sk-test")
        brain = await Brain.open(path, embedder=None, background_indexing=False)
        curator = Curator(brain, llm, CuratorConfig(llm_timeout=60))
        out = []
        for _ in range(times):
            run = await curator.run(session_id, trigger, wait=trigger == "manual")
            out.append(None if run is None else run.to_dict())
        await brain.close()
        await llm.aclose()
        print(json.dumps(out))

    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])))
    """
)


def child(brain_path: Path, server: FakeLLMServer, trigger: str, times: int) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            CHILD,
            str(brain_path),
            server.openai_base_url,
            "s-1",
            trigger,
            str(times),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen) -> list:
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0
    return json.loads(out)


async def test_runs_in_several_processes_never_overlap(brain, fake_llm_server) -> None:
    await seed(brain, "s-1", MIGRATION_CHAT)
    in_flight, peak, lock = [0], [0], threading.Lock()
    release = threading.Event()

    def responder(request):
        with lock:
            in_flight[0] += 1
            peak[0] = max(peak[0], in_flight[0])
        release.wait(0.3)  # long enough for a second process to collide if it could
        with lock:
            in_flight[0] -= 1
        return reply_tool_calls(
            [("update_summary", {"summary": f"run {len(fake_llm_server.requests)}"})]
        )

    fake_llm_server.responder = responder
    procs = [child(brain.path, fake_llm_server, "manual", 3) for _ in range(3)]
    results = [await asyncio.to_thread(finish, p) for p in procs]

    assert all(r is not None and r["error"] is None for out in results for r in out)
    assert peak[0] == 1
    runs = await Curator(brain).history("s-1", limit=100)
    assert len(runs) == 9
    assert_serial(runs)


async def test_a_trigger_in_another_process_is_handed_to_the_running_one(
    brain, fake_llm_server
) -> None:
    await seed(brain, "s-1", MIGRATION_CHAT[:3])
    entered, go = threading.Event(), threading.Event()

    def responder(request):
        if len(fake_llm_server.requests) == 1:
            entered.set()
            go.wait(30)
        return reply_tool_calls([("update_title", {"title": "Billing Migration"})])

    fake_llm_server.responder = responder
    holder = child(brain.path, fake_llm_server, "exchange 3", 1)
    assert await asyncio.to_thread(entered.wait, 60)

    # This process finds the session busy: it leaves a mark and returns at once.
    await seed(brain, "s-1", MIGRATION_CHAT[3:5], start=4)
    assert await Curator(brain).run("s-1", "exchange 5") is None
    go.set()
    finish(holder)

    runs = await Curator(brain).history("s-1")
    assert [r["trigger"] for r in reversed(runs)] == ["exchange 3", "coalesced"]
    assert len(fake_llm_server.requests) == 2
    assert "[Exchange 5]" in fake_llm_server.requests[1].user_text
    assert_serial(runs)


async def test_a_manual_run_gives_up_on_a_session_held_too_long(brain) -> None:
    await seed(brain, "s-1", MIGRATION_CHAT[:1])
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path;"
            "from brainbridge.curator.files import SessionGuard;"
            "g = SessionGuard(Path(sys.argv[1]), 's-1'); assert g.try_acquire();"
            "print('held', flush=True); sys.stdin.readline()",
            str(brain.path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert await asyncio.to_thread(holder.stdout.readline) == "held\n"
        run = await Curator(brain, config=CuratorConfig(lock_timeout=0.3)).curate("s-1")
    finally:
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=30)
        holder.stdout.close()

    assert run.error == "another process kept curating for 0.3 s"
    assert await Curator(brain).history("s-1") == []  # nothing ran, nothing half-recorded
    assert (await Curator(brain).curate("s-1")).error is None  # free again
