"""The web page's loose ends, in a real headless Chromium against `brain serve` on the tour
brain: titles instead of ids, relations that are the entity's own, true provenance, links
for ids, plain-word curator actions, a context line on every turn, the right tab, replaced
items marked, and a graph that stays readable around a hub."""

from __future__ import annotations

from urllib.parse import quote

from scripts.webtour import SESSION
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from api.served import Served
from web.test_page import go, h1, open_app

TITLE = "Offline sync and Acme Freight"  # the tour session's curated title


def test_a_session_is_named_by_its_title_in_search_graph_and_tab(
    browser: WebDriver, tour: Served
) -> None:
    wait = open_app(browser, tour, "#/search?q=" + quote("offline sync Acme drivers"))
    results = browser.find_element(By.ID, "results").text
    assert TITLE in results and SESSION not in results

    go(browser, wait, f"{tour.url}/#/graph/Chat_Session/{SESSION}")
    assert TITLE in h1(browser) and SESSION not in h1(browser)
    assert TITLE in browser.title and SESSION not in browser.title


def test_a_persons_relations_are_her_own(browser: WebDriver, tour: Served) -> None:
    open_app(browser, tour, f"#/entity/Person/{quote('Maya Chen')}")
    relations = browser.find_element(By.ID, "relations").text
    assert "leads" in relations and "works at" in relations
    assert "builds" not in relations  # Northwind Labs builds Atlas: not a relation of hers


def test_an_exchange_says_where_it_was_said_and_links_what_replaced_it(
    browser: WebDriver, tour: Served
) -> None:
    wait = open_app(browser, tour, f"#/entity/Chat_Exchange/{quote('tour-7f3:ex:1')}")
    sources = browser.find_element(By.ID, "sources").text
    assert "Added directly" not in sources and TITLE in sources
    assert "Open the conversation" in browser.find_element(By.ID, "view").text

    go(browser, wait, f"{tour.url}/#/entity/Chat_Exchange/{quote('8b2d6e40:ex:5')}")
    link = browser.find_element(By.CSS_SELECTOR, "#view dd a[href*='tour-7f3%3Aex%3A1']")
    assert link.text and "tour-7f3:ex:1" not in link.text  # what was said, not the id
    session = browser.find_element(By.CSS_SELECTOR, "#view dd a[href^='#/session/']")
    assert "8b2d6e40" not in session.text or session.text.startswith("Conversation")


def test_replaced_items_are_marked_in_lists(browser: WebDriver, tour: Served) -> None:
    open_app(browser, tour, "#/browse?type=Chat_Exchange")
    marked = browser.find_elements(By.CSS_SELECTOR, "#entities li .replaced")
    # The tour's first statement ("Our sync fix no longer holds") replaced the bug report
    # and the fix of the earlier sync conversation.
    assert len(marked) == 2


def test_the_session_speaks_plain_words_and_every_turn_says_what_was_loaded(
    browser: WebDriver, tour: Served
) -> None:
    open_app(browser, tour, f"#/session/{SESSION}")
    curator = browser.find_element(By.ID, "curator").get_attribute("textContent")
    assert "update_summary" not in curator and "log_activity" not in curator
    assert "updated the summary" in curator
    turns = browser.find_elements(By.CSS_SELECTOR, ".turn")
    assert turns and all(t.find_elements(By.CSS_SELECTOR, ".ctx") for t in turns)
    lines = [t.find_element(By.CSS_SELECTOR, ".ctx").get_attribute("textContent") for t in turns]
    assert all("brain context" in line for line in lines), lines
    assert "Stored" in lines[0] and "Chat_Exchange:tour-7f3:ex:1" not in lines[0]  # a link


def test_search_is_its_own_tab(browser: WebDriver, tour: Served) -> None:
    open_app(browser, tour, "#/search?q=Atlas")
    current = browser.find_element(By.CSS_SELECTOR, "nav a[aria-current='page']")
    assert current.text == "Search"


def test_a_hub_of_30_neighbours_stays_readable(browser: WebDriver, tour: Served) -> None:
    hub = {"type": "Person", "name": "Hub Person"}
    with tour.client() as http:
        http.post("/entities", json={**hub, "description": "Knows everyone."}).raise_for_status()
        for i in range(30):
            other = {"type": "Topic", "name": f"Neighbour topic number {i:02d}"}
            http.post("/entities", json={**other, "description": "A topic."}).raise_for_status()
            http.post(
                "/relations", json={"src": hub, "relation": "FOLLOWS", "dst": other}
            ).raise_for_status()
        said = {"type": "Chat_Exchange", "name": "tour-7f3:ex:1"}
        for relation in ("MENTIONS", "ABOUT"):  # one exchange, two edges
            http.post(
                "/relations", json={"src": said, "relation": relation, "dst": hub}
            ).raise_for_status()

    wait = open_app(browser, tour, f"#/entity/Person/{quote('Hub Person')}")
    sources = browser.find_elements(By.CSS_SELECTOR, "#sources > li")
    assert len(sources) == 1  # "Came from" lists the exchange once

    go(browser, wait, f"{tour.url}/#/graph/Person/{quote('Hub Person')}")
    overlaps = browser.execute_script(
        """const texts = [...document.querySelectorAll('svg.graph a text')];
        const boxes = texts.map((t) => t.getBBox()), out = [];
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i], b = boxes[j];
          if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
            out.push([texts[i].textContent, texts[j].textContent, [a.x, a.y, a.width], [b.x, b.y, b.width]]);
        }
        return out;"""
    )
    assert overlaps == []
    edge_labels = browser.find_elements(By.CSS_SELECTOR, "svg.graph g.edge text")
    assert any(e.get_attribute("textContent") == "follows" for e in edge_labels)
    legend = browser.find_element(By.ID, "legend").text
    assert "ended" in legend and "dashed" in legend
