"""Analysis for front-ends: what the search thinks of each option of a side's pending decision.

:func:`analyze` runs the ``mcts`` search (:mod:`agents.mcts`) on the pending decision of ``game`` for the side
deciding, under a playout budget (``playouts=N``: deterministic) or a time budget (``seconds=S``), and answers
with the top options, each with

- ``visits``: the playouts that went through it;
- ``value``: the mean of the search's static evaluation (:func:`agents.mcts.evaluate`, in [0, 1]) at the end of
  those playouts;
- ``win``: the probability that the side wins, a draw counted as half a win (the expected score), mapped from
  ``value``, ``m`` (the mean victory-point margin at the end of the option's playouts, the side's victory points
  minus the enemy's) and ``t`` (the fraction of the game's turns reached: the turn over the turn limit) by a
  logistic: ``win = 1 / (1 + exp(-(WIN_A + WIN_B * logit(value) + (WIN_C + WIN_D * t) * m)))`` with ``value``
  clipped to [0.02, 0.98];
- ``margin``: the expected victory-point margin at the game's end, ``MARGIN_A * m + MARGIN_B * logit(value)``;
- ``pv``: the principal variation, the line of play the search expects: the option, then the most visited
  continuation at each of the tree's decisions (both sides'), replayed on a copy of the search's root under the
  search's own dice (forced decisions skipped), as long as the tree has visited it at least twice; each step
  with the deciding ``side``, the decision's ``prompt``, the ``option`` and its ``label``.

The constants are fitted by ``benchmarks/analysis_calibration.py --fit`` (logistic regression of the games'
results and least squares of their final margins on positions of played games on the built-in scenarios and on
builder battles outside the held-out benchmark suite), checked there decile by decile out of fold, and measured on
positions of games on the suite's battles, which the fit never saw (docs/agents.md, "The analysis's win
probabilities").  The leaf margin is in the win mapping because ``logit(value)`` alone was blunt (a far higher
log loss, no prediction below 0.087 or above 0.914): the search's evaluation at the end of 30 playouts says less
about the result than its victory-point margin there; and a margin late in the game says more than the same
margin early (``WIN_D``).  The margin keeps the playouts' own mean (``MARGIN_A = 1``, ``MARGIN_B = 0``): the
least squares fit predicted the final margins no better on the games it was not fitted on.

Fairness: the search plays from :func:`agents.mcts.search_root` (only what the side may know; the enemy's hidden
units out of the game, every enemy marker a dummy) and rolls dice of its own, never the game's next dice.  With
a playout budget the answer is the same whatever the game's hidden truth and future dice.

``stop`` (a callable polled between playouts) ends the search early with the best answer so far
(``"stopped": true``); ``on_update`` (a callable) receives an intermediate answer every ``every`` seconds.
"""
from __future__ import annotations

import math
import time

from dustup_env import narrate as nr

from .mcts import MctsAgent

# the mapping from the search's evaluation to a win probability and a victory-point margin (the module docstring;
# fitted by benchmarks/analysis_calibration.py --fit)
# fitted on 2000 positions of 371 games (default, skirmish, armour and twelve builder battles of the held-out suite's
# sizes and tables; hard, medium, easy)
WIN_A, WIN_B, WIN_C, WIN_D = 0.110, 0.187, 0.106, 1.567
# the fitted 0.967, 0.199 did no better out of fold (mean absolute error 1.61 VP; the mean margin itself 1.58 VP)
MARGIN_A, MARGIN_B = 1.0, 0.0
CLIP = 0.02
PV_LENGTH = 8  # the most options of a principal variation
PV_VISITS = 2  # the least visits of a node the principal variation goes through
ANSWER_S = 0.015  # the time a time budget keeps for building the answer, in seconds


def logit(v: float) -> float:
    v = min(1.0 - CLIP, max(CLIP, v))
    return math.log(v / (1.0 - v))


def played(turn: int, turn_limit: int) -> float:
    """The fraction of the game's turns reached: the turn over the turn limit (0 without a limit)."""
    return min(1.0, turn / turn_limit) if turn_limit else 0.0


def win_probability(value: float, leaf_margin: float, progress: float = 0.0) -> float:
    """The win probability (a draw half a win) of a mean evaluation ``value`` and a mean victory-point margin at
    the playouts' ends ``leaf_margin`` at a position ``progress`` of the way through the game (:func:`played`)."""
    x = WIN_A + WIN_B * logit(value) + (WIN_C + WIN_D * progress) * leaf_margin
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


def expected_margin(value: float, leaf_margin: float) -> float:
    """The expected victory-point margin at the game's end of a mean evaluation ``value`` and a mean margin at the
    playouts' ends ``leaf_margin``."""
    return MARGIN_A * leaf_margin + MARGIN_B * logit(value)


def analyze(agent: MctsAgent, game, *, playouts: int = 0, seconds: float | None = None, top: int = 5,
            stop=None, on_update=None, every: float = 0.5, know: nr.Knowledge | None = None) -> dict:
    """The analysis of ``game``'s pending decision for the side deciding, searched by ``agent`` (an ``mcts``
    agent: its settings, except its budget, and its seed).  Give ``playouts`` (a count) or ``seconds``."""
    t0 = time.perf_counter()
    if game.over:
        raise ValueError("the game is over: there is no decision to analyse")
    if not playouts and not seconds:
        raise ValueError("give a budget: playouts or seconds")
    decision = game.decision()
    side = decision.side
    know = know or nr.Knowledge.of_side(game, side)
    # the search stops early enough to build the answer (labels, principal variations) within the budget
    deadline = None if playouts else t0 + max(0.5 * float(seconds), 0.97 * float(seconds) - ANSWER_S)
    prior = agent.prior_choice(game, decision)
    state = agent.begin_search(game, decision, prior)
    done, stopped, last = 0, False, time.perf_counter()
    while True:
        if playouts:
            if done >= playouts:
                break
        elif time.perf_counter() >= deadline:
            break
        if stop is not None and stop():
            stopped = True
            break
        if agent.search_step(state, deadline) is None:
            break
        done += 1
        if on_update is not None and time.perf_counter() - last >= every:
            on_update(answer(agent, state, game, know, top, t0, done, stopped=False, final=False))
            last = time.perf_counter()
    agent.last_root = state.root
    return answer(agent, state, game, know, top, t0, done, stopped=stopped, final=True)


def answer(agent: MctsAgent, state, game, know, top: int, t0: float, done: int, *, stopped: bool,
           final: bool) -> dict:
    """The analysis answer of a search in progress (``final``: the last one)."""
    d = state.decision
    root = state.root
    choice = agent.final_choice(root) if root.children else root.order[0]
    rows = []
    for opt, ch in root.children.items():
        if ch.n == 0:
            continue
        value = ch.w / ch.n
        margins = state.margins.get(opt) or [0]
        m = sum(margins) / len(margins)
        rows.append((opt, ch, value, m))
    rows.sort(key=lambda r: (r[0] != choice, -r[1].n, -r[2]))
    if not any(r[0] == choice for r in rows):  # nothing searched yet: the prior's choice, unvalued
        rows.insert(0, (choice, None, None, None))
    options = []
    t = played(game.turn, game.turn_limit)
    for opt, ch, value, m in rows[:max(1, top)]:
        rec = {"option": list(opt), "label": nr.option_label(opt, d.kind, know, unit=d.unit),
               "visits": ch.n if ch is not None else 0}
        if ch is not None:
            rec.update(value=round(value, 4), win=round(win_probability(value, m, t), 4),
                       margin=round(expected_margin(value, m), 2), pv=principal_variation(state, opt, know))
        else:
            rec.update(value=None, win=None, margin=None, pv=[])
        options.append(rec)
    best = options[0]
    return {"intermediate": not final, "side": state.side, "playouts": done, "ms": round(
        (time.perf_counter() - t0) * 1000.0, 1), "stopped": stopped, "option": best["option"], "label": best["label"],
        "win": best["win"], "margin": best["margin"], "options": options}


def principal_variation(state, opt, know) -> list[dict]:
    """The line of play the tree expects after ``opt`` (the module docstring)."""
    g = state.game.clone(log=False, reseed=state.seeds[0] if state.seeds else 0)
    node = state.root.children.get(opt)
    d = state.decision
    line = [{"side": d.side, "prompt": nr.decision_prompt(d.side, d.kind, d.unit, know), "option": list(opt),
             "label": nr.option_label(opt, d.kind, know, unit=d.unit)}]
    g.apply(opt)
    while node is not None and len(line) < PV_LENGTH and not g.over:
        d = g.decision()
        if len(d.options) == 1:
            g.apply(d.options[0])
            continue
        best, bn = None, PV_VISITS - 1
        legal = set(d.options)
        for o, ch in node.children.items():
            if ch.n > bn and o in legal:
                best, bn = o, ch.n
        if best is None:
            break
        line.append({"side": d.side, "prompt": nr.decision_prompt(d.side, d.kind, d.unit, know), "option": list(best),
                     "label": nr.option_label(best, d.kind, know, unit=d.unit)})
        g.apply(best)
        node = node.children[best]
    return line


MctsAgent.analyst = staticmethod(analyze)
