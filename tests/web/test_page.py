"""The web page in a real browser: search, the bridge preview, sessions and curator runs."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from api.seed import SESSION
from api.served import Served
from web.conftest import SCREENSHOT, page_url

WAIT = 30


def open_page(browser: WebDriver, served: Served, token: str | None = None) -> WebDriverWait:
    browser.get("about:blank")  # a new #token on the same page would not reload it
    browser.get(page_url(served, token))
    wait = WebDriverWait(browser, WAIT)
    wait.until(lambda d: d.find_element(By.ID, "stats").text not in ("", "…"))
    return wait


def test_search_shows_results_with_names(browser: WebDriver, served: Served) -> None:
    wait = open_page(browser, served)
    assert "entities" in browser.find_element(By.ID, "stats").text
    box = browser.find_element(By.ID, "q")
    box.clear()
    box.send_keys("spring cohort bootcamp")
    browser.find_element(By.CSS_SELECTOR, "#search-form button").click()
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "#results .hit")))
    names = [el.text for el in browser.find_elements(By.CSS_SELECTOR, "#results .hit b")]
    assert names[0] == "Spring Cohort"
    assert "Kevin Ortiz" in names

    box.clear()
    box.send_keys('zzqx "NEAR( unmatched')
    box.submit()
    wait.until(ec.text_to_be_present_in_element((By.ID, "results"), "Nothing matches"))


def test_enrich_preview_shows_judgment_and_block(browser: WebDriver, served: Served) -> None:
    wait = open_page(browser, served)
    msg = browser.find_element(By.ID, "msg")
    msg.send_keys("How is Kevin Ortiz getting on with the spring cohort this month?")
    browser.find_element(By.CSS_SELECTOR, "#enrich-form button").click()
    wait.until(ec.presence_of_element_located((By.ID, "judgment")))
    assert browser.find_element(By.ID, "judgment").text == "enrich"
    block = browser.find_element(By.ID, "block").text
    assert "## Brain Context" in block and "Kevin Ortiz" in block


def test_clicking_a_session_shows_title_summary_and_curator_chip(
    browser: WebDriver, served: Served
) -> None:
    with served.client() as http:
        session = http.get(f"/sessions/{SESSION}").json()
        runs = http.get(f"/sessions/{SESSION}/curator-runs").json()
    wait = open_page(browser, served)
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, f'.session[data-id="{SESSION}"]')))
    item = browser.find_element(By.CSS_SELECTOR, f'.session[data-id="{SESSION}"]')
    assert session["title"] in item.text and "3 turns" in item.text
    item.click()
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "#session .chip")))
    panel = browser.find_element(By.ID, "session").text
    assert session["title"] in panel
    assert session["summary"][:40] in panel
    assert f"Curator runs: {len(runs)}" in panel
    chip = browser.find_element(By.CSS_SELECTOR, "#session .chip").text
    assert chip == (" · ".join(runs[0]["actions"]) or "no change")
    browser.save_screenshot(str(SCREENSHOT))


def test_wrong_token_is_shown_not_hidden(browser: WebDriver, served: Served) -> None:
    open_page(browser, served, token="wrong")
    assert "token" in browser.find_element(By.ID, "stats").text
    WebDriverWait(browser, WAIT).until(
        ec.text_to_be_present_in_element((By.ID, "sessions"), "token")
    )
