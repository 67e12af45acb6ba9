"""The web app in a real headless Chromium against a real `brain serve`: sessions with
their transcript and what the bridge loaded per turn, the brain browser, entity pages,
the graph, the merge queue, directives, and a token flow a person can follow."""

from __future__ import annotations

from urllib.parse import quote

from scripts.webtour import SESSION
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from api.served import Served
from web.conftest import page_url

WAIT = 30


def open_app(browser: WebDriver, served: Served, path: str = "#/") -> WebDriverWait:
    """The app with its token, then `path`; waits until the view has rendered."""
    browser.get("about:blank")
    browser.get(page_url(served))
    wait = WebDriverWait(browser, WAIT)
    wait.until(lambda d: d.find_elements(By.ID, "q"))
    if path != "#/":
        go(browser, wait, f"{served.url}/{path}")
    return wait


def go(browser: WebDriver, wait: WebDriverWait, url: str) -> None:
    """Open `url` (a view of the app) and wait until that view has rendered."""
    browser.get(url)
    fragment = "#" + url.split("#", 1)[1]
    wait.until(lambda d: d.find_element(By.ID, "view").get_attribute("data-shown") == fragment)


def h1(browser: WebDriver) -> str:
    return browser.find_element(By.CSS_SELECTOR, "#view h1").text


def click(wait: WebDriverWait, element: WebElement, then: str) -> None:
    """Click and wait until the page heading holds `then`."""
    element.click()
    wait.until(ec.text_to_be_present_in_element((By.CSS_SELECTOR, "#view h1"), then))


def test_search_then_a_hit_opens_its_entity(browser: WebDriver, tour: Served) -> None:
    wait = open_app(browser, tour)
    box = browser.find_element(By.ID, "q")
    box.send_keys("Acme Freight pilot customer")
    box.submit()
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "#results .hit a")))
    hit = browser.find_element(By.CSS_SELECTOR, "#results .hit a")
    name = hit.text
    click(wait, hit, name)
    assert browser.find_element(By.ID, "description").text

    box = browser.find_element(By.CSS_SELECTOR, "nav a[data-nav=home]")
    box.click()
    wait.until(lambda d: d.find_elements(By.ID, "q"))
    browser.find_element(By.ID, "q").send_keys('zzqx "NEAR( unmatched')
    browser.find_element(By.ID, "q").submit()
    wait.until(ec.text_to_be_present_in_element((By.ID, "view"), "Nothing matches"))


def test_the_bridge_preview_draws_the_block_not_its_markdown(
    browser: WebDriver, tour: Served
) -> None:
    wait = open_app(browser, tour)
    browser.find_element(By.ID, "msg").send_keys(
        "Drivers at Acme still lose stops after syncing, any new ideas?"
    )
    browser.find_element(By.CSS_SELECTOR, "#enrich-form button").click()
    wait.until(ec.presence_of_element_located((By.ID, "judgment")))
    assert browser.find_element(By.ID, "judgment").text == "enrich"
    block = browser.find_element(By.ID, "block")
    assert "Brain Context" in block.find_element(By.TAG_NAME, "h3").text
    assert "##" not in block.text


def test_session_turn_loaded_item_entity_relation_then_a_merge_from_the_queue(
    browser: WebDriver, tour: Served
) -> None:
    wait = open_app(browser, tour, "#/sessions")
    with tour.client() as http:
        session = http.get(f"/sessions/{SESSION}").json()
    click(wait, browser.find_element(By.LINK_TEXT, session["title"]), session["title"])
    turn = browser.find_element(By.ID, "turn-1")
    indicator = turn.find_element(By.CSS_SELECTOR, "details.ctx summary")
    assert "brain context" in indicator.text and "loaded" in indicator.text
    indicator.click()
    detail = turn.find_element(By.CSS_SELECTOR, "details.ctx").text
    assert "Judgment" in detail and "Queries" in detail and "Loaded" in detail
    loaded = [
        a
        for a in turn.find_elements(By.CSS_SELECTOR, "ul.loaded a")
        if "Chat_Exchange" not in a.find_element(By.XPATH, "..").text
    ]
    target = loaded[0].text
    click(wait, loaded[0], target)

    relation = browser.find_element(By.CSS_SELECTOR, "#relations a")
    other = relation.text
    click(wait, relation, other)
    assert other in h1(browser)

    browser.find_element(By.CSS_SELECTOR, "nav a[data-nav=merges]").click()
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "#pending [data-merge]")))
    pending = browser.find_element(By.CSS_SELECTOR, "#pending [data-merge]")
    assert "Daniel Novak" in pending.text and "Dan Novak" in pending.text
    pending.find_element(By.CSS_SELECTOR, "button[data-act=accept]").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "merged"), "Dan Novak"))
    assert "Nothing to review" in browser.find_element(By.ID, "pending").text

    go(browser, wait, f"{tour.url}/#/entity/Person/{quote('Daniel Novak')}")
    assert "Dan Novak" in browser.find_element(By.ID, "view").text  # now an alias


def test_the_brain_browser_lists_types_with_counts_and_filters(
    browser: WebDriver, tour: Served
) -> None:
    wait = open_app(browser, tour, "#/browse")
    types = browser.find_element(By.CSS_SELECTOR, "nav.types").text
    assert "Chat_Exchange" in types and "Person" in types
    click(wait, browser.find_element(By.PARTIAL_LINK_TEXT, "Person"), "Person")
    box = browser.find_element(By.ID, "filter")
    box.send_keys("Maya")
    box.submit()
    wait.until(ec.text_to_be_present_in_element((By.ID, "view"), "1 entry"))
    assert browser.find_element(By.CSS_SELECTOR, "#entities a").text == "Maya Chen"


def test_the_graph_is_clicked_through(browser: WebDriver, tour: Served) -> None:
    wait = open_app(browser, tour, "#/graph/Project/Atlas")
    nodes = browser.find_elements(By.CSS_SELECTOR, "svg.graph a")
    assert len(nodes) > 5
    person = next(n for n in nodes if n.get_attribute("aria-label").startswith("Person "))
    name = person.get_attribute("aria-label").removeprefix("Person ")
    browser.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", person
    )
    wait.until(ec.text_to_be_present_in_element((By.CSS_SELECTOR, "#view h1"), name))


def test_directives_show_each_state_and_what_a_run_receives(
    browser: WebDriver, tour: Served
) -> None:
    open_app(browser, tour, "#/directives")
    text = browser.find_element(By.ID, "directive-text").text
    assert "test suite" in text
    view = browser.find_element(By.ID, "view").text
    assert "ACTIVE" in view.upper() and "SUPERSEDED" in view.upper()


def test_run_the_curator_now_from_the_session(browser: WebDriver, tour: Served) -> None:
    wait = open_app(browser, tour, f"#/session/{SESSION}")
    with tour.client() as http:
        before = len(http.get(f"/sessions/{SESSION}/curator-runs").json())
    browser.find_element(By.CSS_SELECTOR, "#curator summary").click()
    browser.find_element(By.ID, "curate-now").click()
    with tour.client() as http:
        wait.until(lambda _: len(http.get(f"/sessions/{SESSION}/curator-runs").json()) > before)
    wait.until(ec.presence_of_element_located((By.ID, "curator-chip")))


def test_without_the_token_the_page_says_where_it_is_and_takes_it(
    browser: WebDriver, tour: Served
) -> None:
    browser.get("about:blank")
    browser.get(f"{tour.url}/#token=wrong")
    wait = WebDriverWait(browser, WAIT)
    wait.until(ec.text_to_be_present_in_element((By.ID, "view"), "not accepted"))
    page = browser.find_element(By.ID, "view").text
    assert "server.json" in page and "#token=" in page
    # ...this server's own address and where its server.json is (a new user's page named
    # port 8765 and ~/.brain for a server on another port and folder).
    assert f"{tour.url}/#token=" in page and "~/.brain" not in page
    box = browser.find_element(By.ID, "token-input")
    box.send_keys(tour.token)
    box.submit()
    wait.until(lambda d: d.find_elements(By.ID, "q"))


def test_phone_width_does_not_scroll_sideways_and_every_field_is_labelled(
    browser: WebDriver, tour: Served
) -> None:
    open_app(browser, tour)
    browser.set_window_size(390, 844)
    try:
        for path in (f"#/session/{SESSION}", "#/browse", "#/entity/Project/Atlas", "#/"):
            go(browser, WebDriverWait(browser, WAIT), f"{tour.url}/{path}")
            width = browser.execute_script("return document.documentElement.scrollWidth")
            assert width <= 390, (path, width)
            unlabelled = browser.execute_script(
                "return [...document.querySelectorAll('input, textarea')]"
                ".filter(i => !document.querySelector(`label[for='${i.id}']`)).length"
            )
            assert unlabelled == 0, path
    finally:
        browser.set_window_size(1280, 900)


def test_an_entity_is_edited_and_deleted_from_its_page(browser: WebDriver, tour: Served) -> None:
    wait = open_app(browser, tour, f"#/entity/Organization/{quote('Blue Harbor Ventures')}")
    browser.find_element(By.CSS_SELECTOR, "#edit-form").find_element(
        By.XPATH, "./ancestor::details/summary"
    ).click()
    desc = browser.find_element(By.ID, "edit-desc")
    desc.clear()
    desc.send_keys("Seed fund that led the Atlas pre-seed round.")
    browser.find_element(By.ID, "edit-attrs").send_keys("\ncity: Rotterdam\nfund_size: 40")
    browser.find_element(By.CSS_SELECTOR, "#edit-form button[type=submit]").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "description"), "pre-seed round"))
    with tour.client() as http:
        saved = http.get("/entity", params={"type": "Organization", "name": "Blue Harbor Ventures"})
    attrs = saved.json()["entity"]["attributes"]
    assert attrs["city"] == "Rotterdam" and attrs["fund_size"] == 40

    browser.find_element(By.CSS_SELECTOR, "#edit-form").find_element(
        By.XPATH, "./ancestor::details/summary"
    ).click()
    browser.find_element(By.ID, "delete").click()
    browser.switch_to.alert.accept()
    wait.until(ec.url_contains("#/browse?type=Organization"))
    with tour.client() as http:
        gone = http.get("/entity", params={"type": "Organization", "name": "Blue Harbor Ventures"})
    assert gone.status_code == 404


def test_the_keyboard_alone_opens_a_session_and_a_turns_indicator(
    browser: WebDriver, tour: Served
) -> None:
    from selenium.webdriver.common.keys import Keys

    wait = open_app(browser, tour, "#/sessions")
    # A view that has rendered holds the focus, so Tab goes on into its content...
    assert browser.switch_to.active_element.get_attribute("id") == "view"
    # ...and from the top of the page the skip link comes first.
    first = browser.execute_script(
        "return document.querySelector('a[href], button, input, summary').textContent"
    )
    assert first == "Skip to content"
    # Tab to the session's link and follow it with Enter.
    for _ in range(30):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        if "/session/" in (browser.switch_to.active_element.get_attribute("href") or ""):
            break
    else:
        raise AssertionError("no session link reachable by Tab")
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    wait.until(
        lambda d: (d.find_element(By.ID, "view").get_attribute("data-shown") or "").startswith(
            "#/session/"
        )
    )
    # The first turn's indicator is a summary: focusable, and Enter opens it.
    for _ in range(30):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        active = browser.switch_to.active_element
        if active.tag_name == "summary" and "brain context" in active.text:
            break
    else:
        raise AssertionError("no turn indicator reachable by Tab")
    active.send_keys(Keys.ENTER)
    details = active.find_element(By.XPATH, "..")
    assert details.get_attribute("open") is not None


def test_the_page_runs_under_its_content_security_policy(browser: WebDriver, tour: Served) -> None:
    wait = open_app(browser, tour)
    browser.execute_script(
        "window.__violations = [];"
        "document.addEventListener('securitypolicyviolation',"
        " e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"
    )
    for view in ("#/sessions", "#/browse", "#/merges", "#/directives", "#/"):
        go(browser, wait, f"{tour.url}/{view}")
    assert browser.execute_script("return window.__violations") == []
    # What injected markup would need, an inline handler, does not run.
    browser.execute_script(
        "window.__ran = false; const i = document.createElement('img');"
        "i.setAttribute('onerror', 'window.__ran = true'); i.src = 'data:,x';"
        "document.body.appendChild(i);"
    )
    wait.until(lambda d: d.execute_script("return window.__violations.length") > 0)
    assert browser.execute_script("return window.__ran") is False
    # Every request went to this server, the token in a header, never in an address.
    urls = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
    )
    assert urls and all(u.startswith(tour.url) for u in urls), urls
    assert not any("token" in u for u in urls), urls
