"""The scripted bots' reactions (seed 001, game option ``reactions``) and interrupts (seed 004, game option
``interrupt``): a mixin that acts only on those decisions, so games without them play as before.

Doctrine:
- **React** (``reaction_choice``, ``reaction``): fire back, or at a mover, when the unit's best shot at it scores at
  least :attr:`RX_THRESHOLD` (the Shoot Action's own plan, ``Knowledge.fire_plan``, scored as the bot scores its own
  shots: expected casualties and the chance of suppressing); a reaction token costs an action of the unit's
  activation, so a weaker shot is not worth it.  Never a reaction move or Hit the Dirt (the bot keeps its position
  and its fire).
- **Interrupt** (``interrupt``): the unit with the best shot at the enemy unit whose activation it is, when it scores
  at least :attr:`INT_THRESHOLD` (the unit gives up its own activation, and the spot roll may fail); otherwise wait
  for a closer step (``hold_fire``) mid-move, and decline at an activation's start.
- **The interrupt's attack** (``interrupt_fire``): the best-scoring shoot option.

Only the side's knowledge is read (:class:`agents.knowledge.Knowledge`): its own units, the enemy units it knows of
(the unit reacted to is named in the options, or is the known enemy unit whose activation it is).
"""
from __future__ import annotations

from dustup_env.rules.unit_actions.shoot_action import FIRE_MODES

RX_KINDS = ("reaction", "reaction_choice", "interrupt", "interrupt_fire")


class ReactionDoctrine:
    """Mixin (with :class:`agents.scripted.ScriptedAgent`'s ``_shot_score``): ``_rx_decide`` returns None when the
    decision is not a reaction or an interrupt."""

    RX_THRESHOLD = 0.35
    INT_THRESHOLD = 0.5

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

    def _rx_pick_unit(self, k, d, family, threshold):
        target = k.active_enemy
        if target < 0:
            return None
        best, bs = None, threshold
        for o in d.options:
            if o[0] == family:
                s = self._rx_unit_score(k, o[1], target)
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
            o = self._rx_pick_unit(k, d, "choose", self.INT_THRESHOLD)
            if o is not None:
                return o
            return ("hold_fire",) if ("hold_fire",) in d.options else ("decline",)
        o = self._rx_best_shot(k, d, -2.0)  # interrupt_fire: the best shot it has
        return o if o is not None else d.options[0]
