"""The page at ``/`` in a real headless Chromium (Debian's package, driven by Playwright): a whole game against
the AI played by clicking (move points and units on the table, options in the list), then the saved game
replayed, stepping forward and back.  ``make browser`` (run by ``make test``) installs Chromium."""
from __future__ import annotations

import json
import random
import shutil

import httpx
import pytest

from service_helpers import ServerProcess

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install '.[dev]')")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH: run `make browser`")


def _wait_render(page, before: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.renders || 0) > {before}", timeout=60_000)


def _renders(page) -> int:
    return int(page.evaluate("Number(document.body.dataset.renders || 0)"))


def test_play_a_whole_game_by_clicking_then_replay_it(tmp_path):
    srv = ServerProcess(str(tmp_path / "games.db"))
    errors = []
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(srv.url + "/")
            page.wait_for_selector("#scenario option[value=skirmish]", state="attached")
            page.select_option("#scenario", "skirmish")
            page.select_option("#side", "0")
            page.select_option("#ai", "hard")
            page.fill("#seed", "17")
            n = _renders(page)
            page.click("#new-game")
            _wait_render(page, n)
            assert page.locator("#board .unit").count() == 4  # the table is drawn: two units a side
            rng = random.Random(17)
            plays = {"point": 0, "unit": 0, "list": 0}
            while not page.locator("#result").is_visible():
                n = _renders(page)
                points = page.locator("#board .movept")
                clickable = page.locator("#board .unit.clickable")
                r = rng.random()
                if points.count() and r < 0.35:
                    points.nth(rng.randrange(points.count())).dispatch_event("click")  # a move point on the table
                    plays["point"] += 1
                elif clickable.count() and r < 0.6:
                    # (dispatched to the unit itself: a move point or another unit may lie on top of it)
                    clickable.nth(rng.randrange(clickable.count())).dispatch_event("click")
                    buttons = page.locator("#options button")
                    if _renders(page) == n and page.locator("#show-all").is_visible():  # several options: pick one
                        buttons.nth(rng.randrange(buttons.count())).click()
                    plays["unit"] += 1
                else:
                    buttons = page.locator("#options button")
                    buttons.nth(rng.randrange(buttons.count())).click()
                    plays["list"] += 1
                _wait_render(page, n)
                assert sum(plays.values()) < 400
            result = page.locator("#result").inner_text()
            assert ("wins" in result or "draw" in result) and "you played Blue" in result
            log = page.locator("#log li").all_inner_texts()
            assert any(t.startswith("game over") for t in log)
            mine = [t for t in log if t.startswith("You: ")]
            assert len(mine) == sum(plays.values()) and plays["point"] and plays["unit"] and plays["list"]
            assert any("rolls" in t for t in log)  # the AI's dice are in the log
            # the server kept exactly the options clicked
            game = json.loads(page.evaluate("localStorage.getItem('dustup-game')"))
            save = httpx.get(f"{srv.url}/games/{game['id']}/save",
                             headers={"Authorization": f"Bearer {game['token']}"}).json()
            from dustup_env.rules import Game
            g = Game(save["scenario"], seed=save["seed"], options=save["options"])
            ours = 0
            for opt in save["decisions"]:
                ours += g.decision().side == 0
                g.apply(tuple(opt))
            assert g.over and ours == len(mine)

            # replay the saved game from a file: step to the end, back, and with the keyboard
            path = tmp_path / "game.json"
            path.write_text(json.dumps(save))
            page.click("#tab-replay")
            page.set_input_files("#save-file", str(path))
            page.wait_for_function("document.body.dataset.frame === '0'")
            last = len(save["decisions"])
            assert page.locator("#rp-pos").inner_text() == f"decision 0 of {last}"
            page.click("#rp-next")
            page.wait_for_function("document.body.dataset.frame === '1'")
            assert "Decision 1:" in page.locator("#prompt").inner_text()
            page.click("#rp-last")
            page.wait_for_function(f"document.body.dataset.frame === '{last}'")
            assert page.locator("#result").is_visible() and page.locator("#result").inner_text().split(" (")[0] \
                == result.split(" (")[0]
            assert page.locator("#log li.current").last.inner_text().startswith("game over")
            page.click("#rp-prev")
            page.wait_for_function(f"document.body.dataset.frame === '{last - 1}'")
            assert not page.locator("#result").is_visible()
            page.keyboard.press("Home")
            page.wait_for_function("document.body.dataset.frame === '0'")
            page.keyboard.press("ArrowRight")
            page.wait_for_function("document.body.dataset.frame === '1'")
            units_at_1 = page.locator("#board .unit").count()
            assert units_at_1 == 4
            browser.close()
    finally:
        srv.kill()
    assert errors == []


def test_vehicles_on_the_page(tmp_path):
    """A mechanised game (created through the API, resumed in the page): vehicles drawn to scale turned to their
    facing, vehicle decisions listed under their own heading and played from the list, no script errors."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from vehicle_helpers import mechanised

    srv = ServerProcess(str(tmp_path / "games.db"))
    errors = []
    try:
        g = httpx.post(f"{srv.url}/games", json={"scenario": mechanised(), "seed": 5, "ai": "random", "side": 0}).json()
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(srv.url + "/")
            page.evaluate(f"localStorage.setItem('dustup-game', {json.dumps(json.dumps({'id': g['game'], 'token': g['token'], 'side': 0}))})")
            page.reload()
            page.wait_for_selector("#resume-game:not([hidden])")
            n = _renders(page)
            page.click("#resume-game")
            _wait_render(page, n)
            vehicles = page.locator("#board .vehicle")
            assert vehicles.count() == 7  # Blue's four and Red's three, none of the mounted squad
            facings = {page.locator("#board .vehicle").nth(i).get_attribute("data-name"):
                       float(vehicles.nth(i).get_attribute("data-facing")) for i in range(vehicles.count())}
            assert facings["Mech"] == 180.0 and facings["Tank 1"] == 0.0
            assert "Squad 1" not in [page.locator("#board .unit").nth(i).get_attribute("data-name")
                                     for i in range(page.locator("#board .unit").count())]
            rng = random.Random(5)
            vehicle_plays = 0
            for _ in range(60):
                if page.locator("#result").is_visible():
                    break
                n = _renders(page)
                heading = page.locator("#options li.group-heading")
                buttons = page.locator("#options button")
                if heading.count() and rng.random() < 0.7:
                    veh = page.locator("#options li.group-heading ~ li button")
                    veh.nth(rng.randrange(veh.count())).click()
                    vehicle_plays += 1
                else:
                    buttons.nth(rng.randrange(buttons.count())).click()
                _wait_render(page, n)
            assert vehicle_plays >= 3
            assert "damage" not in "".join(errors)
            browser.close()
    finally:
        srv.kill()
    assert errors == []


_OVERLAPS = """(sel) => {
  const boxes = [...document.querySelectorAll(sel)].map((e) => [e.textContent, e.getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [ta, a] = boxes[i], [tb, b] = boxes[j];
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push([ta, tb]);
  }
  return out;
}"""


def _new_game(page, scenario, side, seed, ai="hard"):
    page.select_option("#scenario", scenario)
    page.select_option("#side", str(side))
    page.select_option("#ai", ai)
    page.fill("#seed", str(seed))
    n = _renders(page)
    page.click("#new-game")
    _wait_render(page, n)


def test_a_board_you_can_read_panel_zoom_turned_board_keys_and_log(tmp_path):
    """The board as a wargamer reads it: unit and objective labels that do not collide (default's Platoon HQ and
    2nd Squad at the start), the board turned round for Red, a unit panel on click (own or enemy), zoom and pan,
    keyboard play, the log marked by side and filtered by unit, room for three-digit event numbers, the set-up
    bar naming a resumed game's scenario; a click's re-render fast on armour (median at most 100 ms); screenshots
    at 1400x1000 and 800x600 (into docs/images when DUSTUP_README_SHOTS=1, for the README)."""
    import os
    import statistics
    from pathlib import Path

    shots = Path(__file__).parent.parent / "docs" / "images" if os.environ.get("DUSTUP_README_SHOTS") else tmp_path
    srv = ServerProcess(str(tmp_path / "games.db"))
    errors = []
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(srv.url + "/")
            page.wait_for_selector("#scenario option[value=default]", state="attached")
            # Blue at the start of default: labels clear of each other and of the objectives' names
            _new_game(page, "default", 0, 3)
            assert not page.locator("#board-turned").is_visible() and page.locator("#board #turned").count() == 0
            assert page.evaluate(_OVERLAPS, "#board .unit-label, #board .objective-name") == []
            assert page.evaluate("""() => {  // the objectives' names are drawn over the units, never under them
                const units = [...document.querySelectorAll('#board .unit')], last = units[units.length - 1];
                return [...document.querySelectorAll('#board .objective-name')].every(
                  (t) => last.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING); }""")
            names = page.evaluate("[...document.querySelectorAll('#board .unit-label')].map((e) => e.textContent)")
            assert "Blue Platoon HQ" in names and "Red 2nd Squad" in names and len(set(names)) == len(names)
            # colour-blind-safe side colours
            fills = {page.locator("#board .unit-label").nth(i).get_attribute("fill") for i in range(len(names))}
            assert fills == {"#0072b2", "#d55e00"}
            # a unit panel for an enemy unit (everything the side may know of it)
            page.locator("#board .unit[data-name='Red 1st Squad']").dispatch_event("click")
            panel = page.locator("#unit-panel")
            assert panel.is_visible()
            text = panel.inner_text()
            for word in ("Red 1st Squad", "the enemy", "quality", "leadership", "confidence", "suppression",
                         "casualties", "weapons", "armour", "activation"):
                assert word in text
            page.keyboard.press("Escape")
            assert not panel.is_visible()
            # the log: room for three-digit numbers
            room = page.evaluate("""() => { const log = document.getElementById('log');
                const c = document.createElement('canvas').getContext('2d'); c.font = getComputedStyle(log).font;
                return [parseFloat(getComputedStyle(log).paddingLeft), c.measureText('999.').width]; }""")
            assert room[0] >= room[1] + 8, room
            # keyboard play: 1 chooses the first option; the log marked by side and filtered by unit
            for _ in range(12):
                if page.locator("#log li.side-0").count() and page.locator("#log li.side-1").count() \
                        and page.locator("#log li:has-text('Blue 1st Squad')").count():
                    break
                n = _renders(page)
                page.keyboard.press("1")
                _wait_render(page, n)
            assert page.locator("#log li.side-0").count() and page.locator("#log li.side-1").count()
            page.select_option("#log-filter", label="Blue 1st Squad")
            shown = [t for t in page.locator("#log li:not(.filtered):not(.turn)").all_inner_texts()]
            assert shown and all("Blue 1st Squad" in t for t in shown)
            page.select_option("#log-filter", "")
            # zoom and pan, by the buttons and the keys
            page.click("#zoom-in")
            assert float(page.locator("#board").get_attribute("data-zoom")) > 1.4
            box = page.locator("#board").get_attribute("viewBox")
            page.keyboard.press("Shift+ArrowRight")
            assert page.locator("#board").get_attribute("viewBox") != box
            page.keyboard.press("0")
            assert page.locator("#board").get_attribute("data-zoom") == "1.00"
            page.screenshot(path=str(shots / "play-1400x1000.png"))

            # Red: the board turned round, Red's home edge at the bottom; a panel of an own unit
            _new_game(page, "default", 1, 3)
            assert page.locator("#board-turned").is_visible() and page.locator("#board #turned").count() == 1
            red = page.locator("#board .unit[data-name='Red Platoon HQ']").bounding_box()
            blue = page.locator("#board .unit[data-name='Blue Platoon HQ']").bounding_box()
            assert red["y"] > blue["y"]  # own side at the bottom
            assert page.evaluate(_OVERLAPS, "#board .unit-label, #board .objective-name") == []
            page.locator("#board .unit[data-name='Red 2nd Squad']").focus()
            page.keyboard.press("Enter")  # a unit's panel from the keyboard
            assert "Red 2nd Squad" in page.locator("#unit-panel").inner_text()
            assert "the enemy" not in page.locator("#unit-panel").inner_text()
            page.set_viewport_size({"width": 800, "height": 600})
            page.click("#zoom-in")
            page.screenshot(path=str(shots / "play-800x600.png"))
            page.set_viewport_size({"width": 1400, "height": 1000})

            # "Resume your game": the set-up bar names that game's scenario and side
            page.reload()
            page.wait_for_selector("#resume-game:not([hidden])")
            assert page.locator("#scenario").input_value() == "skirmish"
            n = _renders(page)
            page.click("#resume-game")
            _wait_render(page, n)
            assert page.locator("#scenario").input_value() == "default" and page.locator("#side").input_value() == "1"

            # armour: a click's re-render (a unit with several options: the list filtered, the board redrawn)
            _new_game(page, "armour", 0, 2, ai="random")
            times = []
            for _ in range(40):
                if len(times) >= 15 or page.locator("#result").is_visible():
                    break
                # from the click until the next frame is painted (the script, style, layout and paint)
                # (a unit clicked: its panel and its sight and range drawn)
                t = page.evaluate("""async () => {
                  const g = document.querySelector('#board .unit');
                  if (!g) return null;
                  const t0 = performance.now();
                  g.dispatchEvent(new MouseEvent('click', { bubbles: true }));
                  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
                  const panel = document.querySelector('#unit-panel');
                  return panel && !panel.hidden ? performance.now() - t0 : null; }""")
                if t is not None:
                    times.append(t)
                    page.keyboard.press("Escape")
                n = _renders(page)
                page.locator("#options button").first.click()
                _wait_render(page, n)
            print(f"armour: a click's re-render, median {statistics.median(times):.1f} ms over {len(times)} clicks")
            assert len(times) >= 5 and statistics.median(times) <= 100, times
            browser.close()
    finally:
        srv.kill()
    assert errors == []
    assert (shots / "play-1400x1000.png").exists() and (shots / "play-800x600.png").exists()


def test_odds_sight_measure_and_move_preview_on_the_page(tmp_path):
    """The player's insight in the page: each shoot option shows the server's odds beside it and on its target when
    hovering; the acting unit's sight and range is drawn and listed; the move picker (a distance, then a compass
    point) shows where the move may end and plays the move; the measuring tool measures between two clicks."""
    srv = ServerProcess(str(tmp_path / "games.db"))
    errors = []
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(srv.url + "/")
            page.wait_for_selector("#scenario option[value=default]", state="attached")
            page.select_option("#scenario", "default")
            page.select_option("#ai", "random")
            page.fill("#seed", "3")
            n = _renders(page)
            page.click("#new-game")
            _wait_render(page, n)
            game = json.loads(page.evaluate("localStorage.getItem('dustup-game')"))
            auth = {"Authorization": f"Bearer {game['token']}"}
            rng = random.Random(3)
            seen = {"odds": 0, "sight": 0, "picker": 0, "moved": 0}
            for _ in range(80):
                if page.locator("#result").is_visible():
                    break
                st = httpx.get(f"{srv.url}/games/{game['id']}", headers=auth).json()
                d = st["decision"]
                n = _renders(page)
                if d and d["kind"] == "action":
                    # sight and range of the acting unit: listed, and a line to each enemy unit it sees
                    page.wait_for_function(f"(document.body.dataset.sight || '') === 'unit={d['unit']}'")
                    sg = httpx.get(f"{srv.url}/games/{game['id']}/sight", params={"unit": d["unit"]}, headers=auth).json()
                    page.wait_for_function(f"document.querySelectorAll('#board line.los').length === {len(sg['sees'])}")
                    assert page.locator("#sight-panel").inner_text().startswith("Sight and range of")
                    seen["sight"] += 1
                    shots = [o for o in d["options"] if o["option"][0] == "shoot"]
                    if shots and seen["odds"] < 3:
                        o = shots[0]
                        btn = page.locator(f"#options button[data-option='{json.dumps(o['option'], separators=(',', ':'))}']")
                        assert btn.locator(".odds").inner_text() == o["odds_text"]
                        assert "vs d" in o["odds_text"] and "major" in o["odds_text"]
                        target = page.locator(f"#board .unit[data-uid='{o['target']}']").first
                        target.hover(force=True)
                        page.wait_for_selector("#odds-tip:not([hidden])")
                        assert o["odds_text"] in page.locator("#odds-tip").inner_text()
                        page.mouse.move(1, 1)
                        seen["odds"] += 1
                    moves = [o for o in d["options"] if o["option"][0] == "move"]
                    if moves:
                        page.wait_for_selector("#board polygon.reach-max")
                        assert page.locator("#options button[data-option^='[\"move\"']").count() == 0
                        k = moves[-1]["option"][2]
                        page.click(f"#move-picker .dist[data-k='{k}']")
                        pts = page.locator("#board .movept")
                        assert 0 < pts.count() <= 16
                        assert all(json.loads(pts.nth(i).get_attribute("data-option"))[2] == k for i in range(pts.count()))
                        seen["picker"] += 1
                        if rng.random() < 0.5:
                            btns = page.locator("#move-picker .compass-btn:not([disabled])")
                            btns.nth(rng.randrange(btns.count())).click()
                            seen["moved"] += 1
                            _wait_render(page, n)
                            continue
                buttons = page.locator("#options button")
                buttons.nth(rng.randrange(buttons.count())).click()
                _wait_render(page, n)
                if all(seen.values()) and seen["odds"] >= 2:
                    break
            assert all(seen.values()), seen
            # the measuring tool: two clicks on the table
            page.click("#measure-tool")
            box = page.locator("#board").bounding_box()
            page.mouse.click(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.5)
            page.mouse.click(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.5)
            page.wait_for_function("document.body.dataset.measured !== undefined")
            page.wait_for_selector("#board line.measure-line", state="attached")
            assert page.locator("#sight-panel").inner_text().count("Measured: ") == 1
            import os
            page.screenshot(path=os.path.join(os.environ.get("DUSTUP_SCREENSHOT_DIR", str(tmp_path)), "insight.png"))
            browser.close()
    finally:
        srv.kill()
    assert errors == []


def _play_api_until(srv, g, want, prefer=("request_fire",), limit=400):
    """Play side 0 of a game through the HTTP API (the AI plays side 1), preferring the options named in ``prefer``,
    until ``want(state)`` holds for the state of ``GET /games/ID``."""
    import time
    h = {"Authorization": f"Bearer {g['token']}"}
    rng = random.Random(1)
    for _ in range(limit):
        st = httpx.get(f"{srv.url}/games/{g['game']}", headers=h).json()
        if want(st):
            return st
        if st["over"]:
            break
        d = st["decision"]
        if d is None:
            time.sleep(0.05)
            continue
        pick = [o for o in d["options"] if o["option"][0] in prefer]
        o = pick[-1] if pick else rng.choice(d["options"])
        r = httpx.post(f"{srv.url}/games/{g['game']}/play", json={"option": o["option"]}, headers=h)
        assert r.status_code == 200, r.text
    raise AssertionError("the position sought never came")


def _resume(page, srv, g):
    page.goto(srv.url + "/")
    page.evaluate(f"localStorage.setItem('dustup-game', {json.dumps(json.dumps({'id': g['game'], 'token': g['token'], 'side': 0}))})")
    page.reload()
    page.wait_for_selector("#resume-game:not([hidden])")
    n = _renders(page)
    page.click("#resume-game")
    _wait_render(page, n)


def test_table_entities_bursts_and_aircraft_on_the_page(tmp_path):
    """What the table holds beyond the units, drawn from the side's view: on fire-support, a mark per target marker
    (data-kind="fire_target", real and dummy alike) and the bursts of the rounds that landed, the request's odds
    beside it, the kinds in the legend; on air-assault, each aircraft on the table marked (data-kind="aircraft", its
    flight state), those off the table not drawn but listed."""
    srv = ServerProcess(str(tmp_path / "games.db"))
    errors = []
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            # fire-support: a request's odds beside it
            g = httpx.post(f"{srv.url}/games", json={"scenario": "fire-support", "seed": 3, "ai": "hard", "side": 0}).json()
            st = _play_api_until(srv, g, lambda s: s["decision"] is not None and any(
                o["option"][0] == "request_fire" for o in s["decision"]["options"]), prefer=())
            _resume(page, srv, g)
            req = next(o for o in st["decision"]["options"] if o["option"][0] == "request_fire")
            btn = page.locator(f"#options button[data-option='{json.dumps(req['option'], separators=(',', ':'))}']")
            assert "success" in btn.locator(".odds").inner_text() and "on target" in btn.locator(".odds").inner_text()
            assert "accuracy of each of" in btn.locator(".odds").get_attribute("title")
            # placing the target marker: a point on the table per option, its accuracy in its title; one clicked
            st = _play_api_until(srv, g, lambda s: s["decision"] is not None and s["decision"]["kind"] == "fire_target")
            _resume(page, srv, g)
            pts = page.locator("#board .pointopt[data-kind='fire_target']")
            assert pts.count() == len(st["decision"]["options"]) > 0
            assert "on target" in pts.first.locator("title").text_content()
            n = _renders(page)
            pts.first.dispatch_event("click")
            _wait_render(page, n)
            # then target markers and bursts
            st = _play_api_until(srv, g, lambda s: s["view"].get("entities") and s["view"].get("bursts"))
            _resume(page, srv, g)
            ents = st["view"]["entities"]
            assert page.locator("#board .entity[data-kind='fire_target']").count() == len(ents)
            assert page.locator("#board .burst[data-kind='burst']").count() == len(st["view"]["bursts"])
            for kind in ("fire_target", "burst"):
                assert page.locator(f"#legend-features span[data-kind='{kind}']").count() == 1
            page.screenshot(path=str(tmp_path / "fire-support.png"))
            # air-assault: aircraft on the table, their flight state
            g = httpx.post(f"{srv.url}/games", json={"scenario": "air-assault", "seed": 3, "ai": "hard", "side": 0}).json()
            st = _play_api_until(srv, g, lambda s: any(u.get("air") for u in s["view"]["units"]), prefer=())
            _resume(page, srv, g)
            flying = [u for u in st["view"]["units"] if u.get("air") and u.get("carrier", -1) < 0]
            marks = page.locator("#board .aircraft[data-kind='aircraft']")
            assert marks.count() == len(flying) > 0
            assert {marks.nth(i).get_attribute("data-mode") for i in range(marks.count())} == {u["air"]["mode"] for u in flying}
            marks.first.dispatch_event("click")  # its panel says its flight state
            assert "flight" in page.locator("#unit-panel").inner_text()
            assert marks.first.get_attribute("data-mode") in page.locator("#unit-panel").inner_text()
            off = [u for u in st["view"]["units"] if u.get("vehicle") and u["location"] != "table"]
            for u in off:
                assert page.locator(f"#board .unit[data-uid='{u['uid']}']").count() == 0
                assert u["name"] in page.locator("#legend").inner_text()
            assert page.locator("#legend-features span[data-kind='aircraft']").count() == 1
            browser.close()
    finally:
        srv.kill()
    assert errors == []


def test_a_hinted_move_is_marked_in_the_move_picker(tmp_path):
    """``Hint`` marks the option the AI would play; a move (not in the list: the compass picker) is marked on the
    picker's compass point, its distance chosen."""
    srv = ServerProcess(str(tmp_path / "games.db"))
    errors = []
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(srv.url + "/")
            page.wait_for_selector("#scenario option[value=default]", state="attached")
            _new_game(page, "default", 0, 3)
            moved = 0
            for _ in range(60):
                page.evaluate("document.getElementById('status').textContent = ''")
                page.click("#hint")
                page.wait_for_function("document.getElementById('status').textContent.startsWith('hint')")
                hinted = page.locator("#options button.hinted, #move-picker .compass-btn.hinted")
                assert hinted.count() == 1, page.locator("#status").inner_text()
                if ": move " in page.locator("#status").inner_text():
                    opt = json.loads(page.locator("#move-picker .compass-btn.hinted").get_attribute("data-option"))
                    assert page.locator(f"#move-picker .dist.on[data-k='{opt[2]}']").count() == 1
                    moved += 1
                n = _renders(page)
                hinted.first.click()
                _wait_render(page, n)
                if moved >= 2:
                    break
            assert moved >= 2
            browser.close()
    finally:
        srv.kill()
    assert errors == []
