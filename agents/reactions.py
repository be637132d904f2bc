"""The scripted bots' reactions (seed 001, game option ``reactions``) and interrupts (seed 004, game option
``interrupt``): a mixin that acts only on those decisions, so games without them play as before.

Doctrine:
- **React** (``reaction_choice``, ``reaction``): fire back, or at a mover, when the unit's best shot at it scores at
  least :attr:`RX_THRESHOLD` (the Shoot Action's own plan, ``Knowledge.fire_plan``, scored as the bot scores its own
  shots: expected casualties and the chance of suppressing); a reaction token costs an action of the unit's
  activation, so a weaker shot is not worth it.  Never a reaction move or Hit the Dirt (the bot keeps its position
  and its fire).
- **Interrupt** (``interrupt``): the unit with the best shot at the enemy unit whose activation it is, when the shot's
  score times the chance of the spot roll (the Detect Action's dice, as the bot can read them) is at least
  :attr:`INT_THRESHOLD`, and only a unit holding its ground (in cover within :attr:`INT_HOLD_RADIUS` of its
  objective: the activation it gives up costs it no move; measured, interrupting with advancing units lost games);
  otherwise wait for a closer step (``hold_fire``) while such a unit could interrupt, else decline.
- **The interrupt's attack** (``interrupt_fire``): the best-scoring shoot option.

Only the side's knowledge is read (:class:`agents.knowledge.Knowledge`): its own units, the enemy units it knows of
(the unit reacted to is named in the options, or is the known enemy unit whose activation it is).
"""
from __future__ import annotations

import math

from dustup_env.rules.kernel.dice import die_sides
from dustup_env.rules.unit_actions.detect_action import range_die
from dustup_env.rules.unit_actions.shoot_action import FIRE_MODES

RX_KINDS = ("reaction", "reaction_choice", "interrupt", "interrupt_fire")


class ReactionDoctrine:
    """Mixin (with :class:`agents.scripted.ScriptedAgent`'s ``_shot_score``): ``_rx_decide`` returns None when the
    decision is not a reaction or an interrupt."""

    RX_THRESHOLD = 0.35
    INT_THRESHOLD = 0.5
    INT_HOLD_RADIUS = 6.0

    def _rx_best_shot(self, k, d, threshold):
        best, bs = None, threshold
        for o in d.options:
            if o[0] == "shoot":
                s = self._shot_score(k, d.unit, o)
                if s > bs:
                    best, bs = o, s
        return best

    def _rx_unit_score(self, k, uid, target):
        best = -1.0
        for mode in FIRE_MODES:
            if mode == "grenades":
                continue
            best = max(best, self._shot_score(k, uid, ("shoot", target, mode)))
        return best

    @staticmethod
    def _rx_spot_odds(k, uid, target):
        """The chance the spot roll succeeds (the Detect Action's roll: the target's range die against the unit's
        quality and sensor dice; daylight, no concealment shift: what the bot can read)."""
        u, t = k.units[uid], k.units[target]
        rdie = range_die(math.hypot(t.x - u.x, t.y - u.y), t.size)
        if rdie is None:
            return 0.0
        n = die_sides(rdie)
        q, s = die_sides(u.quality), die_sides(u.sensor)
        return sum(1.0 - (min(r, q) / q) * (min(r, s) / s) for r in range(1, n + 1)) / n

    def _rx_holding(self, k, uid):
        """The unit holds its ground: in cover at its objective (giving up its activation costs it no move)."""
        u = k.units[uid]
        gx, gy = self._goal(k, u)
        return k.bf.in_cover(u.x, u.y) and math.hypot(u.x - gx, u.y - gy) <= self.INT_HOLD_RADIUS

    def _rx_pick_unit(self, k, d, family, threshold, spot=False):
        target = k.active_enemy
        if target < 0:
            return None
        best, bs = None, threshold
        for o in d.options:
            if o[0] == family:
                if spot and not self._rx_holding(k, o[1]):
                    continue
                s = self._rx_unit_score(k, o[1], target)
                if spot:
                    s *= self._rx_spot_odds(k, o[1], target)
                if s > bs:
                    best, bs = o, s
        return best

    def _rx_decide(self, k, d):
        if d.kind not in RX_KINDS:
            return None
        if d.kind == "reaction":
            return self._rx_best_shot(k, d, self.RX_THRESHOLD) or ("decline",)
        if d.kind == "reaction_choice":
            return self._rx_pick_unit(k, d, "choose", self.RX_THRESHOLD) or ("decline",)
        if d.kind == "interrupt":
            o = self._rx_pick_unit(k, d, "choose", self.INT_THRESHOLD, spot=True)
            if o is not None:
                return o
            holding = any(o[0] == "choose" and self._rx_holding(k, o[1]) for o in d.options)
            return ("hold_fire",) if holding and ("hold_fire",) in d.options else ("decline",)
        o = self._rx_best_shot(k, d, -2.0)  # interrupt_fire: the best shot it has
        return o if o is not None else d.options[0]
