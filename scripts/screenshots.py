"""Screenshots of every view of the web app at desktop and phone width, on the tour brain
(`scripts/webtour.py`), in a real headless Chromium against a real `brain serve`.

usage: python scripts/screenshots.py [OUT_DIR]   (default docs/screenshots)
Needs Debian's chromium and chromium-driver (scripts/install-browser).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, str(Path(__file__).resolve().parent))
from webtour import SESSION, build  # noqa: E402

SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
VIEWS = {
    "home": "#/",
    "sessions": "#/sessions",
    "session": f"#/session/{SESSION}",
    "browse": "#/browse?type=Person",
    "search": f"#/search?q={quote('offline sync Acme drivers')}",
    "entity": f"#/entity/Organization/{quote('Acme Freight')}",
    "person": f"#/entity/Person/{quote('Maya Chen')}",
    "graph": f"#/graph/Project/{quote('Atlas')}",
    "merges": "#/merges",
    "directives": "#/directives",
}


@contextmanager
def served(home: Path) -> Iterator[tuple[str, str]]:
    """`brain serve` on `home`; yields (base url, token)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "BRAIN_HOME": str(home), "BRAIN_EMBEDDER": "hashing"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "brainbridge.cli.main", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                info = json.loads((home / "server.json").read_text())
                if info.get("pid") == proc.pid:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        yield f"http://127.0.0.1:{port}", str(info["token"])
                        return
            except (OSError, ValueError):
                pass
            time.sleep(0.2)
        raise SystemExit("brain serve did not start")
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def browser() -> WebDriver:
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not driver:
        raise SystemExit("no chromium/chromedriver: run scripts/install-browser")
    options = Options()
    options.binary_location = chromium
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
    ):
        options.add_argument(flag)
    os.environ.setdefault("SE_OFFLINE", "true")
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))


def shoot(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    shots = []
    with tempfile.TemporaryDirectory() as tmp:
        home = asyncio.run(build(Path(tmp) / "brain"))
        with served(home) as (url, token):
            driver = browser()
            try:
                driver.get(f"{url}/#token={token}")
                WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "q"))
                for size, (w, h) in SIZES.items():
                    driver.set_window_size(w, h)
                    for name, hash_ in VIEWS.items():
                        driver.get(f"{url}/{hash_}")
                        WebDriverWait(driver, 30).until(
                            lambda d, h=hash_: d.find_element(By.ID, "view").get_attribute(
                                "data-shown"
                            )
                            == h
                        )
                        if name == "session":
                            for d in driver.find_elements(By.CSS_SELECTOR, "details.ctx")[:1]:
                                d.find_element(By.TAG_NAME, "summary").click()
                        height = driver.execute_script("return document.body.scrollHeight")
                        driver.set_window_size(w, min(max(h, height + 40), 2400))
                        path = out / f"{name}-{size}.png"
                        driver.save_screenshot(str(path))
                        shots.append(path)
                        driver.set_window_size(w, h)
            finally:
                driver.quit()
    return shots


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/screenshots")
    for p in shoot(target):
        print(p)
