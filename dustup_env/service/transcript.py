"""A real ``dustup engine`` session, for docs/protocol.md.

    python -m dustup_env.service.transcript > transcript.txt

Runs ``dustup engine`` in a subprocess and prints every request (``>``) and response (``<``) line exactly as
sent and received: a game of ``skirmish`` against ``hard``: the front-end's first activation (a hint, one
illegal request, the acting unit's sight and range, a measurement, the hinted move, ending the activation: the AI
answers), the events since an index, the view, a save and ``quit``.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path


def main() -> int:
    p = subprocess.Popen([sys.executable, "-m", "dustup_cli", "engine"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    out = []

    def ask(req: dict) -> dict:
        line = json.dumps(req)
        p.stdin.write(line + "\n")
        p.stdin.flush()
        resp = p.stdout.readline().rstrip("\n")
        out.append("> " + line)
        out.append("< " + resp)
        return json.loads(resp)

    ask({"cmd": "hello", "id": 1})
    r = ask({"cmd": "new", "scenario": "skirmish", "seed": 7, "you": 0, "ai": "hard", "id": 2})
    n = 3
    while r["decision"]["kind"] != "action":  # take the first option until our first action decision
        r = ask({"cmd": "play", "option": r["decision"]["options"][0]["option"], "id": n})
        n += 1
    h = ask({"cmd": "hint", "time_ms": 5000, "id": n})  # ample: a busy machine must not change the transcript
    ask({"cmd": "play", "option": ["shoot", 99, "all"], "id": n + 1})
    ask({"cmd": "sight", "unit": r["decision"]["unit"], "id": n + 2})
    ask({"cmd": "measure", "from": [10, 3], "to": [26, 33], "id": n + 3})
    r = ask({"cmd": "play", "option": h["option"], "id": n + 4})
    n += 5
    while r["decision"] and r["decision"]["kind"] == "action":  # the activation's last action: then the AI's turn
        r = ask({"cmd": "play", "option": ["end"], "id": n})
        n += 1
    ask({"cmd": "events", "since": max(0, r["next"] - 3), "id": n})
    ask({"cmd": "view", "id": n + 1})
    path = Path(tempfile.mkdtemp()) / "game.json"
    ask({"cmd": "save", "path": str(path), "id": n + 2})
    ask({"cmd": "quit", "id": n + 3})
    p.wait(30)
    text = "\n".join(out).replace(str(path), "game.json")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
