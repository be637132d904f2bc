"""Vehicles and heavy weapons in what front-ends see: the engine protocol plays complete games of the mechanised
scenario (a real ``dustup engine`` subprocess) with vehicles in the view, the HTTP view holds them, every option of
the vehicle and weapon families has its own label, and a side's view does not change with the enemy's passengers."""
from __future__ import annotations

import random

import numpy as np

from conftest import scenario, unit
from service_helpers import EngineProcess
from vehicle_helpers import mechanised, vehicle

from dustup_env import narrate as nr
from dustup_env.codec import FAMILIES
from dustup_env.rules import Game
from dustup_env.rules.armoured_dustup.vehicle_movement import FOOTPRINT_BASE, FOOTPRINT_PER_SIZE
from dustup_env.service import views
from dustup_env.rules.armoured_dustup.heavy_weapons import HeavyState
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state

ARMOURED_FAMILIES = {"fire_heavy", "fire_iavr", "fire_guided", "decoy", "area_protection", "mount", "dismount",
                     "approach", "tow", "push", "unhook", "turn", "hatches", "fire_vehicle", "fire_slaved", "fire_pair",
                     "shoot_passengers", "passenger_shoot", "assault_vehicle", "tank_shock", "call_casevac", "transfer",
                     "depart"}


def _sample_args(kinds) -> tuple:
    out = []
    for k in kinds:
        if isinstance(k, tuple):
            out.append(k[0])
        elif k == "mode":
            out.append("all")
        else:
            out.append(1)
    return tuple(out)


def test_every_family_has_a_label():
    names = {n for n, _ in FAMILIES}
    assert ARMOURED_FAMILIES <= names
    know = nr.Knowledge(names={1: "Tank"})
    for name, kinds in FAMILIES:
        opt = (name,) + _sample_args(kinds)
        label = nr.option_label(opt, "intercept" if name in ("decoy", "area_protection") else "action", know)
        assert name in nr._OPTION and label, (opt, label)  # every family has its own labeller
        if name in ARMOURED_FAMILIES:
            assert label != nr.generic_label(opt), (opt, label)
    for task in ("set_up", "dismantle", "limber", "unlimber", "repair", "remote", "deploy_protection"):
        assert nr.option_label(("reorganise", task)) != nr.generic_label(("reorganise", task))


def test_footprint_matches_the_rules():
    assert (views.FOOTPRINT_BASE, views.FOOTPRINT_PER_SIZE) == (FOOTPRINT_BASE, FOOTPRINT_PER_SIZE)


def _check_view(view: dict, side: int) -> int:
    """Vehicles carry their state; an enemy vehicle names no passengers and no enemy unit is shown mounted."""
    n = 0
    for u in view["units"]:
        if u["side"] != side:
            assert "carrier" not in u, u["name"]
        v = u.get("vehicle")
        if v is None:
            continue
        n += 1
        assert 0.0 <= v["facing"] < 360.0 and v["damage"] >= 0 and v["footprint"] > 0
        assert set(v["armour"]) == {"front", "side", "rear", "top"}
        assert all({"name", "fired", "ready", "arc"} <= set(w) for w in v["weapons"])
        assert ("passengers" in v) == (u["side"] == side), u["name"]
    return n


def test_protocol_plays_mechanised_games_with_vehicles_in_the_view():
    eng = EngineProcess()
    seen_options = set()
    for seed, you, ai in ((1, 0, "random"), (2, 1, "random"), (3, 0, "scripted"), (4, 1, "hard")):
        rng = random.Random(seed)
        r = eng.ask(cmd="new", scenario=mechanised(), seed=seed, you=you, ai=ai)
        assert r["ok"], r
        decision, over, plays = r["decision"], r["over"], 0
        while not over:
            for o in decision["options"]:
                assert o["label"] and (o["option"][0] not in ARMOURED_FAMILIES
                                       or o["label"] != nr.generic_label(o["option"])), o
                if o["option"][0] in ARMOURED_FAMILIES:
                    seen_options.add(o["option"][0])
                    assert o.get("group") == "vehicle", o
            r = eng.ask(cmd="play", option=rng.choice(decision["options"])["option"])
            assert r["ok"], r
            decision, over = r["decision"], r["over"]
            plays += 1
            if plays % 5 == 1:
                v = eng.ask(cmd="view")
                assert v["ok"] and _check_view(v["view"], you) >= 1
            assert plays < 3000
        assert r["result"]["winner"] in (-1, 0, 1)
        v = eng.ask(cmd="view")
        assert v["ok"] and _check_view(v["view"], you) >= 1
    assert eng.close() == 0
    assert "Traceback" not in eng.stderr()
    assert {"turn", "fire_vehicle"} <= seen_options, seen_options


def _mounted_in(carrier):
    scn = mechanised()
    for spec in scn["sides"][0]["units"]:
        if spec["name"] == "Squad 1":
            spec["carried_by"] = carrier
    return Game(scn, seed=9)


def test_a_side_view_does_not_change_with_the_enemy_passengers():
    a, b = _mounted_in("APC 1"), _mounted_in("IFV 1")
    assert views.table_view(a, 1) == views.table_view(b, 1)
    own = [views.table_view(g, 0) for g in (a, b)]
    assert own[0] != own[1]
    carriers = {u["name"]: u["vehicle"]["passengers"] for u in own[0]["units"] if u.get("vehicle") and u["side"] == 0}
    assert [p["name"] for p in carriers["APC 1"]] == ["Squad 1"] and carriers["IFV 1"] == []
    squad = next(u for u in own[0]["units"] if u["name"] == "Squad 1")
    assert squad["carrier"] == next(u["uid"] for u in own[0]["units"] if u["name"] == "APC 1")
    # a spectator (replays) sees everything
    spec = views.table_view(a, None)
    assert any(u.get("carrier", -1) >= 0 for u in spec["units"])


def test_heavy_weapons_in_the_view():
    blue = [unit("AT team", (10, 5), figures=(("rifle", 4),), heavy_weapon="missile_team", weapon_ready=False),
            unit("Gun", (20, 5), figures=(("rifle", 4),), heavy_weapon="towed_at_gun", area_protection="d8"),
            vehicle("Tank", (30, 5), "main_battle_tank")]
    g = Game(scenario(blue, [unit("Red", (20, 40), figures=(("rifle", 5),), ecm="d8")]), seed=0)
    v = {u["name"]: u for u in views.table_view(g, 1)["units"]}
    assert v["AT team"]["heavy_weapon"]["state"] == "dismantled" and v["AT team"]["heavy_weapon"]["guided"]
    assert v["Gun"]["heavy_weapon"]["state"] == "set up" and v["Gun"]["heavy_weapon"]["damage"] == "working"
    assert v["Gun"]["area_protection"]["state"] == "carried" and v["Red"]["ecm"] == "d8"
    g.state_of(HeavyState).heavy["1"]["damage"] = 1
    assert views.table_view(g, 0)["units"][1]["heavy_weapon"]["damage"] == "disabled"


def test_server_view_holds_vehicles(tmp_path):
    from fastapi.testclient import TestClient

    from dustup_env.service.server import create_app
    from dustup_env.service.store import Store
    store = Store(str(tmp_path / "games.db"))
    try:
        with TestClient(create_app(store)) as c:
            r = c.post("/games", json={"scenario": mechanised(), "seed": 3, "ai": "random", "side": 1})
            assert r.status_code == 201, r.text
            g = r.json()
            st = c.get(f"/games/{g['game']}", headers={"Authorization": f"Bearer {g['token']}"}).json()
            assert _check_view(st["view"], 1) >= 3
            rec = {u["name"]: u for u in st["view"]["units"]}
            assert rec["Mech"]["vehicle"]["facing"] == 180.0 and "passengers" in rec["Mech"]["vehicle"]
            assert "passengers" not in rec["APC 1"]["vehicle"] and "Squad 1" not in rec
    finally:
        store.close()


# ---------------------------------------------------------------------------------------------- render.py
def test_text_map_shows_vehicles_and_their_facing():
    from dustup_env.render import render_ansi
    g = Game(mechanised(), seed=0)
    text = render_ansi(g)
    rows = text.splitlines()
    grid = [r for r in rows if r.startswith("|")]
    # Tank 1 (a2) faces north: an arrow in the cell above its label; the Light tank (b2) faces south: below
    (r_a2,) = [i for i, r in enumerate(grid) if "a2" in r]
    c = grid[r_a2].index("a2")
    assert grid[r_a2 - 1][c] == "^"
    (r_b2,) = [i for i, r in enumerate(grid) if "b2" in r]
    assert grid[r_b2 + 1][grid[r_b2].index("b2")] == "v"
    assert "A3" not in "".join(grid)  # the mounted squad is in its vehicle
    assert "carries A3" in text and "mounted in a0" in text and "facing S (180 deg)" in text
    assert "a/b=vehicle" in text and "?" not in "".join(grid)  # the ford has its own letter
    # Red's view: the squad in Blue's APC is not seen, nor whom the APC carries
    red = render_ansi(g, side=1)
    assert "carries" not in red and "not seen (in a vehicle)" in red and "mounted in" not in red
    t = g.units[g.side_units[0][2]]
    vehicle_state(t).facing, vehicle_state(t).damage, vehicle_state(t).immobilised = 90.0, 2, True
    text = render_ansi(g)
    assert "facing E (90 deg); 2 damage markers; immobilised" in text
    grid = [r for r in text.splitlines() if r.startswith("|")]
    (r_a2,) = [i for i, r in enumerate(grid) if "a2" in r]
    assert grid[r_a2][grid[r_a2].index("a2") + 2] == ">"


def test_image_draws_vehicles_turned_to_their_facing():
    from dustup_env.render import _SIDE_COLOURS, PX_PER_INCH, render_rgb
    g = Game(mechanised(), seed=0)
    t = g.units[g.side_units[0][2]]  # Tank 1 at (36, 6), size 3: a hull 4" long, 2.6" wide
    blue = np.array(_SIDE_COLOURS[0])

    def is_blue(img, x, y):
        px = img[int(round(img.shape[0] - y * PX_PER_INCH)), int(round(x * PX_PER_INCH))]
        return bool(np.abs(px.astype(int) - blue).max() < 10)

    img = render_rgb(g)
    assert is_blue(img, 36.0, 6.0 - 1.7) and not is_blue(img, 36.0 - 1.7, 6.0)  # long north-south
    vehicle_state(t).facing = 90.0
    img = render_rgb(g)
    assert is_blue(img, 36.0 - 1.7, 6.0) and not is_blue(img, 36.0, 6.0 - 1.7)  # turned: long east-west
    assert img.shape == (480, 480, 3)


def test_text_map_lists_heavy_weapons():
    from dustup_env.render import render_ansi
    blue = [unit("AT team", (10, 5), figures=(("rifle", 4),), heavy_weapon="missile_team", weapon_ready=False),
            unit("Gun", (20, 5), figures=(("rifle", 4),), heavy_weapon="towed_at_gun")]
    g = Game(scenario(blue, [unit("Red", (20, 40), figures=(("rifle", 5),))]), seed=0)
    g.state_of(HeavyState).heavy["1"]["damage"] = 1
    text = render_ansi(g, side=1)
    assert "AT team                4/4 figures fit, suppression 0, confident; heavy weapon not set up" in text
    assert "heavy weapon set up, disabled" in text


def test_protocol_view_and_decision_of_a_side_ignore_the_enemy_passengers_and_hidden_vehicles():
    """Through ``dustup engine`` (two front-end players): Red's view, decision and events are identical whichever of
    Blue's vehicles carries Squad 1; Blue's IFV, hidden in the woods, shows Red only its name (and a marker)."""
    def scn(carrier):
        s = mechanised()
        for spec in s["sides"][0]["units"]:
            if spec["name"] == "Squad 1":
                spec["carried_by"] = carrier
            if spec["name"] == "IFV 1":
                spec["hidden"] = True
                spec["position"] = [7.0, 22.0]  # in the light woods
        return s

    answers = []
    for carrier in ("APC 1", "Truck"):
        eng = EngineProcess()
        r = eng.ask(cmd="new", scenario=scn(carrier), seed=3, ai=None)
        assert r["ok"], r
        red = [eng.ask(cmd=c, side=1) for c in ("view", "decision", "events")]
        assert all(x["ok"] for x in red)
        answers.append(red)
        blue = eng.ask(cmd="view", side=0)["view"]
        assert {u["name"] for u in blue["units"]} >= {"Squad 1", "IFV 1"}
        assert eng.close() == 0
    assert answers[0] == answers[1]
    view = answers[0][0]["view"]
    names = {u["name"] for u in view["units"]}
    assert "Squad 1" not in names and "IFV 1" not in names
    assert [h["name"] for h in view["hidden_units"]] == ["IFV 1"] and view["markers"]
