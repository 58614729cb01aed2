"""rulelang serve in a real browser (issue 17): headless Chromium (Debian's,
driven by Playwright) plays a North Pole game to its end, two browser
contexts as two seats, through the lobby and the game's page, with
screenshots.  Long run only (``RULELANG_LONG``); skipped where Chromium or
Playwright is missing.  Screenshots go to ``RULELANG_SHOTS`` (a folder) if
set, else the test's temporary folder."""

from __future__ import annotations

import os
import random
import time

import pytest

from browser import ARGS, CHROMIUM, need_a_browser, served  # noqa: E402

need_a_browser()

from playwright import sync_api  # noqa: E402

from rulelang.serve.store import Store  # noqa: E402
from rulelang.serve.tables import Hall, Ruleset  # noqa: E402





@pytest.fixture
def server(tmp_path, northpole, deepsea_game):
    hall = Hall([Ruleset("northpole", "northpole.rules", northpole),
                 Ruleset("deepsea", "deepsea.rules", deepsea_game)],
                Store(str(tmp_path / "games.sqlite")))
    with served(hall) as url:
        yield hall, url


@pytest.fixture(scope="module")
def deepsea_game(shipped_game):
    return shipped_game("deepsea.rules")


@pytest.fixture
def shots(tmp_path):
    folder = os.environ.get("RULELANG_SHOTS") or str(tmp_path / "shots")
    os.makedirs(folder, exist_ok=True)
    return folder


def wait_version(page, version):
    page.wait_for_selector(f'body[data-version="{version}"]', state="attached", timeout=15000)


def test_two_seats_play_north_pole_to_the_end(server, shots):
    hall, url = server
    rng = random.Random(17)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            ann = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            bob = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            errors = []
            for p in (ann, bob):     # (a script error, a refused request, a CSP violation)
                p.on("pageerror", lambda e: errors.append(str(e)))
                p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            # Bob waits in the lobby; Ann creates a game for two people there
            # and takes the first seat.
            bob.goto(url + "/")
            bob.fill("#name", "Bob")
            ann.goto(url + "/")
            ann.fill("#name", "Ann")
            form = ann.locator('form.new-game[data-ruleset="northpole"]')
            form.locator('select[name="players"]').select_option("2")
            ann.screenshot(path=os.path.join(shots, "01-lobby.png"), full_page=True)
            form.locator('button[type="submit"]').click()
            ann.wait_for_url("**/games/*")
            gid = ann.url.rsplit("/", 1)[1]
            table = hall.tables[gid]
            assert table.seats[0].name == "Ann"
            # Bob's lobby shows it, open, within seconds, and he joins the other seat.
            bob.wait_for_selector(f'button.join[data-game="{gid}"][data-seat="1"]', timeout=15000)
            bob.screenshot(path=os.path.join(shots, "02-lobby-open-game.png"), full_page=True)
            bob.locator(f'button.join[data-game="{gid}"][data-seat="1"]').click()
            bob.wait_for_url(f"**/games/{gid}")
            assert table.seats[1].name == "Bob"
            pages = {0: ann, 1: bob}
            moves = 0
            shot_at = {4: "03", 40: "04"}
            while not table.state.is_over:
                assert moves < 3000, "the game did not end"
                seat = table.state.current_player
                page = pages[seat]
                version = table.version
                wait_version(page, version)
                buttons = page.locator(".decision button.move")
                n = buttons.count()
                assert n == len(table.state.legal_moves()), "the page offers other moves"
                # The other seat is told live and offered nothing.
                wait_version(pages[1 - seat], version)
                assert pages[1 - seat].locator("button.move").count() == 0
                if moves in shot_at:
                    for s, p in pages.items():
                        p.screenshot(path=os.path.join(shots, f"{shot_at[moves]}-seat{s}.png"),
                                     full_page=True)
                buttons.nth(rng.randrange(n)).click()
                for _ in range(300):
                    if table.version != version:
                        break
                    time.sleep(0.02)
                assert table.version == version + 1 or table.state.is_over
                moves += 1
            for s, p in pages.items():
                wait_version(p, table.version)
                assert p.get_attribute("body", "data-over") == "yes"
                assert "The game is over" in p.inner_text(".status")
                p.screenshot(path=os.path.join(shots, f"05-over-seat{s}.png"), full_page=True)
            assert len(table.state.history) == moves
            assert errors == []
            # A spectator's page of the same game, and a Deep Sea table with its boards.
            watcher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            watcher.goto(f"{url}/games/{gid}")
            wait_version(watcher, table.version)
            assert "You are a spectator" in watcher.inner_text(".status")
            watcher.goto(url + "/")
            form = watcher.locator('form.new-game[data-ruleset="deepsea"]')
            form.locator('select[name="players"]').select_option("2")
            form.locator('select[data-bot="1"]').select_option("random")
            form.locator('button[type="submit"]').click()
            watcher.wait_for_url("**/games/*")
            watcher.wait_for_selector(".board")
            watcher.screenshot(path=os.path.join(shots, "06-deepsea.png"), full_page=True)
            boards = watcher.locator("section.board")
            assert boards.count() >= 2 and watcher.locator("section.board.hex-map").count() >= 1
            for i in range(boards.count()):
                boards.nth(i).screenshot(path=os.path.join(shots, f"07-deepsea-board{i}.png"))
        finally:
            browser.close()
