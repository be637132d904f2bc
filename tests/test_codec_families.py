"""The action layout is made of the families the rules declare; a rule outside the catalogue brings its own
families (here one with a ``point`` argument: a place on the table) and gets a layout of its own."""
import random

from dustup_env import codec as C
from dustup_env.rules import Game, Rule
from dustup_env.rules.catalogue import STANDARD
from dustup_env.rules.kernel.measurement import POINT_GRID, grid_points
from dustup_env.rules.kernel.ruleset import Family


def test_the_standard_layout_is_the_rules_families_in_order():
    fams = C.rule_families(STANDARD)
    orders = [f.order for f in fams]
    assert orders == sorted(set(orders)) and orders[:46] == list(range(1, 47))  # the infantry layout, then appended
    assert C.FAMILIES[:3] == (("first", ()), ("second", ()), ("activate", ("own",)))
    assert orders[46:53] == list(range(47, 54))  # Armoured Dustup weapons (47-59 reserved), appended
    assert orders[53:64] == list(range(60, 71))  # the vehicles (60-79 reserved), appended
    assert orders[74:80] == [110, 120, 121, 122, 123, 124]  # artillery and air support (110-139), appended
    assert orders[80:93] == list(range(140, 153))  # aerospace operations (140-159 reserved), appended
    assert orders[93:98] == list(range(200, 205))  # Additional Rules: fire and smoke (200-219), appended
    assert orders[98:103] == [220, 221, 222, 223, 224]  # mines and explosives (220-239 reserved), appended
    assert orders[103:106] == [240, 241, 242]  # buildings and fortifications (240-259)
    assert orders[106:113] == [260, 261, 262, 263, 270, 271, 272]  # EW and drones (260-279), appended
    assert orders[113:] == [280, 281, 290]  # Aerospace Operations' cargo (280-299): load, unload, drop from the air
    # 1012 for the infantry and Armoured Dustup families, then the artillery and aerospace blocks
    assert C.LAYOUT.blocks[74][0] == 1012 and C.LAYOUT.blocks[80][0] == 1244
    assert C.LAYOUT.blocks[93][0] == 1472  # then the Additional Rules
    ew_drones = 1 + 3 * C.MAX_MARKERS + 2 * 3 * C.MAX_UNITS + 1 + C.N_POINTS + C.MAX_MARKERS
    cargo = 2 * C.MAX_UNITS * 2 + 2  # load and unload a unit's cargo; drop cargo from the air (two sizes)
    assert C.N_ACTIONS == 1472 + 162 + (2 * 32 + 3) + (32 * 3 * 4 + 12 * 4 + 12) + ew_drones + cargo
    assert C.action_name(C.MOVE0) == "move dir 0 (mirrored frame) 3in"
    owners = {f.name: r.name for r in STANDARD for f in r.families}
    assert owners["shoot"] == "Shoot Action" and owners["detect"] == "Detect Action"
    assert (owners["fire_heavy"], owners["fire_iavr"], owners["fire_guided"], owners["decoy"]) == (
        "Heavy Weapons", "Unguided Rockets", "Guided Weapons", "Guided Weapons")
    assert owners["fire_artillery"] == "On-Table Artillery Fire" and owners["request_fire"] == "Request Fire Support Action"
    assert (owners["air_fly"], owners["aa_fire"]) == ("Aerospace Operations: aircraft on the table",
                                                      "Aerospace Operations: on-table anti-aircraft fire")


def _smoke_points(game, u, status):
    return [("place_smoke", x, y) for x, y in grid_points(game.bf.width, game.bf.height)
            if (x - u.x) ** 2 + (y - u.y) ** 2 <= 12.0 ** 2]


POINTS = Rule("Test smoke at a point", families=(Family("place_smoke", ("point",), 1000, "lay smoke here"),),
              action_options=(_smoke_points,), actions={"place_smoke": lambda g, u, o: None})


def test_a_rule_with_a_point_family_gets_a_layout_of_its_own_with_an_exact_mask():
    layout = C.Layout.of(STANDARD + (POINTS,))
    assert layout.n == C.N_ACTIONS + POINT_GRID[0] * POINT_GRID[1]  # appended after the standard families
    codec = C.ActionCodec(layout)
    seen = 0
    for seed in range(4):
        g = Game("skirmish", seed=seed, rules=(POINTS,))
        rng = random.Random(seed)
        while not g.over:
            d = g.decision()
            mask = codec.mask(g, d)
            assert mask.sum() == len(d.options)
            for o in d.options:
                a = codec.encode(g, d.side, o)
                assert mask[a] and codec.decode(g, d.side, a, d.kind) == o
                if o[0] == "place_smoke":
                    seen += 1
            g.apply(rng.choice(d.options))
    assert seen > 100


def test_points_are_mirrored_for_a_flipped_side():
    g = Game("skirmish", rules=(POINTS,))
    codec = C.ActionCodec(C.Layout.of(STANDARD + (POINTS,)))
    start = codec.layout.blocks[-1][0]
    pts = grid_points(g.bf.width, g.bf.height)
    near_south = ("place_smoke",) + pts[0]  # bottom-left cell: side 0's own edge
    near_north = ("place_smoke",) + pts[-POINT_GRID[0]]  # top-left cell: side 1's own edge
    assert codec.encode(g, 0, near_south) == start and codec.encode(g, 1, near_north) == start
    assert codec.decode(g, 1, start) == near_north and codec.decode(g, 0, start) == near_south


def test_grown_tables_equal_tables_built_afresh_and_are_extended_not_rebuilt(monkeypatch):
    """A detachment appends a unit slot: the codec extends the side's tables with the options naming it (the
    standard layout has entity families since the Additional Rules, and a side that knows of no entity still gets
    the cheap extension) and the result equals tables built afresh for the grown game."""
    import random

    from dustup_env.rules import Game

    g, rng = Game("default", seed=4), random.Random(4)
    codec = C.ActionCodec()
    before = [codec._t(g, s) for s in (0, 1)]
    while not g.over and len(g.units) == len(before[0].ids[0]) + len(before[0].ids[1]):
        d = g.decision()
        det = [o for o in d.options if o[0] == "detach"]
        g.apply(det[0] if det else rng.choice(d.options))
    assert not g.over and len(g.units) > len(before[0].ids[0]) + len(before[0].ids[1])
    built = []
    real = C._Tables.__init__

    def spy(self, layout, game, side, key, base=None):
        built.append(base is not None)
        real(self, layout, game, side, key, base)

    monkeypatch.setattr(C._Tables, "__init__", spy)
    C._TABLE_CACHE.clear()
    grown = [codec._t(g, s) for s in (0, 1)]
    assert built and all(built)  # extended from the earlier tables, not rebuilt
    C._TABLE_CACHE.clear()
    fresh = [C.ActionCodec()._t(g, s) for s in (0, 1)]
    for a, b in zip(grown, fresh):
        assert a.enc == b.enc and a.dec == b.dec
