"""Load test of the game server: many games at once, played by client threads over HTTP.

    python -m dustup_env.service.loadtest --games 50 --threads 8            # starts its own dustup serve
    python -m dustup_env.service.loadtest --url http://127.0.0.1:8000 ...     # or an already running one

Each thread takes games from a queue: creates the game (``POST /games``), then until the game is over
reads it (``GET /games/ID``: a request with no AI work, timed) and plays a random legal option
(``POST /games/ID/play``: timed; includes the AI's answer and the database commit).  At the end every
game is checked: over, and its save (``GET /games/ID/save``) replays to the same result with exactly the
client's options at the client's decisions (nothing lost, nothing added).  Prints latency percentiles.
"""
from __future__ import annotations

import argparse
import json
import queue
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def _percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))
    return xs[k]


def run(url: str, games: int = 50, threads: int = 8, scenario: str = "skirmish", ai: str = "hard",
        seed: int = 0, progress=None) -> dict:
    """Play ``games`` games with ``threads`` client threads against the server at ``url``; the report."""
    import httpx

    from dustup_env.rules import Game

    jobs: queue.Queue = queue.Queue()
    for i in range(games):
        jobs.put(i)
    lock = threading.Lock()
    get_ms: list[float] = []
    play_ms: list[float] = []
    records: dict = {}
    errors: list[str] = []

    def worker():
        with httpx.Client(base_url=url, timeout=120) as c:
            while True:
                try:
                    i = jobs.get_nowait()
                except queue.Empty:
                    return
                try:
                    rng = random.Random(seed * 1000 + i)
                    r = c.post("/games", json={"scenario": scenario, "seed": seed + i, "ai": ai, "side": i % 2})
                    r.raise_for_status()
                    g = r.json()
                    h = {"Authorization": f"Bearer {g['token']}"}
                    mine, gets, plays, result = [], [], [], None
                    while True:
                        t0 = time.perf_counter()
                        r = c.get(f"/games/{g['game']}", headers=h)
                        gets.append((time.perf_counter() - t0) * 1000)
                        r.raise_for_status()
                        st = r.json()
                        if st["over"]:
                            result = st["result"]
                            break
                        opt = rng.choice(st["decision"]["options"])["option"]
                        t0 = time.perf_counter()
                        r = c.post(f"/games/{g['game']}/play", json={"option": opt}, headers=h)
                        plays.append((time.perf_counter() - t0) * 1000)
                        r.raise_for_status()
                        mine.append(opt)
                    save = c.get(f"/games/{g['game']}/save", headers=h).json()
                    with lock:
                        get_ms.extend(gets)
                        play_ms.extend(plays)
                        records[i] = {"game": g["game"], "side": g["side"], "mine": mine, "result": result,
                                      "save": save}
                        if progress:
                            progress(len(records), games)
                except Exception as e:  # noqa: BLE001 - reported, the run goes on
                    with lock:
                        errors.append(f"game {i}: {type(e).__name__}: {e}")

    t0 = time.perf_counter()
    ths = [threading.Thread(target=worker, name=f"client{k}") for k in range(threads)]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    wall = time.perf_counter() - t0
    # check every game: its save replays to the same result, with exactly the client's options
    lost = []
    for i, rec in sorted(records.items()):
        g = Game(rec["save"]["scenario"], seed=rec["save"]["seed"], options=rec["save"]["options"])
        mine = []
        for opt in rec["save"]["decisions"]:
            if g.decision().side == rec["side"]:
                mine.append(list(opt))
            g.apply(tuple(opt))
        res = g.result()
        if (not g.over or mine != rec["mine"]
                or {k: v for k, v in rec["result"].items() if k != "winner_name"} != res):
            lost.append(i)
    return {
        "games": games, "threads": threads, "scenario": scenario, "ai": ai, "finished": len(records),
        "errors": errors, "mismatched": lost, "wall_s": round(wall, 2),
        "get": {"n": len(get_ms), "median_ms": round(statistics.median(get_ms), 2) if get_ms else None,
                "p99_ms": round(_percentile(get_ms, 0.99), 2), "max_ms": round(max(get_ms, default=0), 2)},
        "play": {"n": len(play_ms), "median_ms": round(statistics.median(play_ms), 2) if play_ms else None,
                 "p99_ms": round(_percentile(play_ms, 0.99), 2), "max_ms": round(max(play_ms, default=0), 2)},
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m dustup_env.service.loadtest", description=__doc__.split("\n\n")[0])
    p.add_argument("--url", help="a running server (default: start dustup serve on a temporary database)")
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--scenario", default="skirmish")
    p.add_argument("--ai", default="hard")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    a = p.parse_args(argv)
    proc = None
    url = a.url
    if url is None:
        db = tempfile.NamedTemporaryFile(prefix="dustup-load-", suffix=".db", delete=False).name
        proc = subprocess.Popen([sys.executable, "-m", "dustup_cli", "serve", "--port", "0", "--db", db],
                                stderr=subprocess.PIPE, text=True)
        for line in proc.stderr:
            if line.startswith("dustup serve: http://"):
                url = line.split()[2].rstrip("/")
                break
        if url is None:
            print("loadtest: the server did not start", file=sys.stderr)
            return 2
        threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()

    def progress(done, total):
        print(f"\r{done}/{total} games", end="", file=sys.stderr, flush=True)

    try:
        rep = run(url, a.games, a.threads, a.scenario, a.ai, a.seed, progress=progress)
    except KeyboardInterrupt:
        print("\nloadtest: interrupted", file=sys.stderr)
        return 130
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(30)
            for suffix in ("", "-wal", "-shm"):
                Path(db + suffix).unlink(missing_ok=True)
    print(file=sys.stderr)
    if a.json:
        print(json.dumps(rep))
    else:
        print(f"{rep['finished']}/{rep['games']} games finished with {rep['threads']} client threads in "
              f"{rep['wall_s']} s ({rep['scenario']}, ai {rep['ai']}); errors {len(rep['errors'])}, "
              f"mismatched {len(rep['mismatched'])}")
        for k, what in (("get", "GET /games/ID (no AI work)"), ("play", "POST /games/ID/play (AI answer + commit)")):
            s = rep[k]
            print(f"  {what}: n={s['n']} median {s['median_ms']} ms, p99 {s['p99_ms']} ms, max {s['max_ms']} ms")
    return 0 if rep["finished"] == rep["games"] and not rep["errors"] and not rep["mismatched"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
