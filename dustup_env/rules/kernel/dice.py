"""Core Mechanic: die types, die shifts, and the three forms of die roll (seed 000, "CORE MECHANIC").

Die types are D4, D6, D8, D10, D12 and, for armour classes above D12, D12xN (a D12 whose
result is multiplied by N).  A die type is represented by a small integer *step*:

    step 0 = D4, 1 = D6, 2 = D8, 3 = D10, 4 = D12, 5 = D12x2, 6 = D12x3, ...

All randomness in a game flows through one :class:`DiceSource`.  ``SeededDice`` wraps one
``random.Random`` seeded once per game; ``ScriptedDice`` replays forced results for tests and
``EnumeratingDice`` walks every face combination so odds are computed by the engine's own
resolution code.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from .errors import DiceScriptError

D4, D6, D8, D10, D12 = 0, 1, 2, 3, 4
MIN_STEP = D4
MAX_STANDARD_STEP = D12
_SIDES = (4, 6, 8, 10, 12)


def die_sides(step: int) -> int:
    """Number of faces of the physical die rolled for a die step (D12xN rolls a D12)."""
    return _SIDES[step] if step <= D12 else 12


def die_multiplier(step: int) -> int:
    return 1 if step <= D12 else step - D12 + 1


def die_max(step: int) -> int:
    """The die *type* value used as a divisor ("divide by the target die type")."""
    return die_sides(step) * die_multiplier(step)


def die_name(step: int) -> str:
    if step <= D12:
        return f"d{_SIDES[step]}"
    return f"d12x{die_multiplier(step)}"


def parse_die(text: str | int) -> int:
    """Parse 'd8', 'D12x2' or an int step into a die step."""
    if isinstance(text, int):
        if text < 0:
            raise ValueError(f"bad die step {text!r}")
        return text
    t = str(text).strip().lower()
    if not t.startswith("d"):
        raise ValueError(f"bad die type {text!r}: expected d4, d6, d8, d10, d12 or d12xN")
    body = t[1:]
    if "x" in body:
        base, mult = body.split("x", 1)
        if base != "12" or not mult.isdigit() or int(mult) < 1:
            raise ValueError(f"bad die type {text!r}: only d12xN multiplies")
        return D12 + int(mult) - 1
    if not body.isdigit() or int(body) not in _SIDES:
        raise ValueError(f"bad die type {text!r}: expected d4, d6, d8, d10, d12 or d12xN")
    return _SIDES.index(int(body))


def value_to_die(value: float) -> int:
    """Round a firepower/strike total UP to the nearest die type (<=4 -> D4), capped at D12."""
    for step, sides in enumerate(_SIDES):
        if value <= sides:
            return step
    return D12


def shift_closed(step: int, shift: int, *, max_step: int = D12) -> int:
    """Closed shift: once at D4 or the cap, further shifts are ignored."""
    s = step + shift
    if s < MIN_STEP:
        return MIN_STEP
    top = max(max_step, step)
    return top if s > top else s


def shift_open(own: int, shift: int, other: int) -> tuple[int, int]:
    """Open shift of ``own`` by ``shift``; the excess beyond D4/D12 moves to ``other``.

    Shifts above D12 become negative shifts of the opponent's die; shifts below D4 become
    positive shifts of the opponent's die.  The opponent's die is then closed-shifted.
    Returns ``(own, other)``.
    """
    s = own + shift
    if s > D12:
        excess = s - D12
        return D12, shift_closed(other, -excess)
    if s < D4:
        excess = D4 - s
        return D4, shift_closed(other, +excess)
    return s, other


def shift_open_both(a: int, shift_a: int, b: int, shift_b: int) -> tuple[int, int]:
    """Open shifts on both dice of an opposed roll (rules-notes RN-027).

    Each side's net shift is applied; each side's excess beyond D12 (or below D4) moves once to the
    other die with the opposite sign; then both dice are clamped (closed).  Shifts never pass back.
    """
    na, nb = a + shift_a, b + shift_b
    xa = na - D12 if na > D12 else (na - D4 if na < D4 else 0)  # + above D12, - below D4
    xb = nb - D12 if nb > D12 else (nb - D4 if nb < D4 else 0)
    na -= xa
    nb -= xb
    na, nb = na - xb, nb - xa
    return min(max(na, D4), D12), min(max(nb, D4), D12)


@dataclass(frozen=True, slots=True)
class OpposedResult:
    """Outcome of an opposed roll from the active side's ('roller') view."""

    roller: int
    opponent: int

    @property
    def wins(self) -> bool:  # draws favour the defender (the opponent)
        return self.roller > self.opponent

    @property
    def more_than_double(self) -> bool:
        return self.roller > 2 * self.opponent

    @property
    def less_than_half(self) -> bool:
        return 2 * self.roller < self.opponent


class DiceSource:
    """Interface: every die the rules roll goes through :meth:`roll`."""

    def roll(self, step: int) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    def roll_n(self, sides: int) -> int:
        """Roll an n-sided die (used by the clockface D12 and large-unit allocation)."""
        raise NotImplementedError  # pragma: no cover

    def getstate(self):  # pragma: no cover - interface
        return None

    def setstate(self, state) -> None:  # pragma: no cover - interface
        pass


class _ForkPoint:
    """A generator's state at the moment copies were made of it: taken from the generator (``owner``) the first
    time one of them needs it, or when the generator rolls again, whichever comes first."""

    __slots__ = ("owner", "state")

    def __init__(self, owner: "SeededDice"):
        self.owner = owner
        self.state = None

    def get(self) -> tuple:
        if self.state is None:
            self.state = self.owner._rng.getstate()  # the owner has not rolled since: its state is the fork's
        return self.state


class SeededDice(DiceSource):
    """The game's single seeded generator.

    ``copy()`` is O(1): the copy waits on a fork point and takes the generator's state only when it first
    rolls (or when the original rolls first); so copies made for a search cost nothing until they roll."""

    __slots__ = ("seed", "_rng", "_randrange", "_fork")

    def __init__(self, seed: int):
        self.seed = int(seed)
        self._rng = random.Random(self.seed)
        self._randrange = self._rng.randrange
        self._fork = None  # live: the fork point copies of the current state wait on; a copy: the one it waits on

    def roll(self, step: int) -> int:
        if step <= D12:
            return self._randrange(_SIDES[step]) + 1
        return (self._randrange(12) + 1) * (step - D12 + 1)

    def roll_n(self, sides: int) -> int:
        return self._randrange(sides) + 1

    @classmethod
    def fresh(cls, seed: int) -> "SeededDice":
        """A generator seeded with ``seed`` when it first rolls (the same rolls as ``SeededDice(seed)``)."""
        n = cls.__new__(cls)
        n.seed = int(seed)
        n._rng = None
        n._fork = None
        n._randrange = n._first_roll_of_copy
        return n

    def _live(self) -> random.Random:
        """The generator itself: a copy that never rolled takes its fork point's state now."""
        if self._rng is None:
            if self._fork is None:  # fresh(): seeded now
                r = self._rng = random.Random(self.seed)
            else:
                r = self._rng = random.Random.__new__(random.Random)
                r.setstate(self._fork.get())
                self._fork = None
            self._randrange = r.randrange
        return self._rng

    def _first_roll_of_copy(self, n: int) -> int:
        return self._live().randrange(n)

    def _roll_after_copies(self, n: int) -> int:
        fork = self._fork  # copies wait on the current state: keep it for them before it changes
        fork.get()
        fork.owner = None
        self._fork = None
        self._randrange = self._rng.randrange
        return self._randrange(n)

    def getstate(self):
        if self._rng is None and self._fork is None:
            self._live()
        if self._rng is None:
            v, internal, gauss = self._fork.get()
        else:
            v, internal, gauss = self._rng.getstate()
        return [v, list(internal), gauss]

    def setstate(self, state) -> None:
        v, internal, gauss = state
        self._live()
        if self._fork is not None:  # copies wait on the state being replaced
            self._fork.get()
            self._fork.owner = None
            self._fork = None
            self._randrange = self._rng.randrange
        self._rng.setstate((v, tuple(internal), gauss))

    def copy(self) -> "SeededDice":
        """An independent generator in the same state (the same rolls from here on)."""
        n = SeededDice.__new__(SeededDice)
        n.seed = self.seed
        n._rng = None
        n._randrange = n._first_roll_of_copy
        if self._rng is None:
            n._fork = self._fork  # a copy of a copy that has not rolled: the same state
        else:
            if self._fork is None:
                self._fork = _ForkPoint(self)
                self._randrange = self._roll_after_copies
            n._fork = self._fork
        return n


class ScriptedDice(DiceSource):
    """Forced dice for tests: a queue of results, optionally checked against the die rolled.

    ``ScriptedDice([5, ("d10", 7)])`` returns 5 for the next roll of any die and 7 for the
    following roll, which must be a D10.  Running out of results, or a result that does not
    fit the die, raises :class:`DiceScriptError`.
    """

    def __init__(self, results):
        self.results = []
        for r in results:
            if isinstance(r, tuple):
                self.results.append((parse_die(r[0]), int(r[1])))
            else:
                self.results.append((None, int(r)))
        self.pos = 0
        self.log: list[tuple[str, int]] = []

    def _next(self, label: str, faces: int, expect_step: int | None) -> int:
        if self.pos >= len(self.results):
            raise DiceScriptError(f"scripted dice exhausted at roll #{self.pos + 1} ({label})")
        step, value = self.results[self.pos]
        if step is not None and expect_step is not None and step != expect_step:
            raise DiceScriptError(
                f"scripted roll #{self.pos + 1} expected {die_name(step)} but the rules rolled {label}")
        self.pos += 1
        if not 1 <= value <= faces:
            raise DiceScriptError(f"scripted roll #{self.pos} = {value} is not a face of {label}")
        self.log.append((label, value))
        return value

    def roll(self, step: int) -> int:
        if step <= D12:
            return self._next(die_name(step), _SIDES[step], step)
        mult = step - D12 + 1
        return self._next(die_name(step), 12, step) * mult

    def roll_n(self, sides: int) -> int:
        return self._next(f"d{sides}", sides, None)

    @property
    def remaining(self) -> int:
        return len(self.results) - self.pos

    def getstate(self):
        return self.pos

    def setstate(self, state) -> None:
        self.pos = state

    def copy(self) -> "ScriptedDice":
        n = ScriptedDice.__new__(ScriptedDice)
        n.results = list(self.results)
        n.pos = self.pos
        n.log = list(self.log)
        return n


class _Exhausted(Exception):
    pass


class EnumeratingDice(DiceSource):
    """Walks every combination of faces, depth first, with exact probabilities.

    Use :func:`enumerate_outcomes` rather than this class directly.
    """

    def __init__(self, prefix: list[int]):
        self.prefix = prefix
        self.i = 0
        self.faces: list[int] = []  # number of faces at each depth actually rolled

    def _next(self, faces: int) -> int:
        if self.i < len(self.prefix):
            v = self.prefix[self.i]
        else:
            v = 1
            self.prefix.append(1)
        self.faces.append(faces)
        self.i += 1
        return v

    def roll(self, step: int) -> int:
        if step <= D12:
            return self._next(_SIDES[step])
        return self._next(12) * (step - D12 + 1)

    def roll_n(self, sides: int) -> int:
        return self._next(sides)


def enumerate_outcomes(procedure, *, exact: bool = True):
    """Run ``procedure(dice)`` under every combination of die faces it can roll.

    The procedure may roll a variable number of dice (e.g. a remainder roll only on a major
    success): the enumeration follows each branch.  Yields ``(probability, result)`` pairs
    whose probabilities sum to 1 (as Fractions when ``exact``).
    """
    for denom, result in enumerate_weighted(procedure):
        yield (Fraction(1, denom) if exact else 1.0 / denom), result


def enumerate_weighted(procedure):
    """Like :func:`enumerate_outcomes` but yields ``(denominator, result)``: the outcome has
    probability ``1/denominator`` (the product of the faces of the dice rolled on its branch)."""
    prefix: list[int] = []
    while True:
        dice = EnumeratingDice(prefix)
        result = procedure(dice)
        used = dice.i
        faces = dice.faces
        del prefix[used:]
        denom = 1
        for f in faces:
            denom *= f
        yield denom, result
        # advance the odometer over the rolled dice (last die first)
        k = used - 1
        while k >= 0:
            if prefix[k] < faces[k]:
                prefix[k] += 1
                del prefix[k + 1:]
                break
            k -= 1
        if k < 0:
            return


def exact_distribution(procedure, key=lambda r: r) -> dict:
    """Exact distribution ``{key(result): Fraction}`` of a dice procedure, by enumeration."""
    counts: dict = {}
    for denom, result in enumerate_weighted(procedure):
        k = key(result)
        byd = counts.setdefault(k, {})
        byd[denom] = byd.get(denom, 0) + 1
    return {k: sum((Fraction(c, d) for d, c in byd.items()), Fraction(0)) for k, byd in counts.items()}


def clockface_direction(dice: DiceSource, twelve: tuple[float, float] = (0.0, 1.0)) -> tuple[float, float]:
    """Random direction by the clockface method: a D12 gives the hour, 30 degrees clockwise per hour
    from the nominated 12 o'clock direction ``twelve`` (default: +y, towards the far edge from the
    south side; rules-notes RN-028).  Returns a unit vector."""
    import math

    hour = dice.roll(D12)
    ang = math.radians(30.0 * (hour % 12))
    tx, ty = twelve
    n = math.hypot(tx, ty) or 1.0
    tx, ty = tx / n, ty / n
    # clockwise rotation when +y is "up" on the table
    return (tx * math.cos(ang) + ty * math.sin(ang), -tx * math.sin(ang) + ty * math.cos(ang))
