"""A vectorised environment for training: ``n_workers`` processes, each stepping a chunk of environments.

Why not stable-baselines3's ``SubprocVecEnv``: it runs one process per environment and MaskablePPO asks
every process for its action mask with one more round trip per step (``env_method("action_masks")``).
On a 2-core machine 8 processes and 16 pipe round trips per step cost more than the policy's forward
pass.  Here each worker steps its chunk of envs in turn (auto-resetting finished episodes as SB3 does)
and sends back the observations, rewards, dones, infos **and the next action masks** in one message;
``env_method("action_masks")`` is then answered from that cache without any round trip.

Processes are started with ``forkserver`` (``spawn`` where unavailable): never ``fork`` from a process
that may hold a torch thread pool.  Each worker sets torch to one thread (self-play opponents run
small networks there).
"""
from __future__ import annotations

import multiprocessing as mp
import signal
from collections.abc import Callable, Sequence

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import CloudpickleWrapper, VecEnv

_MASK_KEY = "action_mask"


def _strip(info: dict) -> dict:
    if _MASK_KEY in info:
        info = dict(info)
        del info[_MASK_KEY]
    return info


def _worker(remote, parent_remote, fns_wrapper) -> None:
    parent_remote.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the trainer's to handle: it closes the workers
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:  # pragma: no cover
        pass
    envs = [fn() for fn in fns_wrapper.var]
    n = len(envs)
    seeds: list = [None] * n
    opts: list = [{} for _ in range(n)]
    try:
        while True:
            cmd, data = remote.recv()
            if cmd == "step":
                obs, rews, dones, infos, masks = [], np.zeros(n, dtype=np.float32), np.zeros(n, dtype=bool), [], []
                for i, (env, a) in enumerate(zip(envs, data)):
                    o, r, term, trunc, info = env.step(a)
                    done = term or trunc
                    info = _strip(info)
                    info["TimeLimit.truncated"] = trunc and not term
                    if done:
                        info["terminal_observation"] = o
                        o, reset_info = env.reset()
                        info["_reset_info"] = _strip(reset_info)
                    obs.append(o)
                    rews[i] = r
                    dones[i] = done
                    infos.append(info)
                    masks.append(env.action_masks())
                remote.send((np.stack(obs), rews, dones, infos, np.stack(masks)))
            elif cmd == "reset":
                obs, infos, masks = [], [], []
                for i, env in enumerate(envs):
                    o, info = env.reset(seed=seeds[i], options=opts[i] or None)
                    seeds[i] = None
                    obs.append(o)
                    infos.append(_strip(info))
                    masks.append(env.action_masks())
                remote.send((np.stack(obs), infos, np.stack(masks)))
            elif cmd == "seed":
                seeds = list(data)
                remote.send(None)
            elif cmd == "options":
                opts = [dict(o or {}) for o in data]
                remote.send(None)
            elif cmd == "env_method":
                idx, name, args, kwargs = data
                remote.send([getattr(envs[i], name)(*args, **kwargs) for i in idx])
            elif cmd == "get_attr":
                idx, name = data
                remote.send([getattr(envs[i], name) for i in idx])
            elif cmd == "set_attr":
                idx, name, value = data
                for i in idx:
                    setattr(envs[i], name, value)
                remote.send(None)
            elif cmd == "is_wrapped":
                idx, cls = data
                from stable_baselines3.common.env_util import is_wrapped

                remote.send([is_wrapped(envs[i], cls) for i in idx])
            elif cmd == "close":
                for env in envs:
                    env.close()
                remote.close()
                break
            else:  # pragma: no cover
                raise NotImplementedError(cmd)
    except KeyboardInterrupt:  # pragma: no cover
        pass


class ChunkedSubprocVecEnv(VecEnv):
    """``len(env_fns)`` environments in ``n_workers`` processes (contiguous chunks), masks sent with each step."""

    def __init__(self, env_fns: Sequence[Callable], n_workers: int = 2, start_method: str | None = None):
        n = len(env_fns)
        if n < 1:
            raise ValueError("need at least one environment")
        n_workers = max(1, min(int(n_workers), n))
        if start_method is None:
            start_method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
        ctx = mp.get_context(start_method)
        bounds = np.linspace(0, n, n_workers + 1).round().astype(int)
        self._chunks = [list(range(bounds[k], bounds[k + 1])) for k in range(n_workers)]
        self._owner = [(w, j) for w, ch in enumerate(self._chunks) for j in range(len(ch))]
        self.remotes, self.processes = [], []
        for ch in self._chunks:
            remote, work_remote = ctx.Pipe()
            p = ctx.Process(target=_worker, args=(work_remote, remote, CloudpickleWrapper([env_fns[i] for i in ch])),
                            daemon=True)
            p.start()
            work_remote.close()
            self.remotes.append(remote)
            self.processes.append(p)
        self.closed = False
        self.waiting = False
        self.remotes[0].send(("get_attr", ([0], "observation_space")))
        obs_space = self.remotes[0].recv()[0]
        self.remotes[0].send(("get_attr", ([0], "action_space")))
        act_space = self.remotes[0].recv()[0]
        super().__init__(n, obs_space, act_space)
        self._masks = None
        self._actions = None

    # ------------------------------------------------------------------ VecEnv API
    def step_async(self, actions: np.ndarray) -> None:
        for remote, ch in zip(self.remotes, self._chunks):
            remote.send(("step", [actions[i] for i in ch]))
        self.waiting = True

    def step_wait(self):
        results = [remote.recv() for remote in self.remotes]
        self.waiting = False
        obs = np.concatenate([r[0] for r in results])
        rews = np.concatenate([r[1] for r in results])
        dones = np.concatenate([r[2] for r in results])
        infos = [info for r in results for info in r[3]]
        self._masks = np.concatenate([r[4] for r in results])
        for i, info in enumerate(infos):
            ri = info.pop("_reset_info", None)
            if ri is not None:
                self.reset_infos[i] = ri
        return obs, rews, dones, infos

    def reset(self):
        self._send_seeds()
        for remote in self.remotes:
            remote.send(("reset", None))
        results = [remote.recv() for remote in self.remotes]
        self.reset_infos = [info for r in results for info in r[1]]
        self._masks = np.concatenate([r[2] for r in results])
        self._reset_seeds()
        self._reset_options()
        return np.concatenate([r[0] for r in results])

    def _send_seeds(self) -> None:
        for remote, ch in zip(self.remotes, self._chunks):
            remote.send(("seed", [self._seeds[i] for i in ch]))
            remote.send(("options", [self._options[i] for i in ch]))
        for remote in self.remotes:
            remote.recv()
            remote.recv()

    def action_masks(self) -> np.ndarray:
        return self._masks.copy()

    def worker_cpu_seconds(self) -> float | None:
        """CPU seconds (user + system) the worker processes used so far (Linux /proc; None elsewhere).

        Unlike wall time this does not grow when other programs load the machine, so CPU per step is
        the honest measure of the environments' cost on a shared machine."""
        import os

        total = 0.0
        tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        for p in self.processes:
            try:
                with open(f"/proc/{p.pid}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / tick
            except (OSError, IndexError, ValueError):
                return None
        return total

    def close(self) -> None:
        if self.closed:
            return
        if self.waiting:
            for remote in self.remotes:
                remote.recv()
        for remote in self.remotes:
            try:
                remote.send(("close", None))
            except (BrokenPipeError, EOFError):  # pragma: no cover
                pass
        for p in self.processes:
            p.join(timeout=10)
            if p.is_alive():  # pragma: no cover
                p.terminate()
        self.closed = True

    def _by_worker(self, indices):
        idx = self._get_indices(indices)
        groups: dict = {}
        for i in idx:
            w, j = self._owner[i]
            groups.setdefault(w, []).append(j)
        return groups

    def _gather(self, cmd: str, indices, make_payload):
        groups = self._by_worker(indices)
        for w, js in groups.items():
            self.remotes[w].send((cmd, make_payload(js)))
        out = []
        for w in groups:
            res = self.remotes[w].recv()
            if res is not None:
                out.extend(res)
        return out

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        if method_name == "action_masks" and indices is None and self._masks is not None:
            return list(self._masks)  # sent with the last step/reset: no round trip
        return self._gather("env_method", indices, lambda js: (js, method_name, method_args, method_kwargs))

    def get_attr(self, attr_name: str, indices=None) -> list:
        return self._gather("get_attr", indices, lambda js: (js, attr_name))

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        self._gather("set_attr", indices, lambda js: (js, attr_name, value))

    def env_is_wrapped(self, wrapper_class, indices=None) -> list:
        return self._gather("is_wrapped", indices, lambda js: (js, wrapper_class))

    def has_attr(self, attr_name: str) -> bool:
        if attr_name == "action_masks":
            return True
        return super().has_attr(attr_name)
