"""An output folder is reused only by the run that made it: the engine (version, rules digest, data), each
scenario's content and each agent's identity (a model file by its hash) are part of the folder's key and are
checked when a folder is resumed; a folder of another engine, scenario or model is refused in one line."""
import json
from pathlib import Path

import pytest

from dustup_cli.cli import main
from evaluation import runs
from evaluation import tournament as T
from evaluation.runs import RunMismatch, agent_identity, run_identity
from evaluation.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]


def scenario_file(tmp_path, turns=2, name="mine.json"):
    from dustup_env.rules.kernel.data import load_scenario

    doc = load_scenario("skirmish")
    doc["turn_limit"] = turns
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return p


def cli(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_line_refusal(code, err, words):
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err and "internal error" not in err, (code, err)
    assert words in lines[0], lines[0]


def test_an_edited_scenario_file_is_another_run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    sc = scenario_file(tmp_path)
    argv = ["simulate", "--agents", "random,random", "--games", "2", "--scenario", str(sc), "--no-progress"]
    assert cli(argv, capsys)[0] == 0
    first = sorted((tmp_path / "runs" / "simulate").iterdir())
    assert len(first) == 1
    scenario_file(tmp_path, turns=3)  # the same name, another scenario
    code, out, err = cli(argv, capsys)
    assert code == 0, err
    second = sorted((tmp_path / "runs" / "simulate").iterdir())
    assert len(second) == 2, "the same command after an edit of its scenario must start a new folder"
    # with --out the old folder is refused, naming the scenario
    assert cli(argv + ["--out", "o"], capsys)[0] == 0
    scenario_file(tmp_path, turns=4)
    code, out, err = cli(argv + ["--out", "o"], capsys)
    one_line_refusal(code, err, "another scenario")


def test_tournament_folder_of_an_edited_scenario_is_refused(tmp_path, capsys):
    sc = scenario_file(tmp_path)
    argv = ["tournament", "--agents", "random,easy", "--games", "2", "--scenarios", str(sc), "--concurrency", "1",
            "--no-progress", "--out", str(tmp_path / "t")]
    assert cli(argv, capsys)[0] == 0
    assert cli(argv, capsys)[0] == 0  # the same run resumes (nothing left to play)
    scenario_file(tmp_path, turns=3)
    code, out, err = cli(argv, capsys)
    one_line_refusal(code, err, f"another scenario {str(sc)!r}")


@pytest.mark.parametrize("change", ["version", "rules"])
def test_a_folder_of_another_engine_is_refused(tmp_path, monkeypatch, capsys, change):
    argv = ["tournament", "--agents", "random,easy", "--games", "2", "--scenarios", "skirmish", "--concurrency", "1",
            "--no-progress", "--out", str(tmp_path / "t")]
    assert cli(argv, capsys)[0] == 0
    if change == "version":
        from dustup_env import version

        monkeypatch.setattr(version, "__version__", version.__version__ + ".post1")
    else:
        from dustup_env.rules.kernel import saves

        monkeypatch.setattr(saves, "RULES_REVISION", f"{saves.RULES_REVISION}-changed")
    code, out, err = cli(argv, capsys)
    one_line_refusal(code, err, "another engine")
    # and without --out the same command gets a folder of its own
    monkeypatch.chdir(tmp_path)
    assert cli(argv[:-2], capsys)[0] == 0
    assert len(list((tmp_path / "runs" / "tournament").iterdir())) == 1


def test_simulate_library_refuses_a_folder_of_another_engine(tmp_path, monkeypatch):
    from dustup_env import version

    simulate("random", "random", 2, scenario="skirmish", progress=False, out=tmp_path / "s")
    monkeypatch.setattr(version, "__version__", "999")
    with pytest.raises(RunMismatch, match="another engine"):
        simulate("random", "random", 2, scenario="skirmish", progress=False, out=tmp_path / "s")


class FileAgent:
    """A test agent named ``fileagent:PATH`` whose play depends on a file (like ``policy:PATH``)."""
    agent_argument = "PATH"

    def __new__(cls, path, seed=0):
        from dustup_env.agent_registry import RandomAgent

        return RandomAgent(seed=seed + len(Path(path).read_bytes()))


def test_a_retrained_model_file_is_another_agent(tmp_path, monkeypatch, capsys):
    from dustup_env.agent_registry import AGENTS

    monkeypatch.setitem(AGENTS, "fileagent", FileAgent)
    model = tmp_path / "model.bin"
    model.write_bytes(b"first training")
    spec = f"fileagent:{model}"
    argv = ["tournament", "--agents", f"{spec},random", "--games", "2", "--scenarios", "skirmish",
            "--concurrency", "1", "--no-progress"]
    monkeypatch.chdir(tmp_path)
    assert cli(argv + ["--out", "t"], capsys)[0] == 0
    assert cli(argv, capsys)[0] == 0
    model.write_bytes(b"retrained, another policy")
    code, out, err = cli(argv + ["--out", "t"], capsys)
    one_line_refusal(code, err, f"another agent {spec!r} (its model file changed")
    assert cli(argv, capsys)[0] == 0  # without --out: a new folder, not the old games
    assert len(list((tmp_path / "runs" / "tournament").iterdir())) == 2


def test_policy_identity_is_the_model_files_hash(tmp_path):
    p = tmp_path / "best.zip"
    p.write_bytes(b"a")
    a = agent_identity(f"policy:{p}")
    p.write_bytes(b"b")
    b = agent_identity(f"policy:{p}")
    assert a != b and a.startswith("policy model ") and b.startswith("policy model ")
    assert agent_identity("ppo").startswith("ppo model ")
    assert agent_identity("hard").startswith("hard code ")


def test_a_folder_without_a_recorded_identity_is_refused(tmp_path):
    """A folder written before the identity was recorded cannot be checked: it is not reused."""
    T.run(["random", "easy"], ["skirmish"], 2, tmp_path / "t", concurrency=1, progress=False)
    cfg = json.loads((tmp_path / "t" / T.CONFIG).read_text())
    assert set(cfg["identity"]) == {"engine", "scenarios", "agents"}
    del cfg["identity"]
    (tmp_path / "t" / T.CONFIG).write_text(json.dumps(cfg))
    with pytest.raises(RunMismatch, match="did not record"):
        T.run(["random", "easy"], ["skirmish"], 2, tmp_path / "t", concurrency=1, progress=False)


def test_gauntlet_refuses_a_folder_of_an_edited_scenario(tmp_path, capsys):
    sc = scenario_file(tmp_path)
    argv = ["gauntlet", "--agent", "easy", "--anchors", "random", "--games", "2", "--scenarios", str(sc),
            "--concurrency", "1", "--bootstrap", "10", "--no-progress", "--out", str(tmp_path / "g")]
    assert cli(argv, capsys)[0] == 0
    scenario_file(tmp_path, turns=3)
    code, out, err = cli(argv, capsys)
    one_line_refusal(code, err, "another scenario")


def test_identity_covers_options_rule_set_and_each_scenario():
    a = run_identity(["random", "hard"], ["default", "skirmish"])
    b = run_identity(["random", "hard"], ["default", "skirmish"], {"close_combat": "house"})
    assert a["engine"] != b["engine"]  # another rule set: another rules digest
    assert set(a["scenarios"]) == {"default", "skirmish"} and set(a["agents"]) == {"random", "hard"}
    assert a == run_identity(["random", "hard"], ["default", "skirmish"])


def test_a_training_run_of_another_engine_is_refused_before_it_starts(tmp_path, monkeypatch):
    pytest.importorskip("yaml")
    pytest.importorskip("sb3_contrib")
    from training.config import dump, load_config
    from training.train import Trainer

    cfg = load_config(str(ROOT / "configs" / "quick.yaml"))
    out = tmp_path / "run"
    out.mkdir()
    (out / "config.yaml").write_text(dump(cfg))
    tr = Trainer(cfg, out, progress=False, log=lambda m: None)
    (out / "state.json").write_text(json.dumps({"steps": 10, "identity": tr.identity()}))
    tr.check()  # the same engine: resumes
    from dustup_env import version

    monkeypatch.setattr(version, "__version__", "999")
    with pytest.raises(RunMismatch, match="another engine"):
        Trainer(cfg, out, progress=False, log=lambda m: None).check()
    assert runs.RunMismatch is RunMismatch


def test_a_search_with_a_policy_player_is_also_its_model_files(monkeypatch, tmp_path):
    """``mcts`` (``prior=auto``) may play with either shipped policy: its identity holds both model files' hashes, so
    a retrained shipped policy is another agent; a search of doctrines only is the bots' code alone."""
    from agents import policy

    code = agent_identity("hard").split(" code ")[1]
    assert agent_identity("mcts:prior=hard,time=0.25") == f"mcts:prior=hard,time=0.25 code {code}"
    with_ppo = agent_identity("mcts:prior=ppo")
    assert with_ppo.startswith(f"mcts:prior=ppo code {code} model ppo=") and "ppo-skirmish" not in with_ppo
    auto = agent_identity("mcts")
    assert " model ppo=" in auto and ",ppo-skirmish=" in auto
    retrained = tmp_path / "ppo-skirmish.zip"
    retrained.write_bytes(b"another policy")
    monkeypatch.setitem(policy.SHIPPED_POLICIES, "ppo-skirmish", retrained)
    assert agent_identity("mcts") != auto and agent_identity("mcts:prior=ppo") == with_ppo
