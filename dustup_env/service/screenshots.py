"""Screenshots of the page for the README, taken with headless Chromium (Debian's package, via Playwright).

    python -m dustup_env.service.screenshots [--out docs/images] [--chromium /usr/bin/chromium]

Starts ``dustup serve`` on a temporary database, plays the ``default`` scenario against ``hard`` for a few
turns (taking the hint for each decision) and shoots the table with an action decision's move points and an
enemy unit's panel, at 1400x1000 and at 800x600 (zoomed in); plays Red and shoots the board turned round;
shoots a ``skirmish`` where a Red unit hides (Blue sees only markers); a ``fire-support`` game with target markers
and the burst of a round on the table, and an ``air-assault`` game with aircraft in flight; then replays a ``hard``
against ``ppo`` game and shoots a frame of the replay.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _server(db: str):
    proc = subprocess.Popen([sys.executable, "-m", "dustup_cli", "serve", "--port", "0", "--db", db],
                            stderr=subprocess.PIPE, text=True)
    for line in proc.stderr:
        if line.startswith("dustup serve: http://"):
            return proc, line.split()[2].rstrip("/")
    raise RuntimeError("dustup serve did not start")


def _renders(page) -> int:
    return int(page.evaluate("Number(document.body.dataset.renders || 0)"))


def _shot_frame(game) -> int:
    """A decision past the middle of the game that made a unit shoot (a frame worth showing)."""
    from dustup_env.rules import Game

    save = game.to_dict()
    g = Game(save["scenario"], seed=save["seed"], options=save["options"])
    n = len(save["decisions"])
    for i, opt in enumerate(save["decisions"], 1):
        before = len(g.event_log())
        g.apply(tuple(opt))
        if i >= n // 2 and any(e["type"] == "ShotResolved" and e["hits"] for e in g.event_log()[before:]):
            return i
    return n // 2


def _play_until(url: str, g: dict, want, prefer=("request_fire",), limit: int = 400) -> dict:
    """Play side 0 of a game through the HTTP API (the AI plays side 1), preferring the options named in ``prefer``,
    until ``want(state)`` holds for ``GET /games/ID``'s answer; that answer."""
    import random

    import httpx

    h = {"Authorization": f"Bearer {g['token']}"}
    rng = random.Random(1)
    for _ in range(limit):
        st = httpx.get(f"{url}/games/{g['game']}", headers=h).json()
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
        httpx.post(f"{url}/games/{g['game']}/play", json={"option": o["option"]}, headers=h).raise_for_status()
    raise RuntimeError("the position sought never came")


def _resume(page, g: dict) -> None:
    page.evaluate("([id, token]) => localStorage.setItem('dustup-game', JSON.stringify({id, token, side: 0}))",
                  [g["game"], g["token"]])
    page.reload()
    n = _renders(page)
    page.click("#resume-game")
    page.wait_for_function(f"Number(document.body.dataset.renders || 0) > {n}")
    page.evaluate("document.getElementById('status').textContent = ''")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m dustup_env.service.screenshots", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="docs/images")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    a = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from dustup_env.agent_registry import make_agent
    from dustup_env.rules import Game

    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    db = tempfile.NamedTemporaryFile(prefix="dustup-shots-", suffix=".db", delete=False).name
    proc, url = _server(db)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=a.chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000}, device_scale_factor=1)
            page.goto(url + "/")
            page.wait_for_selector("#scenario option[value=default]", state="attached")
            page.select_option("#scenario", "default")
            page.select_option("#ai", "hard")
            page.fill("#seed", "3")
            n = _renders(page)
            page.click("#new-game")
            page.wait_for_function(f"Number(document.body.dataset.renders) > {n}")
            # play with the hints until turn 3, then stop at an action decision with move points
            for _ in range(200):
                text = page.locator("#prompt").inner_text()
                if text.startswith("Turn 3") and page.locator("#board .movept").count() >= 10:
                    break  # (the move points of the distance chosen in the move picker)
                page.wait_for_selector("#hint:not([hidden])")
                page.click("#hint")
                page.wait_for_selector("#options button.hinted, #move-picker .compass-btn.hinted")
                n = _renders(page)
                page.locator("#options button.hinted, #move-picker .compass-btn.hinted").first.click()
                page.wait_for_function(f"Number(document.body.dataset.renders) > {n}")
            page.evaluate("document.getElementById('status').textContent = ''")
            page.locator("#board .unit[data-name='Red 2nd Squad']").dispatch_event("click")  # its panel
            page.screenshot(path=str(out / "play.png"))
            page.set_viewport_size({"width": 800, "height": 600})
            page.click("#zoom-in")
            page.screenshot(path=str(out / "play-800x600.png"))
            page.keyboard.press("0")
            page.set_viewport_size({"width": 1400, "height": 1000})
            # playing Red: the board turned round, Red's home edge at the bottom
            page.select_option("#side", "1")
            n = _renders(page)
            page.click("#new-game")
            page.wait_for_function(f"Number(document.body.dataset.renders) > {n}")
            page.evaluate("document.getElementById('status').textContent = ''")
            page.screenshot(path=str(out / "play-red.png"))
            # hidden units: Red's Yankee hides in the wood, a dummy marker in the hut; Blue sees two markers
            import httpx

            from dustup_env.rules import load_scenario
            doc = json.loads(json.dumps(load_scenario("skirmish")))
            doc["sides"][1]["units"][1].update(position=[10.5, 19.5], hidden=True)
            doc["sides"][1]["dummies"] = [[21.5, 25.5]]
            hg = httpx.post(url + "/games", json={"scenario": doc, "seed": 4, "ai": "hard", "side": 0}).json()
            page.evaluate("([id, token]) => localStorage.setItem('dustup-game', JSON.stringify({id, token, side: 0}))",
                          [hg["game"], hg["token"]])
            page.reload()
            n = _renders(page)
            page.click("#resume-game")
            page.wait_for_function(f"Number(document.body.dataset.renders || 0) > {n}")
            page.screenshot(path=str(out / "hidden.png"))
            # fire support: the target markers (real and dummy look the same) and a round's burst
            fs = httpx.post(url + "/games", json={"scenario": "fire-support", "seed": 3, "ai": "hard", "side": 0}).json()
            _play_until(url, fs, lambda s: s["view"].get("entities") and s["view"].get("bursts"))
            _resume(page, fs)
            page.screenshot(path=str(out / "fire-support.png"))
            # air assault: the dropships and the strike fighter in flight
            aa = httpx.post(url + "/games", json={"scenario": "air-assault", "seed": 3, "ai": "hard", "side": 0}).json()
            _play_until(url, aa, lambda s: sum(1 for u in s["view"]["units"] if u.get("air")) >= 2, prefer=())
            _resume(page, aa)
            page.screenshot(path=str(out / "air-assault.png"))
            # a replay of hard against ppo
            g = Game("default", seed=11)
            agents = [make_agent("hard", seed=1), make_agent("ppo", seed=2)]
            while not g.over:
                d = g.decision()
                g.apply(agents[d.side].choose(g, d))
            save = Path(tempfile.mkdtemp()) / "hard-vs-ppo.json"
            save.write_text(json.dumps(g.to_dict()))
            page.click("#tab-replay")
            page.set_input_files("#save-file", str(save))
            page.wait_for_function("document.body.dataset.frame === '0'")
            k = _shot_frame(g)
            page.evaluate(f"document.getElementById('rp-slider').value = {k}; "
                          f"document.getElementById('rp-slider').dispatchEvent(new Event('input'))")
            page.wait_for_function(f"document.body.dataset.frame === '{k}'")
            time.sleep(0.2)
            page.screenshot(path=str(out / "replay.png"))
            browser.close()
    finally:
        proc.terminate()
        proc.wait(30)
        for suffix in ("", "-wal", "-shm"):
            Path(db + suffix).unlink(missing_ok=True)
    print(f"wrote play.png, play-800x600.png, play-red.png, hidden.png, fire-support.png, air-assault.png and replay.png "
          f"in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
