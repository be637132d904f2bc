"""A plot never fails a run, and an internal error never exits as bad input.

`dustup train --config configs/quick.yaml` once stopped at its first gauntlet: a learner that lost every
game scored 0.0 with a 95% interval of [6.9e-18, 0.071] (Wilson's lower end, 0 only up to rounding), the
score curve's error bar came out negative, matplotlib raised ``ValueError: 'yerr' must not contain negative
values`` and the command exited with 2, the bad-input status."""
import pytest

from dustup_cli.cli import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_INTERNAL, main
from evaluation import tournament as T
from evaluation.runs import draw_or_warn
from evaluation.benchmark import wilson as _wilson
from training.gauntlet import _score_ci

# the first gauntlet of that run, as its state.json recorded it
HISTORY = [{"steps": 50000, "scores": {"random": {"score": 0.0, "ci95": [6.938893903907228e-18, 0.0712],
                                                  "wdl": [0, 0, 100], "games": 100},
                                       "easy": {"score": 0.0, "ci95": [0.0, 0.0712], "wdl": [0, 0, 100],
                                                "games": 100}},
            "mean_score": 0.0, "elo": -700.0, "elo_ci95": [-650.0, -600.0],  # an interval off the point too
            "anchor_elo": {"random": 0.0, "easy": 300.0}, "elo_anchor": "random"}]


def records(label, anchor, results):
    """Paired games of ``label`` against ``anchor``: ``results`` the label's score per game."""
    out = []
    for i, s in enumerate(results):
        side = i % 2
        agents = [label, anchor] if side == 0 else [anchor, label]
        winner = -1 if s == 0.5 else (side if s == 1 else 1 - side)
        out.append({"agents": agents, "winner": winner, "scenario": "default", "pair_index": i // 2})
    return out


def test_a_score_of_zero_or_one_has_an_interval_ending_exactly_there():
    assert _wilson(0.0, 50)[0] == 0.0 and _wilson(1.0, 50)[1] == 1.0
    lost = _score_ci(records("learner", "random", [0] * 100), "learner", "random", 200, 0)
    assert lost["score"] == 0.0 and lost["ci95"][0] == 0.0 < lost["ci95"][1]
    won = _score_ci(records("learner", "random", [1] * 100), "learner", "random", 200, 0)
    assert won["score"] == 1.0 and won["ci95"][1] == 1.0 > won["ci95"][0]
    for r in ([0, 1] * 20, [0.5] * 10 + [1] * 30):
        s = _score_ci(records("learner", "random", r), "learner", "random", 200, 0)
        assert s["ci95"][0] <= s["score"] <= s["ci95"][1]


def test_the_curves_draw_with_an_interval_that_misses_its_point(tmp_path):
    pytest.importorskip("matplotlib")
    from training.gauntlet import plot_curves

    plot_curves(HISTORY, ["random", "easy"], tmp_path / "curves.png")
    assert (tmp_path / "curves.png").stat().st_size > 0


def test_a_plot_failure_is_one_warning_line(capsys):
    def broken(*a):
        raise ValueError("'yerr' must not contain negative values")

    assert draw_or_warn(broken, 1, what="curves.png") is False
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("warning: curves.png was not drawn (ValueError: 'yerr'"), err
    logged = []
    assert draw_or_warn(broken, what="x", log=logged.append) is False and len(logged) == 1
    assert draw_or_warn(lambda: None) is True


def test_a_tournament_whose_plots_fail_still_reports(tmp_path, monkeypatch, capsys):
    pytest.importorskip("matplotlib")

    def broken(obj, out):
        raise ValueError("'xerr' must not contain negative values")

    monkeypatch.setattr(T, "_plots", broken)
    code = main(["tournament", "--agents", "random,easy", "--games", "2", "--scenarios", "skirmish",
                 "--concurrency", "1", "--no-progress", "--out", str(tmp_path / "t")])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "warning: scores.png / ratings.png was not drawn" in err
    report = (tmp_path / "t" / "report.md").read_text()
    assert "drawing them failed" in report and "| rank | agent | Elo |" in report


def test_the_trainer_draws_its_curves_through_the_warning_wrapper():
    """The trainer's curves go through draw_or_warn (a failure there is a line in the log, the run goes on)."""
    import inspect

    from training import train

    src = inspect.getsource(train.Trainer._snapshot)
    assert "draw_or_warn(plot_curves" in src and "\n            plot_curves(" not in src


@pytest.mark.parametrize("exc,code,words", [
    (ValueError("'yerr' must not contain negative values"), EXIT_INTERNAL, "internal error (a bug"),
    (KeyError("units"), EXIT_INTERNAL, "internal error (a bug"),
    (RuntimeError("boom"), EXIT_INTERNAL, "internal error (a bug"),
    (OSError(28, "No space left on device", "runs/x/results.jsonl"), EXIT_FAILED, "No space left on device"),
])
def test_an_error_inside_a_command_is_not_bad_input(monkeypatch, capsys, tmp_path, exc, code, words):
    import evaluation.simulate as S

    def fail(*a, **k):
        raise exc

    monkeypatch.setattr(S, "simulate", fail)
    monkeypatch.delenv("DUSTUP_DEBUG", raising=False)
    got = main(["simulate", "--agents", "random,random", "--games", "2", "--out", str(tmp_path / "s")])
    err = capsys.readouterr().err.strip().splitlines()
    assert got == code != EXIT_BAD_INPUT and len(err) == 1 and words in err[0], (got, err)


def test_bad_input_found_inside_a_command_is_still_bad_input(tmp_path, capsys):
    """A folder that holds another run is refused as bad input (the refusal comes from evaluation/)."""
    out = str(tmp_path / "t")
    base = ["tournament", "--games", "2", "--scenarios", "skirmish", "--concurrency", "1", "--no-progress",
            "--out", out]
    assert main(base + ["--agents", "random,easy"]) == 0
    assert main(base + ["--agents", "random,medium"]) == EXIT_BAD_INPUT
    assert "holds a different tournament" in capsys.readouterr().err
