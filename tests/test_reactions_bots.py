"""The scripted bots' reactions and interrupts (agents/reactions.py): legal choices from the side's knowledge, a good
shot taken and a poor one declined, and ``hard`` still beats ``random`` with both options on."""
from conftest import activate, begin, scenario, unit
from agents.base import make_agent
from agents.knowledge import Knowledge
from dustup_env.rules import Game

BOTH = {"reactions": True, "interrupt": True}
KINDS = ("reaction", "reaction_choice", "interrupt", "interrupt_fire")


def test_the_bot_fires_back_at_close_range_and_declines_a_long_shot():
    """A shot back at 10" (a good shot) is taken; at 20" only Hit the Dirt is offered and the bot passes."""
    bot = make_agent("scripted", 0)
    g = begin(scenario([unit("A", (24, 5))], [unit("B", (24, 15))]), options=BOTH)
    activate(g, 0)
    g.apply(("decline",))  # (B could interrupt A's activation)
    g.apply(("shoot", 1, "all"))
    d = g.decision()
    assert d.kind == "reaction" and bot.decide(Knowledge(g, 1), d)[0] == "shoot"
    g = begin(scenario([unit("A", (24, 5))], [unit("B", (24, 20))]), options={"reactions": True})
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    d = g.decision()
    assert d.options == (("prop",), ("decline",)) and bot.decide(Knowledge(g, 1), d) == ("decline",)


def test_bots_answer_every_reaction_and_interrupt_and_hard_beats_random():
    wins, answered = 0, 0
    for s in range(10):
        ag = [make_agent("hard", s), make_agent("random", s + 100)]
        if s % 2:
            ag = ag[::-1]
        g = Game("skirmish", seed=s, options=BOTH)
        while not g.over:
            d = g.decision()
            bot = ag[d.side]
            if d.kind in KINDS and bot.name != "random":
                assert bot.decide(Knowledge(g, d.side), d) in d.options
                answered += 1
            g.apply(bot.choose(g, d))
        hard_side = 0 if s % 2 == 0 else 1
        wins += g.winner == hard_side
        assert ag[hard_side].fallbacks == 0
    assert answered > 20 and wins >= 8


def test_every_reaction_and_interrupt_decision_and_event_reads_in_words():
    """The front-ends' words (dustup_env/narrate.py): a prompt for each new decision kind, a label for each option
    offered in it, a narration of each new event."""
    from dustup_env import narrate as nr
    seen, narrated = set(), set()
    for s in range(4):
        g = Game("skirmish", seed=s, options=BOTH)
        know = nr.Knowledge(names=nr.display_names(g), side_names=tuple(g.side_names))
        bots = [make_agent("hard", s), make_agent("random", s)]
        while not g.over:
            d = g.decision()
            if d.kind in KINDS:
                seen.add(d.kind)
                assert nr.decision_prompt(d.side, d.kind, d.unit, know) != d.kind
                for o in d.options:
                    label = nr.option_label(o, d.kind, know, d.unit)
                    assert label and label != nr.generic_label(o), (d.kind, o)
            g.apply(bots[s % 2 if d.side == 0 else 1 - s % 2].choose(g, d))
        for e in g.event_log():
            if e["type"].startswith(("Reaction", "Interrupt")):
                narrated.add(e["type"])
                assert not nr.narrate(e, know).startswith(e["type"])
    assert seen == set(KINDS) and {"ReactionTaken", "InterruptDeclared", "InterruptSpotRolled"} <= narrated
