"""Every command the README and the guides show runs, exactly as written.

The commands are taken from the ``bash`` code blocks of README.md, docs/*.md and agents/models/README.md:
every line that starts with ``dustup``, ``python`` or ``make`` (comments cut, ``\\`` continuations joined).
Each one is run here, word for word, by ``bash -c`` in a scratch folder that holds what the docs assume (the
repository's ``configs/`` and ``benchmarks/``, the files the guides tell you to write, the model a run
before it made: ``runs/train/quick-HASH/best.zip`` is a real path there), with ``dustup`` and ``python``
this Python and the code under test:

* quick commands run to the end and must exit as the docs say (0, or the documented refusal);
* commands that play for minutes or hours (tournaments of hundreds of games, training runs) run as written
  until they show progress (a finished game, a training step) and are then stopped with Ctrl-C, as the docs
  say one may: they must stop cleanly (exit status 130) and keep what they did;
* the interactive ones (``play`` with ``human``, ``engine``, ``serve``) get a person's or a client's
  first words (quit, a request, an HTTP request) and must answer;
* ``make test`` is this suite's own run (CI runs it); ``make run`` runs here when the quick start's
  ``.venv`` exists (as in CI).

``test_every_command_shown_is_run_by_a_test`` keeps the list complete: a command added to a guide without a
test here fails it.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")),
        "agents/models/README.md"]


# ---------------------------------------------------------------------------------------------- the commands
def shown_commands() -> dict[str, list[str]]:
    """{command line as written: [the docs that show it]} from the bash blocks."""
    found: dict[str, list[str]] = {}
    for doc in DOCS:
        text = (ROOT / doc).read_text()
        for block in re.findall(r"```(?:bash|sh|shell|console)\n(.*?)```", text, re.S):
            pending = ""
            for raw in block.splitlines():
                line = raw.split("  #")[0].rstrip()
                if line.lstrip().startswith("#"):
                    continue
                line = pending + " " + line.strip() if pending else line.strip()
                if line.endswith("\\"):
                    pending = line[:-1].strip()
                    continue
                pending = ""
                line = line.removeprefix("$ ")
                if re.match(r"(dustup|python|make)\b", line):
                    found.setdefault(" ".join(line.split()), []).append(doc)
    return found


RUN_BY: dict[str, str] = {}  # command -> the test here that runs it


def runs(*commands):
    def mark(f):
        for c in commands:
            RUN_BY[c] = f.__name__
        return f
    return mark


ELSEWHERE = {
    "make test": "the suite's own run: CI (.ci/run) runs `make test`, which runs these tests",
}


# ---------------------------------------------------------------------------------------------- the scratch folder
def _crossroads() -> dict:
    text = (ROOT / "docs" / "scenarios.md").read_text()
    return json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """A folder set up as the docs assume; ``dustup`` and ``python`` on its PATH run the code under test."""
    w = tmp_path_factory.mktemp("docs")
    for d in ("configs", "benchmarks"):
        (w / d).symlink_to(ROOT / d)
    bindir = w.parent / (w.name + "-bin")
    bindir.mkdir()
    for name, body in (("dustup", f'exec "{sys.executable}" -m dustup_cli "$@"'),
                       ("python", f'exec "{sys.executable}" "$@"')):
        (bindir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bindir / name).chmod(0o755)
    # the files the guides tell the reader to write
    (w / "my_battle.json").write_text(json.dumps(_crossroads()))  # docs/scenarios.md: the complete example
    designs = ROOT / "dustup_env" / "data" / "designs"
    shutil.copy(designs / "main_battle_tank.json", w / "my_tank.json")
    shutil.copy(designs / "apc_wheeled.json", w / "a.json")
    shutil.copy(designs / "grav_apc.json", w / "b.json")
    quick = (ROOT / "configs" / "quick.yaml").read_text()  # docs/training.md: quick.yaml on the vehicle scenarios
    (w / "my-armour.yaml").write_text(quick + "scenarios: [armour, mechs]\n")
    # the models earlier runs made (the shipped policy stands in for each)
    ppo = ROOT / "agents" / "models" / "ppo.zip"
    (w / "agents" / "models").mkdir(parents=True)  # the shipped policy a config warm-starts from, where it lies
    shutil.copy(ppo, w / "agents" / "models" / "ppo.zip")
    for run in ("train/quick-HASH", "long", "armour", "provisional", "train-warm"):
        (w / "runs" / run).mkdir(parents=True)
        shutil.copy(ppo, w / "runs" / run / "best.zip")
    env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}", MPLBACKEND="Agg",
               PYTHONPATH=os.pathsep.join(p for p in [str(ROOT), os.environ.get("PYTHONPATH", "")] if p))
    env.pop("DUSTUP_DEBUG", None)
    return w, env


def files(w: Path) -> set[str]:
    return {str(p.relative_to(w)) for p in w.rglob("*") if p.is_file()}


def assert_ignored(cmd: str, made: set[str]) -> None:
    """What a command writes where it runs is ignored by git (.gitignore): a reader who runs the README's
    commands in a clone does not see their games, pictures and runs as changes to commit."""
    if not made or not (ROOT / ".git").exists() or shutil.which("git") is None:
        return
    r = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "--no-index", "--stdin"], input="\n".join(sorted(made)),
                       capture_output=True, text=True)
    ignored = set(r.stdout.split())
    assert made <= ignored, f"{cmd}: git does not ignore {sorted(made - ignored)[:10]}: add them to .gitignore"


def bash(cmd: str, work, timeout: float = 300, stdin: str = "") -> subprocess.CompletedProcess:
    w, env = work
    before = files(w)
    r = subprocess.run(["bash", "-c", cmd], cwd=w, env=env, input=stdin, capture_output=True, text=True,
                       timeout=timeout)
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, (cmd, r.stderr[-3000:])
    assert_ignored(cmd, files(w) - before)
    return r


def needs_policy():
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")


def needs_train():
    needs_policy()
    pytest.importorskip("yaml")


# ---------------------------------------------------------------------------------------------- run to the end
QUICK = [
    "dustup odds shoot --quality d8 --firepower d10 --firepower d6 --target d8",
    "dustup odds impact --impact d8 --armour d6",
    "dustup odds impact --impact d12x2 --armour d12x3 --vehicle",
    "dustup odds guided --quality d8 --guidance d10 --ecm d8 --cover --impact d12x3 --armour d12x2",
    "dustup odds accuracy --equipment advanced --leadership 2 --laser",
    "dustup odds shoot --quality d8 --firepower d10 --target d8 --json",
    "dustup scenarios",
    "dustup scenarios --check my_battle.json",
    "dustup design list",
    "dustup design check deimos_heavy_tank",
    "dustup design check my_tank.json --json",
    "dustup design check a.json b.json --strict",
    "dustup design rules",
    "dustup build --seed 7 --with vehicles,hidden --out battle.json",
    "dustup build --seed 7 --out battle.json",
    "dustup build --seed 7 --points 200 --table 96x72 --with vehicles,hidden,night --out big.json",
]


@runs(*QUICK)
@pytest.mark.parametrize("cmd", QUICK)
def test_quick_commands(cmd, work):
    r = bash(cmd, work, timeout=120)
    assert r.returncode == 0 and r.stdout.strip(), (cmd, r.returncode, r.stderr)


GAME = [
    "dustup play --agents hard,easy --seed 7 --save game.json",
    "dustup replay game.json",
    "dustup replay game.json --side 1",
    "dustup replay game.json --frames pictures/ --gif game.gif",
    "dustup replay game.json --json",
    "dustup play --agents hard,hard --scenario my_battle.json --save game.json && dustup replay game.json",
    "dustup replay game.json --frames pictures/",
]


@runs(*GAME)
def test_a_game_saved_replayed_and_drawn(work):
    w, _ = work
    for cmd in GAME:
        shutil.rmtree(w / "pictures", ignore_errors=True)  # --frames wants an empty folder (a second run refuses)
        r = bash(cmd, work, timeout=300)
        assert r.returncode == 0, (cmd, r.stderr)
        if "--frames" in cmd:
            assert (w / "pictures" / "frame_000.png").is_file()
        if "--gif" in cmd:
            assert (w / "game.gif").stat().st_size > 0
        if cmd.endswith("--json"):
            assert "result" in json.loads(r.stdout)
    assert (w / "game.json").is_file()


POLICY_GAMES = [
    "dustup play --agents policy:runs/train/quick-HASH/best.zip,random",
    "dustup play --agents policy:runs/train/quick-HASH/best.zip,random --save game.json && dustup replay game.json",
    "dustup play --agents ppo,hard --save game.json && dustup replay game.json",
]


@runs(*POLICY_GAMES)
@pytest.mark.parametrize("cmd", POLICY_GAMES)
def test_games_of_trained_policies(cmd, work):
    needs_policy()
    r = bash(cmd, work, timeout=300)
    assert r.returncode == 0 and r.stdout.strip(), (cmd, r.stderr)


@runs("dustup train --print-config", "dustup train --list-keys")
def test_training_configuration_commands(work):
    needs_train()
    for cmd in ("dustup train --print-config", "dustup train --list-keys"):
        r = bash(cmd, work, timeout=120)
        assert r.returncode == 0 and "budget" in r.stdout, (cmd, r.stderr)


@pytest.mark.slow
@runs("dustup train --config configs/armour-smoke.yaml")
def test_the_armour_smoke_training_run(work):
    """Under a minute on a quiet machine: run to the end."""
    needs_train()
    r = bash("dustup train --config configs/armour-smoke.yaml", work, timeout=600)
    assert r.returncode == 0 and "run folder: runs/train/armour-smoke-" in r.stdout, r.stderr[-2000:]


@pytest.mark.slow
@runs("python benchmarks/bench_random_play.py --games 100 --scenario armour --engine-only")
def test_the_engine_benchmark(work):
    r = bash("python benchmarks/bench_random_play.py --games 100 --scenario armour --engine-only", work, timeout=600)
    assert r.returncode == 0 and r.stdout.strip(), r.stderr[-2000:]


# command -> its progress line (stderr) once its first unit of work is finished: a timed game (after the untimed
# warm-up games), a pair of games, a batch of scenarios
SLOW_BENCH = {
    "python benchmarks/bench_random_play.py --games 100 --scenario armour": r"^game [1-9]\d*/100: ",
    "python benchmarks/ladder_ab.py hard medium --pairs 100 --scenario armour": r"^hard v medium: pair [1-9]\d*/100, ",
    "python benchmarks/builder_check.py schema --count 10000": r"^schema: [1-9]\d*/10000 scenarios, ",
    "python benchmarks/builder_check.py play --count 1000": r"^play: [1-9]\d*/1000 scenarios played ",
    "python benchmarks/builder_check.py points --pairs 400": r"^points: [1-9]\d*/400 pairs, ",
    "python benchmarks/builder_check.py points --pairs 100 --ratio 1.5": r"^points: [1-9]\d*/100 pairs, ",
}


@pytest.mark.slow
@runs(*SLOW_BENCH)
@pytest.mark.parametrize("cmd", list(SLOW_BENCH))
def test_benchmarks_start(cmd, work):
    """A minute or more each: run as written until its progress shows its first unit of work (a game, a pair of
    games, a batch of scenarios) finished, with no traceback or error on stderr, then stopped (these scripts leave
    Ctrl-C to Python: they are killed)."""
    err = run_until_progress(cmd, work, what="line", pattern=SLOW_BENCH[cmd], ctrl_c=False)
    assert "rror" not in err, (cmd, err[-2000:])


# ---------------------------------------------------------------------------------------------- interactive
PLAY = ["dustup play --agents human,hard --save game.json", "dustup play --agents human,ppo",
        "dustup play --agents human,hard --scenario battle.json"]


@runs(*PLAY)
@pytest.mark.parametrize("cmd", PLAY)
def test_playing_yourself(cmd, work):
    """The person types `q` at the first decision: the game stops (saved with --save), exit status 1."""
    if "ppo" in cmd:
        needs_policy()
    w, _ = work
    if "battle.json" in cmd and not (w / "battle.json").exists():  # docs/builder.md: the battle built before
        assert bash("dustup build --seed 7 --out battle.json", work, timeout=120).returncode == 0
    r = bash(cmd, work, stdin="q\n", timeout=300)
    assert r.returncode == 1 and "your choice" in r.stdout and "stopped by the player" in r.stderr, r.stderr
    if "--save" in cmd:
        assert json.loads((w / "game.json").read_text())["format"] == "dustup-save"


@runs("dustup engine")
def test_the_engine_answers_a_front_end(work):
    r = bash("dustup engine", work, stdin='{"cmd": "hello", "id": 1}\n{"cmd": "quit"}\n', timeout=120)
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.returncode == 0 and lines[0]["ok"] and lines[0]["id"] == 1 and lines[-1] == {"ok": True, "bye": True}


def _serve(cmd: str, url: str, work):
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    w, env = work
    before = files(w)
    p = subprocess.Popen(["bash", "-c", f"exec {cmd}"], cwd=w, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5) as resp:
                    assert resp.status == 200 and b"<html" in resp.read(2000).lower()
                break
            except (OSError, ValueError):
                assert p.poll() is None, p.communicate()[1][-2000:]
                assert time.monotonic() < deadline, f"{cmd}: no answer at {url}"
                time.sleep(0.5)
    finally:
        os.killpg(p.pid, signal.SIGINT)
        try:
            _, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            _, err = p.communicate()
    assert "Traceback" not in err, err[-2000:]
    assert_ignored(cmd, files(w) - before)


@pytest.mark.xdist_group("doc-serve")  # fixed ports: one at a time
@runs("dustup serve")
def test_serve_on_its_default_address(work):
    _serve("dustup serve", "http://127.0.0.1:8000/", work)


@pytest.mark.xdist_group("doc-serve")
@runs("dustup serve --host 0.0.0.0 --port 8080 --db games.db")
def test_serve_on_another_port_with_its_database_file(work):
    _serve("dustup serve --host 0.0.0.0 --port 8080 --db games.db", "http://127.0.0.1:8080/", work)
    assert (work[0] / "games.db").is_file()


@runs("dustup serve --db postgresql://user@host/dustup")
def test_serve_with_a_database_url_needs_its_driver(work):
    """Shown as an example of a URL "with its driver installed": without the driver, a one-line refusal."""
    pytest.importorskip("sqlalchemy")
    try:
        import psycopg  # noqa: F401
        pytest.skip("a PostgreSQL driver is installed: the example would try to connect to 'host'")
    except ImportError:
        pass
    r = bash("dustup serve --db postgresql://user@host/dustup", work, timeout=120)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "postgresql://user@host/dustup" in lines[0], r.stderr


# ---------------------------------------------------------------------------------------------- long: progress, then Ctrl-C
def run_until_progress(cmd: str, work, what: str = "game", timeout: float = 300, pattern: str | None = None,
                       ctrl_c: bool = True) -> str:
    """Start ``cmd`` as written; once its progress bar shows a finished game (``what="game"``), its progress bar
    has been up for a few seconds of play (``what="start"``: the searches, whose first game takes minutes here), the
    training bar has started (``what="train"``), or a progress line matches ``pattern``, press Ctrl-C: it must stop cleanly
    (exit status 130) without a traceback.  ``ctrl_c=False``: a command that leaves Ctrl-C to Python is killed
    instead, and what it wrote on stderr until then must hold no traceback."""
    w, env = work
    before = files(w)
    p = subprocess.Popen(["bash", "-c", f"exec {cmd}"], cwd=w, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, start_new_session=True)
    err: list[str] = []
    seen = threading.Event()
    started: list[float] = []  # what="start": when the progress bar came up

    def read():  # drains stderr to the end (a full pipe would block the command), watching its progress bar
        buf = ""
        while True:
            chunk = os.read(p.stderr.fileno(), 65536)
            if not chunk:
                break
            text = chunk.decode("utf-8", "replace")
            err.append(text)
            buf += text
            *lines, buf = re.split(r"[\r\n]", buf)
            # a bar's line is ended only by its next update: the line being drawn counts too
            m = re.search(r"(\d+)/(\d+) \[", buf)
            if what == "start" and m and not started:
                started.append(time.monotonic())
            if what == "game" and m and int(m.group(1)) > 0:
                seen.set()
            for line in lines:
                if what == "train" and re.search(r"train: .*\d+/[\d,]+", line):
                    seen.set()
                m = re.search(r"(\d+)/(\d+) \[", line)
                if what == "game" and m and int(m.group(1)) > 0:
                    seen.set()
                if what == "start" and m and not started:
                    started.append(time.monotonic())
                if pattern is not None and re.search(pattern, line):
                    seen.set()

    t = threading.Thread(target=read, daemon=True)
    t.start()
    deadline = time.monotonic() + timeout
    while not seen.is_set() and p.poll() is None and time.monotonic() < deadline:
        if started and time.monotonic() - started[0] >= 4:  # what="start": 4 s of play, the command still running
            seen.set()
        time.sleep(0.2)
    if p.poll() is not None:  # it ended by itself (a folder already complete, ...): it must have succeeded
        t.join(10)
        assert p.returncode == 0, (cmd, p.returncode, "".join(err)[-2000:])
        assert_ignored(cmd, files(w) - before)
        return "".join(err)
    assert seen.is_set(), f"{cmd}: no progress within {timeout} s: {''.join(err)[-2000:]}"
    if not ctrl_c:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        t.join(10)
        text = "".join(err)
        assert "Traceback" not in text and "internal error" not in text, text[-3000:]
        assert_ignored(cmd, files(w) - before)
        return text
    os.killpg(p.pid, signal.SIGINT)
    try:
        p.wait(timeout=180)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        raise AssertionError(f"{cmd}: did not stop within 180 s of Ctrl-C: {''.join(err)[-2000:]}")
    t.join(10)
    text = "".join(err)
    assert p.returncode == 130, (cmd, p.returncode, text[-2000:])
    assert "Traceback" not in text and "internal error" not in text, text[-3000:]
    assert_ignored(cmd, files(w) - before)
    return text


LONG_GAMES = [
    "dustup tournament --agents 'hard,mcts:prior=hard,playouts=30,value=learned,mcts:prior=hard,playouts=30,depth=15,value=learned' --gauntlet hard --scenarios skirmish --games 30 --seed 11 --concurrency 1",
    "dustup tournament --agents 'hard,mcts:prior=hard,playouts=30,mcts:prior=hard,playouts=30,value=learned' --gauntlet hard --scenarios skirmish --games 30 --seed 12 --concurrency 1",
    "dustup tournament --agents 'hard,mcts:prior=hard,playouts=30,mcts:prior=hard,playouts=30,value=learned' --gauntlet hard --scenarios default --games 20 --seed 11 --concurrency 1",
    "dustup sprt --agents mcts:prior=hard,mcts:prior=hard,time=0.25 --scenario skirmish --elo0 -50 --elo1 0 --batch 30 --max-games 600 --seed 5 --concurrency 15",
    "dustup sprt --agents mcts,mcts:time=0.25 --scenario skirmish --elo0 -50 --elo1 0 --batch 30 --max-games 600 --seed 6 --concurrency 2",
    "dustup tournament --agents hard,mcts:prior=hard,time=0.25,mcts:prior=hard,time=0.25,value=learned --gauntlet hard --scenarios default --games 100 --seed 102 --concurrency 15 --decision-time 60",
    "dustup tournament --agents 'hard,ppo,mcts:prior=ppo,playouts=30' --gauntlet hard --scenarios default --games 100 --seed 32 --concurrency 2 --decision-time 120",
    *[f"dustup tournament --agents 'hard,ppo,mcts:time=0.25,prior=ppo' --gauntlet hard --scenarios default --games 100 --seed {seed} --concurrency 2 --decision-time 60"
      for seed in (33, 34)],
    *[f"dustup gauntlet --agent ppo --anchors hard --scenarios {sc} --games 100 --seed 32 --concurrency 1"
      for sc in ("skirmish", "armour")],
    *[f"dustup gauntlet --agent {a} --anchors hard --scenarios skirmish --games 400 --seed 20261128 --concurrency 2"
      for a in ("ppo-skirmish", "ppo")],
    *[f"dustup tournament --agents 'hard,ppo-skirmish,mcts:time=0.25,prior=ppo-skirmish' --gauntlet hard --scenarios skirmish --games 100 --seed {seed} --concurrency 2 --decision-time 60"
      for seed in (35, 36)],
    "dustup tournament --agents 'hard,mcts:time=0.25' --gauntlet hard --scenarios skirmish --games 40 --seed 37 --concurrency 2 --decision-time 60",
    "python benchmarks/analysis_calibration.py --positions 2000 --rate 0.02 --out runs/calibration-fit.json --fit",
    "python benchmarks/analysis_calibration.py --suite --rate 0.01 --seed 3 --out runs/calibration-suite.json",
    "dustup simulate --agents hard,medium --games 200",
    "dustup tournament --agents random,easy,medium,hard --games 40",
    "dustup sprt --agents hard,medium --elo0 0 --elo1 50",
    "dustup gauntlet --agent ppo --anchors random,hard --games 400",
    "dustup tournament --agents random,easy,medium,hard,defensive --games 1000 --seed 4 --concurrency 1 "
    "--out runs/ladder",
    "dustup tournament --agents random,easy,medium,hard,defensive --games 1000 --seed 4 --concurrency 1 "
    "--out runs/ladder --anchor easy",
    "dustup simulate --agents hard,random --scenario armour --games 200 --json",
    "dustup tournament --agents random,easy,medium,hard,defensive --scenarios armour --games 200 --seed 4 "
    "--concurrency 2",
    "dustup gauntlet --agent policy:runs/armour/best.zip --scenarios armour,mechs --anchors random,easy --games 100",
    "dustup gauntlet --agent policy:runs/long/best.zip --anchors random,easy,medium,hard --games 400 --seed 7",
    "dustup tournament --agents policy:runs/long/best.zip,ppo,hard --games 200",
    "dustup sprt --agents policy:runs/long/best.zip,ppo --elo0 0 --elo1 30",
    "dustup tournament --agents ppo,hard,medium,random --games 40",
    "dustup tournament --agents hard,medium,easy,random --scenarios breach,night-raid --games 60 --seed 7 "
    "--concurrency 1",
    "dustup tournament --agents hard,medium,easy,random --scenarios night-raid --games 100 --seed 7 --concurrency 1",
    "dustup benchmark --agent hard",
    "dustup benchmark --agent mcts:playouts=16 --games 4 --concurrency 2 --decision-time 60",
    *[f"dustup benchmark --agent {a} --games 10 --seed 0 --concurrency 1"
      for a in ("random", "easy", "medium", "defensive", "hard", "ppo")],
    "dustup benchmark --agent mcts:playouts=16 --games 2 --seed 0 --concurrency 2 --decision-time 60",
    # the search's root settings compared (docs/agents.md, "The search agent")
    "dustup tournament --agents 'hard,mcts:prior=hard,playouts=30,mcts:prior=hard,playouts=30,alloc=even,width=3,mcts:prior=hard,playouts=30,"
    "roots=mixed,alloc=even,width=3,mcts:prior=hard,playouts=30,roots=neighbours,alloc=race,width=3,mcts:prior=hard,playouts=50,tail=medium,"
    "head=10' --gauntlet hard --scenarios skirmish --games 30 --seed 11 --concurrency 1",
    "dustup tournament --agents 'hard,mcts:prior=hard,playouts=30,mcts:prior=hard,playouts=30,alloc=even,width=3,mcts:prior=hard,playouts=30,"
    "roots=mixed,alloc=even,width=3' --gauntlet hard --scenarios skirmish --games 30 --seed 12 --concurrency 1",
    "dustup tournament --agents 'hard,mcts:prior=hard,playouts=30,alloc=even,width=2,mcts:prior=hard,playouts=30,alloc=even,width=2,z=1.5' "
    "--gauntlet hard --scenarios skirmish --games 30 --seed 11 --concurrency 1",
    "dustup tournament --agents 'hard,mcts:prior=hard,playouts=30,roots=neighbours' --gauntlet hard --scenarios skirmish "
    "--games 30 --seed 11 --concurrency 1",
    "dustup tournament --agents 'hard,mcts:prior=hard,playouts=30,tdist=1' --gauntlet hard --scenarios skirmish --games 30 "
    "--seed 11 --concurrency 1",
    *[f"dustup tournament --agents level:1,level:2,level:3,level:4,level:5,level:6,level:7,level:8 --scenarios default "
      f"--games 400 --seed {seed} --concurrency {c} --anchor level:1" for seed, c in ((2011, 1), (2012, 1), (2013, 2))],
]


@pytest.mark.slow
@runs(*LONG_GAMES)
@pytest.mark.parametrize("cmd", LONG_GAMES)
def test_long_commands_start_play_and_stop_on_ctrl_c(cmd, work):
    """Hundreds to thousands of games: too long for CI; run as written until a game is finished (a search's
    commands: until its progress bar has been up 4 s, as a first game of `default` takes minutes here), then
    Ctrl-C."""
    if "ppo" in cmd or "policy:" in cmd:
        needs_policy()
    run_until_progress(cmd, work, "start" if "mcts" in cmd else "game")


# the search studies (docs/agents.md, "A learned value" and "How much a root choice can gain"): the collecting runs
# as written until their first progress line, then Ctrl-C; the reports of saved runs as written, on tiny saved runs
SEARCH_STUDIES = {
    "python benchmarks/fit_value.py --games 4000 --rate 0.025 --out runs/value-positions.json": r"^game [1-9]\d*/4000 ",
    "python benchmarks/search_headroom.py --scenarios skirmish --positions 150 --playouts 128 --seed 1 --out "
    "runs/headroom-skirmish.json": r" [1-9]\d*/150 game ",
    "python benchmarks/search_headroom.py --scenarios default --positions 24 --playouts 128 --seed 1 --out "
    "runs/headroom-default.json": r" [1-9]\d*/24 game ",
    "python benchmarks/search_headroom.py --scenarios default --positions 24 --playouts 128 --seed 2 --out "
    "runs/headroom-default-2.json": r" [1-9]\d*/24 game ",
}
SAVED_REPORTS = [
    "python benchmarks/fit_value.py --from runs/value-positions.json --write agents/data/value.json",
    "python benchmarks/search_headroom.py --from runs/headroom-default.json,runs/headroom-default-2.json",
    "python benchmarks/search_headroom.py --from runs/headroom-skirmish.json",
]


@pytest.mark.slow
@runs(*SEARCH_STUDIES)
@pytest.mark.parametrize("cmd", list(SEARCH_STUDIES))
def test_the_search_studies_start_and_stop_on_ctrl_c(cmd, work):
    run_until_progress(cmd, work, what="line", pattern=SEARCH_STUDIES[cmd])


@pytest.mark.slow
@runs(*SAVED_REPORTS)
def test_the_search_studies_report_saved_runs(work):
    """Tiny saved runs in the files the docs name, then the docs' report commands as written: each succeeds, and
    the weights it writes load as the search's learned value."""
    w, env = work
    (w / "runs").mkdir(exist_ok=True)
    (w / "agents" / "data").mkdir(parents=True, exist_ok=True)
    tiny = [f"{sys.executable} benchmarks/fit_value.py --games 12 --rate 0.2 --scenarios skirmish "
            "--out runs/value-positions.json"] + [
        f"{sys.executable} benchmarks/search_headroom.py --scenarios {sc} --positions 1 --playouts 2 --seed {k} "
        f"--out runs/{name}.json"
        for sc, k, name in (("skirmish", 1, "headroom-skirmish"), ("skirmish", 1, "headroom-default"),
                            ("skirmish", 2, "headroom-default-2"))]
    for c in tiny + SAVED_REPORTS:
        r = subprocess.run(["bash", "-c", c], cwd=w, env=env, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, (c, r.stdout[-1500:], r.stderr[-1500:])
        assert "Traceback" not in r.stderr, r.stderr[-2000:]
    from agents.value import load_weights
    assert len(load_weights(w / "agents" / "data" / "value.json")) > 0


LONG_TRAINING = [
    "dustup train --config configs/quick.yaml",
    "dustup train --config configs/quick.yaml --steps 300000",
    "dustup train --config configs/train.yaml --out runs/long --minutes 60",
    "dustup train --config my-armour.yaml --out runs/armour",
    "dustup train --config configs/provisional.yaml --out runs/provisional",
    "dustup train --config configs/train-warm.yaml --out runs/train-warm",
    "dustup train --config configs/train-vs-hard.yaml --out runs/train-vs-hard --minutes 95",
    "dustup train --config configs/train-skirmish.yaml --out runs/train-skirmish --minutes 10.2",
]


@pytest.mark.slow
@runs(*LONG_TRAINING)
@pytest.mark.parametrize("cmd", LONG_TRAINING)
def test_training_runs_start_and_stop_on_ctrl_c(cmd, work):
    """Minutes to hours of training: run as written until it trains, then Ctrl-C (a clean stop, a checkpoint)."""
    needs_train()
    w, _ = work
    err = run_until_progress(cmd, work, "train")
    out = re.search(r"--out (\S+)", cmd)
    if out:  # the run folder it made holds its configuration and, stopped cleanly, its state
        assert (w / out.group(1) / "config.yaml").is_file(), err[-2000:]


@pytest.mark.slow
@runs("make run")
def test_make_run(tmp_path):
    """The quick start, as written, where its .venv exists (CI's, made by `make test`); elsewhere `make run` would
    first create and fill a .venv (test_packaging checks what it installs)."""
    if not (ROOT / ".venv" / ".run").is_file():
        pytest.skip("no .venv with the quick start's packages here (CI makes one with `make test`)")
    r = subprocess.run(["make", "run"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "ppo" in r.stdout and (ROOT / "runs" / "quickstart" / "report.md").is_file()


# ---------------------------------------------------------------------------------------------- complete
def test_every_command_shown_is_run_by_a_test():
    shown = shown_commands()
    assert len(shown) >= 40, sorted(shown)
    missing = {c: docs for c, docs in shown.items() if c not in RUN_BY and c not in ELSEWHERE}
    assert not missing, f"commands shown in the docs that no test runs (add them to tests/test_doc_commands.py): " \
                        f"{missing}"
    stale = sorted(set(RUN_BY) - set(shown))
    assert not stale, f"tests here run commands the docs no longer show: {stale}"
    for c in shown:
        assert not re.search(r"\.\.\.|\[--|<[A-Z]+>", c), f"not a command one can run as written: {c!r}"
