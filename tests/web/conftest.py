"""A real headless Chromium, driven through ChromeDriver, against `brain serve`.

Needs Debian's `chromium` and `chromium-driver` (scripts/install-browser installs them);
without those binaries the tests skip with that reason. Nothing is downloaded.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.seed import seed_folder
from api.served import Served, serve_brain

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.remote.webdriver import WebDriver
except ImportError as exc:  # a missing dev dependency is a failure, not a skip
    raise ImportError(
        "selenium is missing: install the dev dependencies (requirements-dev.lock)"
    ) from exc


def _binary(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


CHROMIUM = _binary("chromium", "chromium-browser", "google-chrome")
CHROMEDRIVER = _binary("chromedriver")


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    if not CHROMIUM or not CHROMEDRIVER:
        pytest.skip(
            "no chromium/chromedriver binary: run scripts/install-browser "
            "(apt-get install chromium chromium-driver)"
        )
    options = Options()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):
        options.add_argument(flag)
    # Selenium Manager must not try to download a driver: we name ours.
    os.environ.setdefault("SE_OFFLINE", "true")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`brain serve` on a brain with entities and a curated session."""
    home = seed_folder(tmp_path_factory.mktemp("web") / "brain")
    with serve_brain(home) as server:
        yield server


@pytest.fixture(scope="module")
def tour(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`brain serve` on the tour brain (scripts/webtour.py): the sample, a conversation held
    through the bridge and curated, a merge waiting for review, directives."""
    import asyncio

    from scripts.webtour import build

    home = asyncio.run(build(tmp_path_factory.mktemp("tour") / "brain"))
    with serve_brain(home) as server:
        yield server


def page_url(served: Served, token: str | None = None) -> str:
    return f"{served.url}/#token={token if token is not None else served.token}"


SCREENSHOT = Path("/tmp/brainbridge-page.png")
