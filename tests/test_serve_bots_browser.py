"""A thinking bot in a real browser: a person plays tic-tac-toe against
``mcts:50`` through the lobby and the game's page (headless Chromium,
as tests/test_serve_browser.py).  After each of the person's moves the page
says the bot is thinking, then shows the bot's move when it comes, with no
reload.  Long run only; skipped where Chromium or Playwright is missing."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from browser import ARGS, CHROMIUM, need_a_browser, served  # noqa: E402

need_a_browser()

from playwright import sync_api  # noqa: E402

import rulelang  # noqa: E402
from rulelang.serve.store import Store  # noqa: E402
from rulelang.serve.tables import Hall, Ruleset  # noqa: E402
from rulelang.serve.thinking import Thinkers  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(__file__))


class Unhurried(Thinkers):
    """Real workers, answered a little late: the page has time to show
    that the bot thinks (tic-tac-toe's search is over in milliseconds)."""

    async def think(self, game, replay, spec, seed):
        await asyncio.sleep(0.8)
        return await super().think(game, replay, spec, seed)


@pytest.fixture
def server(tmp_path):
    game = rulelang.load(os.path.join(ROOT, "examples", "tic_tac_toe.rules"))
    workers = Unhurried(workers=1)
    hall = Hall([Ruleset("ttt", "tic_tac_toe.rules", game)], Store(str(tmp_path / "games.sqlite")),
                thinkers=workers)
    with served(hall) as url:
        yield hall, url
    workers.close()


def test_a_person_plays_a_thinking_bot_in_the_browser(server, tmp_path):
    hall, url = server
    shots = os.environ.get("RULELANG_SHOTS") or str(tmp_path)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_context(viewport={"width": 1100, "height": 800}).new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(url + "/")
            page.fill("#name", "Ann")
            form = page.locator('form.new-game[data-ruleset="ttt"]')
            form.locator('select[data-bot="1"]').select_option("mcts:50")
            form.locator('button[type="submit"]').click()
            page.wait_for_url("**/games/*")
            table = hall.tables[page.url.rsplit("/", 1)[1]]
            assert table.seats[1].bot == "mcts:50"
            thought = 0
            while not table.state.is_over:
                assert table.state.current_player == 0
                version = table.version
                page.wait_for_selector(f'body[data-version="{version}"]', state="attached",
                                       timeout=30000)
                buttons = page.locator(".decision button.move")
                assert buttons.count() == len(table.state.legal_moves())
                buttons.first.click()
                for _ in range(500):
                    if table.version > version:
                        break
                    time.sleep(0.02)
                if table.state.is_over:
                    break
                # Answered at once: the page says the bot thinks, offers nothing ...
                page.wait_for_selector("strong.thinking", timeout=15000)
                assert "P1 (mcts:50) is thinking" in page.inner_text(".status")
                assert page.locator("button.move").count() == 0
                if thought == 0:
                    page.screenshot(path=os.path.join(shots, "bot-thinking.png"), full_page=True)
                thought += 1
                # ... and shows the bot's move when it comes, with no reload.
                page.wait_for_selector(f'body[data-version="{version + 2}"]', state="attached",
                                       timeout=30000)
            page.wait_for_selector('body[data-over="yes"]', state="attached", timeout=30000)
            assert "The game is over" in page.inner_text(".status")
            assert thought >= 2 and errors == []
        finally:
            browser.close()
