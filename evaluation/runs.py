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
from contextlib import contextmanager
from pathlib import Path

LOCK = ".lock"



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


def drop_partial_line(p: Path) -> None:
    """A kill can leave the last line half written: cut it so appended records start on a new line."""
    if not p.exists():
        return
    data = p.read_bytes()
    if data and not data.endswith(b"\n"):
        p.write_bytes(data[: data.rfind(b"\n") + 1])
