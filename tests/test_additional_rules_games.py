"""Random games of the Additional Rules' scenarios with every option on (reactions, interrupts, smoke grenades, the
d20 building assault, fire-support dummies, the three activation sequences, night): the property invariants hold at
every decision and a save taken mid-game plays on to the same end.  ``benchmarks/additional_rules_games.py`` runs the
same check over 1,000 games (docs/performance.md).

These games found that two reactions pushed in one window (an EW unit's watch and an interrupt offer, both at an
activation's start) crashed when the upper popped: the kernel's ``pop`` now lets a waiting decision frame without a
``resume`` simply ask its decision."""
import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _bench():
    spec = importlib.util.spec_from_file_location("additional_rules_games", ROOT / "benchmarks/additional_rules_games.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_twenty_games_across_the_new_scenarios_keep_every_invariant():
    bench = _bench()
    kinds, events = set(), set()
    for i in range(20):
        assert bench.play(i, kinds, events) > 0
    assert {"reaction", "interrupt", "cdm", "choose", "fire_target"} <= kinds, kinds


def test_the_command_prints_a_summary_and_refuses_bad_flags(capsys):
    bench = _bench()
    assert bench.main(["--games", "2", "--json"]) == 0
    assert '"games": 2' in capsys.readouterr().out
    import pytest
    with pytest.raises(SystemExit):
        bench.main(["--games", "0"])
    assert "--games must be at least 1" in capsys.readouterr().err
