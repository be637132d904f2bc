"""docs/checklist-audit.md stays true: every test it names exists in tests/, every reading it names is a heading of
docs/rules-notes.md, every row has a status (closed rows name a test or a reading, open rows an owner and appear in
the open-items table), and the counts at the top add up."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AUDIT = ROOT / "docs" / "checklist-audit.md"
NOTES = ROOT / "docs" / "rules-notes.md"
TEST_REF = re.compile(r"\b(test_\w+\.py)::(test_\w+)\b")
RN_REF = re.compile(r"\bRN-(\d{3})\b")
OWNERS = ("vehicle combat", "close assault", "aerospace")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def rows() -> list[list[str]]:
    """The item rows: six cells (#, item, closed by, test, reading, status), numbered."""
    out = []
    for line in AUDIT.read_text().splitlines():
        if line.startswith("| ") and not line.startswith("| ---"):
            cells = _cells(line)
            if len(cells) == 6 and cells[0].isdigit():
                out.append(cells)
    return out


def open_table() -> dict[int, str]:
    text = AUDIT.read_text()
    section = text[text.index("## Open items"):]
    out = {}
    for line in section.splitlines():
        cells = _cells(line) if line.startswith("| ") else []
        if len(cells) == 4 and cells[0].isdigit():
            out[int(cells[0])] = cells[3]
    return out


def test_the_rows_are_numbered_in_order_and_have_a_status():
    rs = rows()
    assert len(rs) >= 150
    assert [int(r[0]) for r in rs] == list(range(1, len(rs) + 1))
    for r in rs:
        assert r[5] == "closed" or re.fullmatch(r"open \((%s)\)" % "|".join(OWNERS), r[5]), r


def test_every_test_named_exists():
    sources = {}
    named = 0
    for r in rows():
        for f, name in TEST_REF.findall(" ".join(r)):
            path = ROOT / "tests" / f
            assert path.exists(), (r[0], f)
            src = sources.setdefault(f, path.read_text())
            assert re.search(rf"^def {name}\(", src, re.M), (r[0], f, name)
            named += 1
    assert named >= 200


def test_every_reading_named_exists():
    notes = NOTES.read_text()
    text = AUDIT.read_text()
    found = set(RN_REF.findall(text))
    assert len(found) >= 100
    for n in sorted(found):
        assert f"### RN-{n} " in notes, f"RN-{n}"


def test_closed_rows_name_a_test_or_a_reading_and_open_rows_are_listed():
    opened = open_table()
    for r in rows():
        n = int(r[0])
        if r[5] == "closed":
            assert TEST_REF.search(r[3]) or RN_REF.search(r[4]), r
            assert n not in opened, r
        else:
            owner = r[5][len("open ("):-1]
            assert opened.get(n) == owner, (n, owner, opened.get(n))
            assert "missing" in r[2].lower() or r[3] == "-", r
    assert set(opened) == {int(r[0]) for r in rows() if r[5] != "closed"}


def test_the_counts_add_up():
    rs = rows()
    closed = sum(r[5] == "closed" for r in rs)
    m = re.search(r"^Counts: (\d+) items, (\d+) closed, (\d+) open\.$", AUDIT.read_text(), re.M)
    assert m and tuple(map(int, m.groups())) == (len(rs), closed, len(rs) - closed)


def test_the_page_holds_no_development_history():
    text = AUDIT.read_text()
    for pattern in (r"\bsession \d", r"\bissue #?\d", r"(?<![\w-])#\d{1,3}\b", r"\b[0-9a-f]{7,40}\b(?![\w.])",
                    r"\b20\d\d-\d\d-\d\d\b"):
        hits = [m.group(0) for m in re.finditer(pattern, text, re.I) if not re.fullmatch(r"\d+", m.group(0))]
        assert not hits, (pattern, hits[:3])
