"""Property test: random games on the mechanised test scenario (APCs and IFVs carrying squads, tanks, a mech, a
hover, a truck, woods, a river with a ford, open water, wire and dragon's teeth) over several option sets, with
vehicle damage and destruction injected during actions (the vehicle-combat rules do not exist yet, RN-764).
Every invariant of test_properties holds, and the vehicle ones: passengers are never both mounted and on the
table, carrier / passenger / tow links agree both ways, no out-of-play unit acts, damage markers only grow, a
hidden vehicle carries and tows nothing, wrecks stay, and is_legal equals membership."""
import copy
import random

import pytest
from test_properties import Invariants
from vehicle_helpers import mechanised

from dustup_env.rules import Game, GameOverError
from dustup_env.rules.armoured_dustup.indicating_damaged_vehicles import vehicle_damaged, vehicle_destroyed
from dustup_env.rules.armoured_dustup import heavy_weapons as hw
from dustup_env.rules.armoured_dustup.casevac_vehicle import CasevacState
from dustup_env.rules.armoured_dustup.close_assault import CrewState, crew_uid
from dustup_env.rules.armoured_dustup.transport import places
from dustup_env.rules.armoured_dustup.vehicle_movement import refresh_columns
from dustup_env.rules.kernel.entities import KILLED, OK, WOUNDED

pytestmark = pytest.mark.xdist_group("vehicle_properties")

OPTION_SETS = ({}, {"activation": "chits"}, {"activation": "cards", "turn_end_card": True}, {"night": True},
               {"close_combat": "house", "random_quality": True, "random_leadership": True, "random_confidence": True},
               {"seize_tokens": 2, "measure": "centimetres"})
VEHICLE_FAMILIES = ("mount", "dismount", "approach", "tow", "push", "unhook", "turn", "hatches", "call_casevac",
                    "transfer", "depart")


def scenario_variant(k: int) -> dict:
    doc = mechanised()
    if k % 3 == 2:  # a CASEVAC vehicle for Blue
        doc["sides"][0]["units"].append({"name": "Medevac", "position": [30, 2], "design": "apc_wheeled",
                                         "casevac": True})
    if k % 6 == 1:  # the tank's crew represented by a unit (RN-881)
        doc["sides"][0]["units"].append({"name": "Tank crew", "position": [0, 0], "crew_of": "Tank 1",
                                         "figures": [{"weapon": "rifle", "count": 3}]})
    if k % 6 == 3:  # a limbered towed gun beside the truck (RN-880)
        doc["sides"][0]["units"].append({"name": "Gun", "position": [42, 0.5], "heavy_weapon": "towed_at_gun",
                                         "weapon_ready": False, "figures": [{"weapon": "rifle", "count": 4}]})
    if k % 2:  # a hidden light tank in woods, the red squad starting closer
        doc["terrain"].append({"type": "light_woods", "polygon": [[37, 39], [43, 39], [43, 45], [37, 45]]})
        doc["sides"][1]["units"][2]["hidden"] = True
        doc["sides"][1]["units"][3]["position"] = [20, 34]
    return doc


class VehicleInvariants:
    def __init__(self, g: Game):
        self.damage = [u.veh.damage for u in g.units]
        self.destroyed = set()

    def check(self, g: Game) -> None:
        units = g.units
        for k, u in enumerate(units):
            if k >= len(self.damage):
                self.damage.append(u.veh.damage)
            assert u.veh.damage >= self.damage[k], "damage markers came off"
            self.damage[k] = u.veh.damage
            if u.veh.carrier >= 0:
                v = units[u.veh.carrier]
                assert v.profile.vehicle is not None and u.uid in v.veh.passengers
                assert (u.x, u.y) == (v.x, v.y) and not u.hidden and u.profile.vehicle is None
                assert u not in list(g.enemy_units(1 - u.side)), "a mounted passenger is seen by the enemy"
            if u.veh.passengers:
                assert len(set(u.veh.passengers)) == len(u.veh.passengers)
                assert all(units[p].veh.carrier == u.uid for p in u.veh.passengers)
                crew = crew_uid(g, u)  # a crew takes no places (RN-881)
                assert sum(places(units[p]) for p in u.veh.passengers if p != crew) <= u.profile.vehicle.transport_figures
                assert u.in_play and not u.hidden
            if u.veh.towing >= 0:
                t = units[u.veh.towing]
                assert t.veh.towed_by == u.uid and u.veh.damage == 0 and u.profile.vehicle.can_tow and not u.hidden
                assert t.profile.vehicle is None or t.profile.vehicle.size <= u.profile.vehicle.size + 1
            if u.veh.towed_by >= 0:
                assert units[u.veh.towed_by].veh.towing == u.uid
                if u.profile.vehicle is None:  # a towed gun: limbered, with its crew, the crew rides along (RN-880)
                    st = hw.state(g, u)
                    assert st is not None and not st["ready"] and st["at"] is None and not st["abandoned"]
            if u.veh.hull >= 0 and units[u.veh.hull].in_play:
                h = units[u.veh.hull]
                assert (u.x, u.y, u.veh.facing) == (h.x, h.y, h.veh.facing)
            if u.profile.vehicle is not None:
                assert 0.0 <= u.veh.facing < 360.0
        # vehicles destroyed by fire (Firing at Vehicles) leave wrecks too
        self.destroyed |= {u.uid for u in units if u.profile.vehicle is not None and u.veh.hull < 0
                           and all(f.status == KILLED for f in u.figures)}
        wrecks = [f for f in g.terrain if f["kind"] in ("wreck", "soft_wreck")]
        assert sorted(f["unit"] for f in wrecks) == sorted(self.destroyed)
        for vid, cid in (getattr(g.components.get(CrewState), "crews", None) or {}).items():  # RN-881: a vehicle without its crew only ends
            v, c = units[int(vid)], units[cid]
            if not g.over and c.veh.carrier != v.uid and g.decision().kind == "action" and g.decision().unit == v.uid:
                opts = g.decision().options
                assert opts == (("end",),) or ("end",) not in opts  # only a forced decision besides
        if not g.over:
            d = g.decision()
            if d.kind == "action":
                assert units[d.unit].in_play or units[d.unit].routed_off is False
                assert units[d.unit].in_play, "an out-of-play unit acts"
            if d.kind == "activate":
                for o in d.options:
                    if o[0] == "activate":
                        assert units[o[1]].in_play


def legality_candidates(g: Game, d) -> list:
    side = d.side
    own, enemy = g.side_units[side], g.side_units[1 - side]
    c = list(d.options)
    c += [("move", k, j) for k in range(16) for j in range(4)]
    c += [(f, uid) for f in ("mount", "approach", "tow", "push") for uid in own]
    c += [(f, k) for f in ("dismount", "turn") for k in range(16)]
    c += [("unhook",), ("hatches", "open_up"), ("hatches", "close_down"), ("withdraw",), ("end",), ("recover",),
          ("depart",)] + [(f, uid) for f in ("call_casevac", "transfer") for uid in own]
    c += [("shoot", e, "all") for e in enemy] + [("assault", e) for e in enemy]
    return c


def inject(g: Game, rng: random.Random, inv: VehicleInvariants) -> None:
    """Vehicle combat stand-in during an action (as a shot would): a damage marker or a destroyed vehicle now and
    then, never the acting unit."""
    d = g.decision()
    if d.kind != "action" or rng.random() > 0.06:
        return
    if rng.random() < 0.4:  # a wound on an infantry figure (so that there are wounded to evacuate)
        inf = [(u, i) for u in g.units if u.profile.vehicle is None and u.in_play and u.uid != d.unit
               for i, f in enumerate(u.figures) if f.status == OK and i != u.leader]
        if inf:
            u, i = rng.choice(inf)
            u.set_figure(i, status=WOUNDED, wounds=1)
            g.invalidate()
        return
    vs = [u for u in g.units if u.profile.vehicle is not None and u.in_play and u.uid != d.unit]
    if not vs:
        return
    v = rng.choice(vs)
    if rng.random() < 0.3:
        vehicle_destroyed(g, v)
        if v.veh.hull < 0:
            inv.destroyed.add(v.uid)
    else:
        vehicle_damaged(g, v)
    refresh_columns(g)
    g.invalidate()


def vehicle_policy(g, rng):
    """Random, but keen on the vehicle options: transfers first, calls by units with wounded, departures with
    wounded aboard."""
    d = g.decision()
    transfer = [o for o in d.options if o[0] == "transfer"]
    if transfer:
        return rng.choice(transfer)
    u = g.units[d.unit] if d.unit >= 0 else None
    wounded = u is not None and any(f.status == WOUNDED for f in u.figures)
    aboard = u is not None and (getattr(g.components.get(CasevacState), "casevac", None) or {}).get(str(u.uid), {}).get("aboard", 0) > 0

    def keen(o):
        if o[0] == "turn":
            return False
        if o[0] == "call_casevac":
            return wounded or rng.random() < 0.1
        if o[0] == "depart":
            return aboard or rng.random() < 0.1
        if o[0] == "approach" and str(o[1]) in (getattr(g.components.get(CasevacState), "casevac", None) or {}):
            return wounded
        return True
    veh = [o for o in d.options if o[0] in VEHICLE_FAMILIES and keen(o)]
    if veh and rng.random() < 0.6:
        return rng.choice(veh)
    return rng.choice(d.options)


def play(k: int):
    scn = scenario_variant(k)
    g = Game(scn, seed=70_000 + k, options=OPTION_SETS[k % len(OPTION_SETS)])
    inv, vinv = Invariants(g), VehicleInvariants(g)
    rng = random.Random(k)
    policy = vehicle_policy if k % 3 else (lambda g, r: r.choice(g.decision().options))
    taken = []
    n = 0
    while not g.over:
        assert n < 20_000, "game did not end"
        inject(g, rng, vinv)
        if g.over:
            break
        d = g.decision()
        if n % 7 == 0 and d.kind == "action":
            c = g.clone()
            c.invalidate()
            legal = set(d.options)
            for o in legality_candidates(g, d):
                assert c.is_legal(o) == (o in legal), (o, o in legal)
        opt = policy(g, rng)
        g.apply(opt)
        taken.append(opt)
        n += 1
        inv.check(g)
        vinv.check(g)
    with pytest.raises(GameOverError):
        g.apply(taken[-1])
    return taken


@pytest.mark.parametrize("chunk", range(4))
def test_vehicle_invariants_over_random_games(chunk):
    kinds = set()
    for k in range(chunk * 35, chunk * 35 + 35):
        kinds.update(o[0] for o in play(k))
    assert {"mount", "dismount", "approach", "turn", "hatches", "tow", "push", "unhook", "call_casevac",
            "transfer"} <= kinds, kinds


def test_vehicle_games_are_deterministic_and_round_trip():
    from dustup_env.rules.kernel import saves
    g1, g2 = Game(mechanised(), seed=5), Game(mechanised(), seed=5)
    rng1, rng2 = random.Random(1), random.Random(1)
    while not g1.over:
        o1, o2 = vehicle_policy(g1, rng1), vehicle_policy(g2, rng2)
        assert o1 == o2
        g1.apply(o1)
        g2.apply(o2)
        if len(g1.history) == 150:
            h = Game.from_dict(saves.to_dict(g1)) if hasattr(Game, "from_dict") else saves.from_dict(Game, saves.to_dict(g1))
            assert saves.state_digest(h) == saves.state_digest(g1)
            s = saves.from_snapshot(Game, copy.deepcopy(saves.snapshot(g1)))
            assert saves.state_digest(s) == saves.state_digest(g1)
    assert g1.event_log() == g2.event_log()
