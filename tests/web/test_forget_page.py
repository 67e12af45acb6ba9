"""Forgetting from the web page: the conversation's page lists what goes, asks, and it goes."""

from __future__ import annotations

from urllib.parse import quote

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as ec

from api.seed import SESSION
from api.served import Served
from web.test_page import open_app


def test_a_conversation_is_forgotten_from_its_page(browser: WebDriver, served: Served) -> None:
    wait = open_app(browser, served, f"#/session/{SESSION}")
    browser.find_element(By.ID, "forget").click()
    wait.until(ec.alert_is_present())
    alert = browser.switch_to.alert
    assert "3 Chat Exchange" in alert.text and "1 sessions" in alert.text, alert.text
    alert.dismiss()  # changing one's mind keeps it
    with served.client() as http:
        assert http.get(f"/sessions/{SESSION}").status_code == 200

    browser.find_element(By.ID, "forget").click()
    wait.until(ec.alert_is_present())
    browser.switch_to.alert.accept()
    wait.until(ec.url_contains("#/sessions"))
    with served.client() as http:
        assert http.get(f"/sessions/{SESSION}").status_code == 404
        exchange = {"type": "Chat_Exchange", "name": f"{SESSION[:8]}:ex:1"}
        assert http.get("/entity", params=exchange).status_code == 404


def test_an_entity_is_forgotten_from_its_page(browser: WebDriver, served: Served) -> None:
    wait = open_app(browser, served, f"#/entity/Decision/{quote('Use Postgres for teams')}")
    browser.find_element(By.ID, "forget").click()
    wait.until(ec.alert_is_present())
    alert = browser.switch_to.alert
    assert "1 Decision" in alert.text, alert.text
    alert.accept()
    wait.until(ec.url_contains("#/browse?type=Decision"))
    with served.client() as http:
        gone = http.get("/entity", params={"type": "Decision", "name": "Use Postgres for teams"})
    assert gone.status_code == 404
