"""The web app at scale: a real `brain serve` on the tour brain plus 100,000 synthetic
entities, driven by a real headless Chromium. Page load = navigating to a view until it
has rendered (its data fetched and drawn); search-to-render = submitting a query until
the hits are on screen.

Run: python -m benchmarks --only web   (--quick: 10,000 entities, fewer runs)
Needs Debian's chromium and chromium-driver (scripts/install-browser).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

from benchmarks.synth import generate, iter_batches, queries
from brainbridge.brain import Brain

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def _fill(folder: Path, size: int) -> None:
    from webtour import build  # scripts/webtour.py

    await build(folder)
    brain = await Brain.open(folder, embedder=None, background_indexing=False)
    try:
        synthetic = generate(size)
        for batch in iter_batches(synthetic.entities, 1000):
            await brain.upsert_many(batch)
        lines = [
            json.dumps(
                {
                    "kind": "relation",
                    "type": rel,
                    "src": {"type": s[0], "name": s[1]},
                    "dst": {"type": d[0], "name": d[1]},
                }
            )
            for s, rel, d in synthetic.relations[: size // 2]
        ]
        await brain.import_jsonl(lines)
    finally:
        await brain.close()


def run(quick: bool = False) -> str:
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not driver_path:
        return "Not run: no chromium/chromedriver (scripts/install-browser installs them)."
    from screenshots import browser, served  # scripts/screenshots.py
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    from webtour import SESSION

    size, runs = (10_000, 5) if quick else (100_000, 20)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "brain"
        started = time.perf_counter()
        asyncio.run(_fill(home, size))
        fill_s = time.perf_counter() - started
        os.environ["BRAIN_EMBEDDER"] = "hashing"
        with served(home) as (url, token):
            import httpx

            auth = {"Authorization": f"Bearer {token}"}
            deadline = time.monotonic() + 900
            while time.monotonic() < deadline:  # vectors first: search must not race indexing
                stats = httpx.get(f"{url}/stats", headers=auth, timeout=60).json()
                if not stats["pending_vectors"]:
                    break
                time.sleep(1)
            driver = browser()
            try:
                driver.get(f"{url}/#token={token}")
                wait = WebDriverWait(driver, 60, poll_frequency=0.005)

                def shown(fragment: str) -> None:
                    wait.until(
                        lambda d: (
                            d.find_element(By.ID, "view").get_attribute("data-shown") == fragment
                        )
                    )

                views = {
                    "home": "#/",
                    "sessions": "#/sessions",
                    "session transcript": f"#/session/{SESSION}",
                    "brain browser (all types)": "#/browse",
                    "entity page": f"#/entity/Organization/{quote('Acme Freight')}",
                    "graph (2 hops)": f"#/graph/Project/{quote('Atlas')}",
                }
                loads: dict[str, list[float]] = {}
                for name, fragment in views.items():
                    for _ in range(runs + 1):
                        driver.get("about:blank")
                        t0 = time.perf_counter()
                        driver.get(f"{url}/{fragment}")
                        shown(fragment)
                        loads.setdefault(name, []).append((time.perf_counter() - t0) * 1000)
                    loads[name] = loads[name][1:]  # the first warms the server's caches
                searches = []
                synthetic = generate(size)
                qs = [
                    q
                    for kind, q in queries(synthetic, 60)
                    if kind in ("rare name", "multi-word", "question")
                ]
                driver.get(f"{url}/#/")
                shown("#/")
                for q in qs[: runs * 2]:
                    box = driver.find_element(By.ID, "q")
                    box.clear()
                    box.send_keys(q)
                    t0 = time.perf_counter()
                    box.submit()
                    wait.until(
                        lambda d: (
                            d.find_element(By.ID, "view").get_attribute("data-shown") or ""
                        ).startswith("#/search")
                    )
                    searches.append((time.perf_counter() - t0) * 1000)
                    driver.get(f"{url}/#/")
                    shown("#/")
            finally:
                driver.quit()
        total = stats["entities"]
    lines = [
        f"A brain of {total:,} entities ({size:,} synthetic beside the tour brain's sample and"
        f" curated session; filled in {fill_s:.0f} s), `brain serve` with hashing vectors,"
        " headless Chromium on the same machine. Each figure is wall time from navigation to"
        f" the view having drawn its data, {runs} runs after one warm-up.",
        "",
        "| view | p50 ms | p95 ms |",
        "|---|---|---|",
    ]
    for name, values in loads.items():
        lines.append(
            f"| page load: {name} | {statistics.median(values):.0f} | {_p(values, 0.95):.0f} |"
        )
    lines.append(
        f"| search → results drawn ({len(searches)} queries) | {statistics.median(searches):.0f}"
        f" | {_p(searches, 0.95):.0f} |"
    )
    return "\n".join(lines)
