"""Display names: a name for every unit that no other unit of the game shares, for people (narration, the page,
the terminal, replays, pictures, the protocol's labels).

The scenario names the units; two sides often use the same names (both platoons of ``default`` have a
"Platoon HQ" and a 1st to 3rd Squad).  A unit whose name a unit of the other side also has is shown with its
side's name first ("Blue 1st Squad", "Red 1st Squad"); a name still shared (two units of one side named alike)
gets a number ("Alpha #2").  A unit made during the game (a detachment) takes its parent's display name with
what it adds ("Blue 1st Squad/half").  Names are public (a side's view lists every enemy unit by name, a hidden
one included), so the display names tell nobody anything new; they depend only on the units' names, sides and
parents, never on the state, and a unit's display name never changes during a game.
"""
from __future__ import annotations


def display_names(units, side_names) -> dict:
    """``{uid: display name}`` for ``units`` (objects or dicts with ``uid``, ``side``, ``name`` and ``parent``,
    in uid order) of a game whose sides are named ``side_names``."""
    def get(u, k, default=None):
        return u.get(k, default) if isinstance(u, dict) else getattr(u, k, default)

    sides = [str(s) for s in side_names]
    if len(sides) == 2 and sides[0] == sides[1]:  # two sides of one name: told apart by number
        sides = [f"{sides[0]} (side {i})" for i in range(2)]
    rows = [(get(u, "uid"), get(u, "side"), str(get(u, "name")), get(u, "parent", -1)) for u in units]
    by_uid = {r[0]: r for r in rows}
    base = [r for r in rows if r[3] is None or r[3] < 0 or r[3] not in by_uid]
    on_side: dict = {}
    for _, s, name, _ in base:
        on_side.setdefault(name, set()).add(s)
    out: dict = {}
    used: set = set()

    def unique(text: str) -> str:
        k, t = 2, text
        while t in used:
            t, k = f"{text} #{k}", k + 1
        used.add(t)
        return t

    for uid, s, name, parent in rows:
        if parent is not None and parent >= 0 and parent in out:
            pname = by_uid[parent][2]
            tail = name[len(pname):] if name.startswith(pname) else "/" + name
            out[uid] = unique(out[parent] + tail)
        elif len(on_side.get(name, ())) > 1 and isinstance(s, int) and 0 <= s < len(sides):
            out[uid] = unique(f"{sides[s]} {name}")
        else:
            out[uid] = unique(name)
    return out
