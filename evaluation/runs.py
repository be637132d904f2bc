"""Output folders of the long commands: a default folder per distinct run, and a lock against two writers.

A command run without ``--out`` writes to ``runs/<command>/<name>-<hash>``, where the hash covers
everything that decides the games (agents, scenarios, seed, options, ...): running the same command
again finds its own folder (and resumes it, or reports at once when it is complete), and a different
command never lands in a folder that holds another run.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

LOCK = ".lock"



_CTRL_C = False  # a Ctrl-C arrived while a run was latching it (:func:`ctrl_c_latched`)


def _on_ctrl_c(signum, frame):
    global _CTRL_C
    _CTRL_C = True
    raise KeyboardInterrupt


@contextmanager
def ctrl_c_latched():
    """While a run plays games in this process: a Ctrl-C raises KeyboardInterrupt as usual and is also remembered,
    and :func:`check_ctrl_c` raises it again at the game's next decision.  A KeyboardInterrupt can be lost on its
    way up: Python only prints one raised inside a weakref callback or a ``__del__`` ("Exception ignored in"), and
    an agent's own ``except BaseException`` would swallow it; the run still stops.  Where Ctrl-C is not Python's
    (ignored by a background job, another handler) or off the main thread, nothing changes."""
    global _CTRL_C
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    _CTRL_C = False
    signal.signal(signal.SIGINT, _on_ctrl_c)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _CTRL_C = False


def check_ctrl_c() -> None:
    """Raise KeyboardInterrupt if a Ctrl-C arrived under :func:`ctrl_c_latched` (a game loop calls it each decision)."""
    if _CTRL_C:
        raise KeyboardInterrupt


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run: ``played`` of ``total`` games are recorded in ``out`` (the same call resumes)."""

    def __init__(self, played: int, total: int, out):
        super().__init__(f"interrupted: {played} of {total} games are recorded in {out}")
        self.played, self.total, self.out = played, total, out

def default_out(command: str, name: str, config: dict, root: str | Path = "runs") -> Path:
    """``runs/<command>/<name>-<8 hex>``: ``name`` readable (cut and made file-safe), the hash of ``config``."""
    digest = hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()[:8]
    safe = re.sub(r"[^A-Za-z0-9_.,+=-]+", "_", name).strip("_.")[:60] or command
    return Path(root) / command / f"{safe}-{digest}"


class FolderBusy(RuntimeError):
    """Another process is writing the same output folder."""


class RunMismatch(ValueError):
    """An output folder holds the games of another run (other agents, scenarios, options, engine, models)."""


# ---------------------------------------------------------------------------------------------- identity
def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def file_digest(path: str | Path) -> str:
    """A short hash of a file's bytes (a model file: a retrained ``policy:PATH`` is another agent)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def _tree_digest(root: Path, pattern: str) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob(pattern)):
        if p.is_file() and "__pycache__" not in p.parts:
            h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def agent_identity(spec: str) -> str:
    """What decides an agent's play: a trained policy by its model file's hash (``ppo``: the shipped file), a
    scripted bot by its name and the hash of the bots' code (``agents/``)."""
    import agents

    from agents.policy import SHIPPED_POLICIES

    if spec in SHIPPED_POLICIES:
        path = SHIPPED_POLICIES[spec]
        return f"{spec} model {file_digest(path)}" if path.is_file() else f"{spec} (no model file)"
    name, _, arg = spec.partition(":")
    if arg and Path(arg).expanduser().is_file():
        return f"{name} model {file_digest(Path(arg).expanduser())}"
    from dustup_env.agent_registry import AGENTS

    module = sys.modules.get(getattr(AGENTS.get(name), "__module__", ""), None)
    src = getattr(module, "__file__", None)
    if src and not Path(src).resolve().is_relative_to(Path(agents.__file__).resolve().parent):
        return f"{spec} code {file_digest(src)}"  # a plug-in agent: its own module
    code = f"{spec} code {_tree_digest(Path(agents.__file__).resolve().parent, '*.py')}"
    if name == "mcts":  # a search whose prior, rollout or tail player is a shipped policy: its model files too
        from agents.mcts import parse_settings
        from agents.policy import POLICY_FOR

        try:
            s = parse_settings(arg or None)
        except ValueError:
            return code
        used = {s["prior"], s["rollout"], s["tail"]} | (set(POLICY_FOR.values()) if s["prior"] == "auto" else set())
        models = [f"{p}={file_digest(SHIPPED_POLICIES[p])}" for p in sorted(used & set(SHIPPED_POLICIES))
                  if SHIPPED_POLICIES[p].is_file()]
        if models:
            return f"{code} model {','.join(models)}"
    return code


def scenario_identity(scenario) -> str:
    """A scenario by its content (the validated document), not its name: an edited file is another scenario."""
    from dustup_env.rules.kernel.data import scenario_document

    return _sha(json.dumps(scenario_document(scenario), sort_keys=True, default=str).encode())


def engine_identity(scenarios: list, options: dict | None = None) -> str:
    """The engine's version, the rules digest of a game of each scenario with ``options`` (rule set, option
    defaults, data, rules revision) and the hash of the engine's data files (designs, schemas included)."""
    from dustup_env import version
    from dustup_env.rules import Game
    from dustup_env.rules.kernel.data import DATA
    from dustup_env.rules.kernel.saves import rules_digest

    rules = sorted({rules_digest(Game(sc, seed=0, options=options or None)) for sc in scenarios})
    return f"{version.__version__} rules {'+'.join(rules)} data {_tree_digest(Path(str(DATA)), '*.json')}"


def run_identity(agents: list[str], scenarios: list, options: dict | None = None) -> dict:
    """Everything besides the seed and the caps that decides the games of a run: the engine (version, rules
    digest, data), each scenario's content and each agent's identity.  A folder records it; resuming the folder
    with another identity is refused (:func:`check_identity`)."""
    return {"engine": engine_identity(list(scenarios), options),
            "scenarios": {str(sc) if isinstance(sc, str) else sc.get("name", "?"): scenario_identity(sc)
                          for sc in scenarios},
            "agents": {a: agent_identity(a) for a in agents}}


def check_identity(out: Path, old: dict | None, new: dict) -> None:
    """Refuse (one line) to add games to ``out`` when its recorded identity is not ``new``."""
    where = f"{out} holds games"
    tail = "; use another --out folder (or remove this one) to start anew"
    if old is None:
        raise RunMismatch(f"{where} from a version of dustup that did not record its engine, scenarios and agents, "
                          f"so they cannot be reused safely{tail}")
    if old.get("engine") != new["engine"]:
        raise RunMismatch(f"{where} of another engine (engine {old.get('engine')}; this one is {new['engine']})"
                          f"{tail}")
    for sc, h in new["scenarios"].items():
        if old.get("scenarios", {}).get(sc) != h:
            raise RunMismatch(f"{where} of another scenario {sc!r} (its content changed since){tail}")
    for a, ident in new["agents"].items():
        was = old.get("agents", {}).get(a)
        if was != ident:
            what = "its model file changed" if " model " in ident else "its code changed"
            raise RunMismatch(f"{where} of another agent {a!r} ({what}: {was} then, {ident} now){tail}")


@contextmanager
def locked(out: str | Path):
    """Hold ``OUT/.lock`` (an exclusive advisory lock) while writing ``out``; a second writer is refused at once."""
    out = Path(out)
    try:
        import fcntl
    except ImportError:  # not on POSIX: no lock
        yield
        return
    fh = open(out / LOCK, "a+")
    try:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise FolderBusy(f"{out} is being written by another dustup process; wait for it to finish or "
                             "use another --out") from None
        fh.seek(0)
        fh.truncate()
        fh.write(str(os.getpid()))
        fh.flush()
        yield
    finally:
        fh.close()


def check_out(out: str | Path) -> Path:
    """Refuse an output path that cannot be a folder (an existing file, or under one) before anything is made."""
    out = Path(out)
    for p in [out, *out.parents]:
        if p.exists():
            if not p.is_dir():
                raise ValueError(f"--out {str(out)!r}: {str(p)!r} is a file, not a folder")
            if not os.access(p, os.W_OK):
                raise ValueError(f"--out {str(out)!r}: cannot write in {str(p)!r}")
            break
    return out


def draw_or_warn(draw, *args, what: str = "a plot", log=None) -> bool:
    """Draw a plot; a plot never fails a run: any error in drawing is one warning line (on stderr, or ``log``)
    and ``False``, and the run goes on with its games, ratings and report."""
    try:
        draw(*args)
        return True
    except Exception as e:  # noqa: BLE001 - whatever the plotting library raises, the results stand
        msg = " ".join(f"warning: {what} was not drawn ({type(e).__name__}: {e}); the results are unaffected".split())
        if log is None:
            import sys

            print(msg, file=sys.stderr)
        else:
            log(msg)
        return False


def drop_partial_line(p: Path) -> None:
    """A kill can leave the last line half written: cut it so appended records start on a new line."""
    if not p.exists():
        return
    data = p.read_bytes()
    if data and not data.endswith(b"\n"):
        p.write_bytes(data[: data.rfind(b"\n") + 1])
