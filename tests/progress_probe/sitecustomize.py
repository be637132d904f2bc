"""A progress probe for commands that print nothing until they end (tests/test_doc_commands.py).

The test puts this folder first on ``PYTHONPATH`` of the command it runs, with ``DUSTUP_PROGRESS_PROBE=FILE`` and
``DUSTUP_PROGRESS_WHEN=["SCRIPT.py", "FUNCTION", "EXPRESSION"]``: Python imports this module at start-up and a daemon
thread looks at the main thread's stack 20 times a second; once a frame of FUNCTION in SCRIPT.py has locals for which
EXPRESSION is true (``_pair``, ``args[0] >= 1``: the first pair of games is finished), it writes FILE and ends.  It
only reads the frames: what the command does and prints is unchanged.  Without the variables it does nothing.
"""
import importlib.machinery
import importlib.util
import json
import os
import sys
import threading
import time


def _watch(path: str, script: str, function: str, expression: str) -> None:
    code = compile(expression, "<progress probe>", "eval")
    main = threading.main_thread().ident
    while True:
        time.sleep(0.05)
        frame = sys._current_frames().get(main)
        if frame is None:
            return
        while frame is not None:
            c = frame.f_code
            if c.co_name == function and os.path.basename(c.co_filename) == script:
                try:
                    hit = eval(code, {}, dict(frame.f_locals))
                except Exception:  # noqa: BLE001 - a local not yet bound: look again
                    hit = False
                if hit:
                    with open(path, "w") as fh:
                        fh.write(f"{script} {function}: {expression}\n")
                    return
            frame = frame.f_back


def _chain() -> None:
    """Run the next ``sitecustomize`` on the path, if there is one (this one stands in front of it)."""
    here = os.path.dirname(os.path.abspath(__file__))
    rest = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


_chain()
if os.environ.get("DUSTUP_PROGRESS_PROBE"):
    _script, _function, _expression = json.loads(os.environ["DUSTUP_PROGRESS_WHEN"])
    threading.Thread(target=_watch, args=(os.environ["DUSTUP_PROGRESS_PROBE"], _script, _function, _expression),
                     daemon=True, name="progress-probe").start()
