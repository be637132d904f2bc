"""Every Python block of docs/multiagent.md and the observer example of docs/observation.md runs as written."""
import contextlib
import io
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


def blocks(name):
    return re.findall(r"```python\n(.*?)```", (DOCS / name).read_text(), flags=re.S)


@pytest.mark.parametrize("i", range(len(blocks("multiagent.md"))))
def test_multiagent_examples_run(i):
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks("multiagent.md")[i], f"docs/multiagent.md block {i}", "exec"), {})
    assert out.getvalue().strip()  # every example prints what it shows


def test_observation_example_runs():
    code = [b for b in blocks("observation.md") if "Observer" in b]
    assert code
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code[0], "docs/observation.md", "exec"), {})
    assert "(2166,)" in out.getvalue()
