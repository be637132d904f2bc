"""``dustup train``: MaskablePPO self-play training with an opponent pool, a fixed gauntlet and checkpoints.

Layout of a run folder ``OUT``::

    config.yaml            the full configuration (defaults filled in); a resumed run must match it
    state.json             trainer state: steps, pool and PFSP results, gauntlet history, timings
    checkpoints/latest.zip full model with optimizer state (resume point)
    snapshots/step_N.zip   slim frozen snapshots (pool opponents and gauntlet candidates)
    best.zip               the snapshot with the best mean score over the fixed gauntlet games
    final.zip              the slim model at the end of the run
    gauntlet/              tournament records per snapshot (evaluation.tournament), anchors' round robin
    gauntlet.md, curves.png the gauntlet table and score/Elo curves against steps
    tb/                    TensorBoard logs (losses, episode stats, pool weights, gauntlet, timings)
    summary.json           throughput (steps/s incl. updates), time fractions (env, rollout, update)

Re-running the same command on the same ``OUT`` resumes from the latest checkpoint (a raised
``budget.steps`` or ``budget.minutes`` extends the run; any other change is refused).

Ctrl-C (SIGINT) stops the run cleanly: the trainer finishes the step (or gauntlet) in progress, writes
the checkpoint, ``final.zip`` and ``summary.json`` and returns with ``interrupted`` set; the environment
and gauntlet workers ignore SIGINT and are closed by the trainer. A second Ctrl-C aborts at once (the
last periodic checkpoint stays the resume point).

Model files are loaded with pickle: load only trusted files (see agents/policy.py).
"""
from __future__ import annotations

import json
import shutil
import signal
import sys
import threading
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from .config import ConfigError, dump, load_config

TB_NAME = "ppo"
_UNSAVED = ["collect_rollouts", "train"]  # the trainer's timing wrappers (instance attributes)


def _policy_kwargs(cfg: dict) -> dict:
    import torch
    from stable_baselines3.common.torch_layers import FlattenExtractor

    from .extractor import EntityExtractor

    p = cfg["policy"]
    act = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[p["activation"]]
    kw = {"net_arch": {"pi": list(p["net_arch"]), "vf": list(p["net_arch"])}, "activation_fn": act}
    if p["extractor"] == "entity":
        kw["features_extractor_class"] = EntityExtractor
        kw["features_extractor_kwargs"] = {"embed_dim": p["embed_dim"], "layers": p["attention_layers"],
                                           "heads": p["heads"], "slot_dim": p["slot_dim"]}
    else:
        kw["features_extractor_class"] = FlattenExtractor
    return kw


def run_layout(scenarios):
    """The observation layout of a run over ``scenarios``: the infantry one, or the armoured one if any scenario
    fields vehicles or heavy weapons (a run has one observation space: its infantry games get all-zero armoured
    pieces, which is what those pieces hold in a game without vehicles)."""
    from dustup_env.observation import layout_for
    from dustup_env.rules.kernel.data import load_scenario

    return max((layout_for(load_scenario(s)) for s in scenarios), key=lambda lay: lay.size)


def _torch_device(name: str) -> str:
    """The torch device of the ``device`` key: ``auto`` is cuda when torch sees a GPU; ``cuda`` without one is a
    clear error before any worker starts."""
    import torch

    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise ConfigError("device: cuda, but torch sees no GPU (a CPU build of torch, or no CUDA device): "
                          "use device: cpu or auto")
    return name


def save_slim(model, path: str | Path) -> None:
    """Save ``model`` without optimizer moments, rollout state or episode buffers (a small policy file)."""
    pol = model.policy
    opt = pol.optimizer
    pol.optimizer = pol.optimizer_class(pol.parameters(), lr=1e-4, **pol.optimizer_kwargs)  # fresh: no state
    try:
        model.save(str(path), exclude=_UNSAVED + ["_last_obs", "_last_original_obs", "_last_episode_starts",
                                                  "ep_info_buffer", "ep_success_buffer", "tensorboard_log"])
    finally:
        pol.optimizer = opt



def _grown(src, model) -> bool:
    """Whether ``model``'s spaces are ``src``'s with observation pieces and option families appended since ``src``
    was trained: its observation layout begins with ``src``'s pieces and its actions with ``src``'s families."""
    from agents.policy import families_prefix
    from dustup_env.observation import layout_of_size

    try:
        old, new = layout_of_size(src.observation_space.shape[0]), layout_of_size(model.observation_space.shape[0])
    except ValueError:
        return False
    n_old, n_new = int(src.action_space.n), int(model.action_space.n)
    appended = {p.name for p in new.pieces[len(old.pieces):]}
    # only the pieces every game gained (a model of the infantry layout is not one of the armoured layout)
    return (old.prefix_of(new) and appended <= {"decision", "entities"} and n_old <= n_new
            and families_prefix(n_old) is not None)


def _widened(state: dict, src, model, new_bias: float = -20.0) -> dict:
    """``src``'s policy weights for ``model``'s larger spaces: the feature extractor reads its pieces by name (the
    appended ones are ignored by extractors built before them, so its weights fit as they are); the action head
    gets zero weights and a strongly negative bias for the appended families (as ``training.migrate`` does), so
    the warm-started policy plays exactly as the old one until training moves it."""
    import torch

    out = dict(state)
    n_old, n_new = int(src.action_space.n), int(model.action_space.n)
    if n_new > n_old:
        w, b = state["action_net.weight"], state["action_net.bias"]
        wide = torch.zeros((n_new, w.shape[1]), dtype=w.dtype)
        bias = torch.full((n_new,), float(new_bias), dtype=b.dtype)
        wide[:n_old], bias[:n_old] = w, b
        out["action_net.weight"], out["action_net.bias"] = wide, bias
    return out

class Trainer:
    """One training run in ``out`` (new or resumed)."""

    def __init__(self, cfg: dict, out: str | Path, progress: bool = True, log=print):
        self.cfg = cfg
        self.out = Path(out)
        self.progress = progress
        self.log = log
        self.state: dict = {}

    def _warm_start(self, model, path) -> None:
        """Copy the policy weights of a trusted model file (space-checked) into a new ``model``."""
        from agents.policy import load_model

        import torch

        threads = torch.get_num_threads()
        src = load_model(path)
        torch.set_num_threads(threads)  # load_model sets one thread for play
        state = src.policy.state_dict()
        if src.observation_space.shape != model.observation_space.shape and _grown(src, model):
            state = _widened(state, src, model)  # a model from before pieces and families were appended
        elif src.observation_space.shape != model.observation_space.shape:
            from dustup_env.observation import LAYOUTS

            base = {p.name for p in LAYOUTS[0].pieces}
            sizes = ", ".join(f"{'+'.join(p.name for p in lay.pieces if p.name not in base) or 'infantry'} "
                              f"{lay.size}" for lay in LAYOUTS)
            raise ConfigError(f"policy.init {str(path)!r}: its observation has {src.observation_space.shape[0]} values, "
                             f"this run's scenarios {self.cfg['scenarios']} have {model.observation_space.shape[0]} "
                             f"({sizes}): warm-start from a model trained "
                             "on the same kind of scenario")
        try:
            model.policy.load_state_dict(state)
        except RuntimeError as e:
            raise ConfigError(f"policy.init {str(path)!r}: its network does not match the configured policy "
                             f"(extractor/net_arch): {str(e).splitlines()[0]}") from e
        self.log(f"warm start: policy weights from {path}")

    # ------------------------------------------------------------------ run folder
    def check(self) -> None:
        """Refuse, before the run folder is made, what would stop the run at its start: a new run whose
        warm-start model file (``policy.init``) does not exist, or a folder that holds another run."""
        out = self.out
        if out.exists() and not out.is_dir():
            raise ConfigError(f"{out} is a file, not a run folder")
        state_path = out / "state.json"
        if state_path.exists():
            import yaml

            old = yaml.safe_load((out / "config.yaml").read_text())
            a = {k: v for k, v in old.items() if k != "budget"}
            b = {k: v for k, v in self.cfg.items() if k != "budget"}
            if a != b:
                diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
                raise ConfigError(f"{out} holds a run with another configuration (differs in: {', '.join(diff)}); "
                                  "use another --out to start anew (only budget may change on resume)")
            from evaluation.runs import check_identity

            check_identity(out, json.loads(state_path.read_text()).get("identity"), self.identity())
            return
        init = self.cfg["policy"]["init"]
        if init and not Path(init).expanduser().is_file():
            raise ConfigError(f"policy.init: the starting model {init!r} does not exist (this configuration "
                              "continues training from it: create or download it first, see the comment in the "
                              "config file, or set policy.init to null to start from scratch)")

    def identity(self) -> dict:
        """What decides this run's games besides its configuration (:func:`evaluation.runs.run_identity`): the
        engine, the scenarios' content, the bots' code and the warm-start model file."""
        from evaluation.runs import run_identity

        init = self.cfg["policy"]["init"]
        agents = list(dict.fromkeys(self.cfg["opponents"]["scripted"] + self.cfg["gauntlet"]["anchors"]
                                    + ([f"policy:{init}"] if init else [])))
        return run_identity(agents, self.cfg["scenarios"], self.cfg.get("options"))

    def _prepare(self) -> bool:
        out = self.out
        cfg_path = out / "config.yaml"
        state_path = out / "state.json"
        if state_path.exists():
            import yaml

            old = yaml.safe_load(cfg_path.read_text())
            a = {k: v for k, v in old.items() if k != "budget"}
            b = {k: v for k, v in self.cfg.items() if k != "budget"}
            if a != b:
                diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
                raise ConfigError(f"{out} holds a run with another configuration (differs in: {', '.join(diff)}); "
                                  "use another --out to start anew (only budget may change on resume)")
            self.state = json.loads(state_path.read_text())
            cfg_path.write_text(dump(self.cfg))
            return True
        out.mkdir(parents=True, exist_ok=True)
        for sub in ("checkpoints", "snapshots", "gauntlet"):
            (out / sub).mkdir(exist_ok=True)
        cfg_path.write_text(dump(self.cfg))
        self.state = {"steps": 0, "snapshots": [], "pfsp": {}, "history": [], "best": None,
                      "identity": self.identity(),
                      "next_snapshot": self.cfg["schedule"]["snapshot_every"],
                      "next_checkpoint": self.cfg["schedule"]["checkpoint_every"],
                      "timing": {"wall": 0.0, "collect": 0.0, "train": 0.0, "env": 0.0, "eval": 0.0,
                                 "checkpoint": 0.0, "steps_timed": 0}}
        return False

    def _save_state(self) -> None:
        tmp = self.out / "state.json.tmp"
        tmp.write_text(json.dumps(self.state, indent=1))
        tmp.replace(self.out / "state.json")

    # ------------------------------------------------------------------ pool
    def _pool_entries(self):
        """The pool as sent to the workers: the scripted bots + the snapshots kept in the pool, PFSP weights."""
        cfg = self.cfg["opponents"]
        keep = set(self.state.get("pool_snapshots", []))
        entries = [(n, n) for n in cfg["scripted"]]
        entries += [(s["name"], "policy:" + str((self.out / s["path"]).resolve()))
                    for s in self.state["snapshots"] if s["name"] in keep]
        latest = entries[-1][0] if keep else None
        w = self.pfsp.weights([e[0] for e in entries], latest)
        return entries, [round(float(x), 6) for x in w]

    def _env_fns(self, entries, weights):
        cfg = self.cfg
        obs_size = run_layout(cfg["scenarios"]).size
        fns = []
        base = cfg["seed"] * 10_007 + 17 * len(self.state["history"]) + self.state["steps"]
        for i in range(cfg["env"]["n_envs"]):
            sc = cfg["scenarios"][i % len(cfg["scenarios"])]
            fns.append(partial(_make_env, sc, cfg["sides"], cfg["options"] or None, cfg["env"]["max_decisions"],
                               cfg["reward"]["vp_shaping"], entries, weights, base + 1000 * i, obs_size))
        return fns

    # ------------------------------------------------------------------ main
    @contextmanager
    def _sigint_stops(self):
        """While training: the first SIGINT asks for a clean stop (see module doc), a second one aborts."""
        self._interrupted = False
        if threading.current_thread() is not threading.main_thread():
            yield  # signal handlers can only be set from the main thread (e.g. a trainer run from a thread)
            return

        def handler(signum, frame):
            if self._interrupted:
                raise KeyboardInterrupt
            self._interrupted = True
            self.log("interrupt: stopping at the next step and writing a checkpoint (Ctrl-C again to abort)")

        previous = signal.signal(signal.SIGINT, handler)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)

    def run(self) -> dict:
        self.check()
        with self._sigint_stops():
            return self._run()

    def _run(self) -> dict:
        import torch
        from sb3_contrib import MaskablePPO

        from agents.policy import layout_fingerprint

        from .selfplay import PFSP
        from .vecenv import ChunkedSubprocVecEnv

        cfg = self.cfg
        resumed = self._prepare()
        # the masked Categorical is rebuilt at every rollout step and minibatch: skip torch's argument
        # validation (a constraint check per call) in the trainer process
        torch.distributions.Distribution.set_default_validate_args(False)
        o = cfg["opponents"]
        self.pfsp = PFSP(o["pfsp"], o["pfsp_power"], o["pfsp_floor"], o["self_play"], o["window"])
        self.pfsp.load_state(self.state.get("pfsp", {}))
        budget = cfg["budget"]["steps"]
        if self.state["steps"] >= budget:
            self.log(f"{self.out}: already trained {self.state['steps']:,} of {budget:,} steps")
            return self._summary()
        device = _torch_device(cfg["device"])
        entries, weights = self._pool_entries()
        venv = ChunkedSubprocVecEnv(self._env_fns(entries, weights), n_workers=cfg["env"]["n_workers"])
        tb = None
        if cfg["logging"]["tensorboard"]:
            try:
                import tensorboard  # noqa: F401

                tb = str(self.out / "tb")
            except ImportError:
                self.log("tensorboard is not installed: no TensorBoard logs (pip install tensorboard)")
        ck = self.out / "checkpoints" / "latest.zip"
        try:
            if resumed and ck.exists():
                model = MaskablePPO.load(str(ck), env=venv, device=device, tensorboard_log=tb)
                model._last_obs = None  # fresh games in fresh workers: reset the env at learn()
                self.log(f"resumed {self.out} at {model.num_timesteps:,} steps")
            else:
                p = cfg["ppo"]
                model = MaskablePPO("MlpPolicy", venv, learning_rate=p["learning_rate"], n_steps=p["n_steps"],
                                    batch_size=p["batch_size"], n_epochs=p["n_epochs"], gamma=p["gamma"],
                                    gae_lambda=p["gae_lambda"], clip_range=p["clip_range"], ent_coef=p["ent_coef"],
                                    vf_coef=p["vf_coef"], max_grad_norm=p["max_grad_norm"], target_kl=p["target_kl"],
                                    policy_kwargs=_policy_kwargs(cfg), tensorboard_log=tb, seed=cfg["seed"],
                                    device=device, verbose=0)
                if cfg["policy"]["init"]:
                    self._warm_start(model, cfg["policy"]["init"])
            model.dustup_meta = dict(layout_fingerprint(layout=run_layout(cfg["scenarios"])),
                                     scenarios=cfg["scenarios"],
                                     extractor=cfg["policy"]["extractor"])
            self.model, self.venv = model, venv
            self._timers(model, venv)
            cb = _Callback(self)
            t0 = time.perf_counter()
            self._t_start = t0
            self._cpu0 = (time.process_time(), venv.worker_cpu_seconds())
            self._wall0 = self.state["timing"]["wall"]
            model.learn(total_timesteps=budget - model.num_timesteps, callback=cb, reset_num_timesteps=False,
                        tb_log_name=TB_NAME)
            self._sync_timing()
            self._cpu_account(model)
            stopped_early = model.num_timesteps < budget
            self.state["steps"] = model.num_timesteps
            if self._interrupted:
                self.log(f"interrupted at {model.num_timesteps:,} steps: checkpoint written, re-run the same "
                         "command to resume")
            if not stopped_early and (not self.state["snapshots"]
                                      or self.state["snapshots"][-1]["steps"] != model.num_timesteps):
                self._snapshot()  # the final snapshot, measured on the same fixed games
            self._checkpoint()
            save_slim(model, self.out / "final.zip")
        finally:
            if getattr(self, "_bar", None) is not None:
                self._bar.close()
            venv.close()
        return self._summary()

    # ------------------------------------------------------------------ timing
    def _timers(self, model, venv) -> None:
        import torch

        self._t = {"collect": 0.0, "train": 0.0, "env": 0.0, "eval": 0.0, "checkpoint": 0.0, "steps": 0}
        orig_c, orig_t = model.collect_rollouts, model.train
        orig_sa, orig_sw = venv.step_async, venv.step_wait
        t = self._t

        threads = self.cfg["torch_threads"]

        def collect(*a, **k):
            torch.set_num_threads(1)  # batch-of-n_envs inference: extra threads only spin against the workers
            s = time.perf_counter()
            n0 = model.num_timesteps
            side0 = t["eval"] + t["checkpoint"]  # snapshots, gauntlets and checkpoints run in a callback
            try:
                return orig_c(*a, **k)
            finally:
                t["collect"] += time.perf_counter() - s - (t["eval"] + t["checkpoint"] - side0)
                t["steps"] += model.num_timesteps - n0

        def train(*a, **k):
            torch.set_num_threads(threads)
            s = time.perf_counter()
            try:
                return orig_t(*a, **k)
            finally:
                t["train"] += time.perf_counter() - s

        def step_async(actions):
            s = time.perf_counter()
            orig_sa(actions)
            t["env"] += time.perf_counter() - s

        def step_wait():
            s = time.perf_counter()
            try:
                return orig_sw()
            finally:
                t["env"] += time.perf_counter() - s

        model.collect_rollouts, model.train = collect, train
        venv.step_async, venv.step_wait = step_async, step_wait

    def _cpu_account(self, model) -> None:
        """CPU milliseconds per step of this session: main process (rollout inference + updates, plus any
        gauntlet bookkeeping) and the env workers (environments and their opponents)."""
        main0, work0 = self._cpu0
        work1 = self.venv.worker_cpu_seconds()
        n = max(1, self._t["steps"])
        self.state["cpu_ms_per_step"] = {
            "main": round(1000 * (time.process_time() - main0) / n, 3),
            "workers": None if work0 is None or work1 is None else round(1000 * (work1 - work0) / n, 3),
            "steps": self._t["steps"]}

    def _sync_timing(self) -> None:
        tm = self.state["timing"]
        base = getattr(self, "_timing_base", None)
        if base is None:
            base = self._timing_base = dict(tm)
        tm["wall"] = base["wall"] + (time.perf_counter() - self._t_start)
        for k in ("collect", "train", "env", "eval", "checkpoint"):
            tm[k] = base[k] + self._t[k]
        tm["steps_timed"] = base["steps_timed"] + self._t["steps"]

    # ------------------------------------------------------------------ snapshots, gauntlet, checkpoints
    def _snapshot(self) -> None:
        s = time.perf_counter()
        steps = self.model.num_timesteps
        name = f"step_{steps:09d}"
        rel = f"snapshots/{name}.zip"
        save_slim(self.model, self.out / rel)
        self.state["snapshots"].append({"name": name, "path": rel, "steps": steps})
        keep = self.cfg["opponents"]["max_snapshots"]
        if not self.cfg["opponents"]["snapshots"]:
            keep = 0
        pool_snaps = self.state["snapshots"][-keep:] if keep else []
        self.state["pool_snapshots"] = [p["name"] for p in pool_snaps]
        g = self.cfg["gauntlet"]
        if g["enabled"]:
            from evaluation.runs import draw_or_warn

            from .gauntlet import evaluate_isolated, plot_curves, table

            spec = "policy:" + str((self.out / rel).resolve())
            summ = evaluate_isolated(spec=spec, out=str(self.out / "gauntlet"), anchors=g["anchors"],
                                     scenarios=self.cfg["scenarios"], games=g["games"], seed=g["seed"],
                                     concurrency=g["concurrency"], bootstrap=g["bootstrap"], label=name)
            summ["steps"] = steps
            self.state["history"].append(summ)
            best = self.state.get("best")
            if best is None or summ["mean_score"] >= best["mean_score"]:
                shutil.copyfile(self.out / rel, self.out / "best.zip")
                self.state["best"] = {"name": name, "steps": steps, "mean_score": summ["mean_score"],
                                      "elo": summ["elo"]}
            (self.out / "gauntlet.md").write_text(
                "# Gauntlet (fixed games, learner score per anchor, 95% CI over paired games)\n\n"
                + table(self.state["history"], g["anchors"]) + f"\n\nbest: {self.state['best']}\n")
            draw_or_warn(plot_curves, self.state["history"], g["anchors"], self.out / "curves.png",
                         what="curves.png", log=self.log)
            self._tb_gauntlet(summ)
            self.log(f"[{steps:,} steps] gauntlet mean score {summ['mean_score']:.3f}, Elo {summ['elo']:+.0f} "
                     f"[{summ['elo_ci95'][0]:+.0f}, {summ['elo_ci95'][1]:+.0f}]: "
                     + ", ".join(f"{a} {v['score']:.2f}" for a, v in summ["scores"].items() if v))
        self._t["eval"] += time.perf_counter() - s

    def _tb_gauntlet(self, summ) -> None:
        lg = self.model.logger
        for a, v in summ["scores"].items():
            if v:
                lg.record(f"gauntlet/score_vs_{a}", v["score"])
        lg.record("gauntlet/mean_score", summ["mean_score"])
        lg.record("gauntlet/elo", summ["elo"])

    def _checkpoint(self) -> None:
        s = time.perf_counter()
        ck = self.out / "checkpoints"
        self.model.save(str(ck / "latest.tmp.zip"), exclude=_UNSAVED + ["tensorboard_log"])
        (ck / "latest.tmp.zip").replace(ck / "latest.zip")
        self.state["steps"] = self.model.num_timesteps
        self.state["pfsp"] = self.pfsp.state()
        self._t["checkpoint"] += time.perf_counter() - s
        self._sync_timing()
        self._save_state()

    def _summary(self) -> dict:
        tm = self.state["timing"]
        train_wall = tm["collect"] + tm["train"]
        n = tm["steps_timed"]
        summ = {
            "out": str(self.out), "steps": self.state["steps"], "wall_seconds": round(tm["wall"], 1),
            "steps_per_s_training": round(n / train_wall, 1) if train_wall else None,
            "steps_per_s_overall": round(self.state["steps"] / tm["wall"], 1) if tm["wall"] else None,
            "fraction_env": round(tm["env"] / train_wall, 3) if train_wall else None,
            "fraction_rollout": round(tm["collect"] / train_wall, 3) if train_wall else None,
            "fraction_update": round(tm["train"] / train_wall, 3) if train_wall else None,
            "seconds": {k: round(v, 1) for k, v in tm.items() if k != "steps_timed"},
            "cpu_ms_per_step_last_session": self.state.get("cpu_ms_per_step"),
            "best": self.state.get("best"),
            "last_gauntlet": self.state["history"][-1] if self.state["history"] else None,
            "interrupted": bool(getattr(self, "_interrupted", False)),
        }
        (self.out / "summary.json").write_text(json.dumps(summ, indent=1))
        return summ


def _make_env(*args):
    from .selfplay import make_training_env

    return make_training_env(*args)


class _Callback:
    """Built lazily as an SB3 BaseCallback subclass (keeps sb3 imports out of module import time)."""

    def __new__(cls, trainer):
        from stable_baselines3.common.callbacks import BaseCallback

        class TrainerCallback(BaseCallback):
            def __init__(self, tr):
                super().__init__(verbose=0)
                self.tr = tr

            def _on_training_start(self) -> None:
                tr = self.tr
                tr._bar = None
                if tr.progress:
                    from tqdm import tqdm

                    tr._bar = tqdm(total=tr.cfg["budget"]["steps"], initial=self.model.num_timesteps,
                                   unit="step", desc="train", file=sys.stderr, dynamic_ncols=True, smoothing=0.05)
                self._pool_sent = None
                self._stop = False

            def _on_step(self) -> bool:
                tr = self.tr
                for info, done in zip(self.locals["infos"], self.locals["dones"]):
                    if done and "pool_result" in info:
                        name, score, _side = info["pool_result"]
                        tr.pfsp.record(name, score)
                if tr._bar is not None:
                    tr._bar.update(self.model.num_timesteps - tr._bar.n)
                # _stop is set at a rollout's end (the finished rollout was trained on); an interrupt stops
                # at once (the unfinished rollout is dropped; the checkpoint holds the last update)
                return not (self._stop or tr._interrupted)

            def _on_rollout_end(self) -> None:
                tr = self.tr
                n = self.model.num_timesteps
                tr.state["steps"] = n
                if n >= tr.state["next_snapshot"]:
                    every = tr.cfg["schedule"]["snapshot_every"]
                    tr.state["next_snapshot"] = (n // every + 1) * every
                    tr._snapshot()
                entries, weights = tr._pool_entries()
                if (entries, weights) != self._pool_sent:
                    tr.venv.env_method("set_pool", entries, weights)
                    self._pool_sent = (entries, weights)
                lg = self.model.logger
                for (name, _), w in zip(entries, weights):
                    lg.record(f"pool/weight_{name}", w)
                    lg.record(f"pool/score_vs_{name}", tr.pfsp.score(name))
                tr._sync_timing()
                tm = tr.state["timing"]
                tw = tm["collect"] + tm["train"]
                if tw > 0:
                    lg.record("time/steps_per_s_training", tm["steps_timed"] / tw)
                    lg.record("time/fraction_env", tm["env"] / tw)
                    lg.record("time/fraction_update", tm["train"] / tw)
                if tr._bar is not None and tr.state["history"]:
                    h = tr.state["history"][-1]
                    tr._bar.set_postfix(gauntlet=f"{h['mean_score']:.2f}", elo=f"{h['elo']:+.0f}")
                lim = tr.cfg["budget"]["minutes"]
                if lim is not None and tr._wall0 + time.perf_counter() - tr._t_start > 60.0 * lim:
                    # the wall-clock budget is spent: this rollout is still trained on, and the next one
                    # stops at its first step (one vector step, n_envs steps, is counted but not used)
                    self._stop = True
                if n >= tr.state["next_checkpoint"]:
                    every = tr.cfg["schedule"]["checkpoint_every"]
                    tr.state["next_checkpoint"] = (n // every + 1) * every
                    tr._checkpoint()

        return TrainerCallback(trainer)


def train(config=None, out: str | Path = "runs/train", overrides: dict | None = None, progress: bool = True,
          log=print) -> dict:
    """Load and validate the configuration, then train (or resume) into ``out``; returns the summary."""
    cfg = load_config(config, overrides)
    return Trainer(cfg, out, progress=progress, log=log).run()
