"""The design report prints the minimum range of indirect fire the engine uses (seed 000 L1600-1602, RN-1460): 24"
for a light mortar, 48" for other mortars and rockets, none for a gun; by the design's name."""
import json

import pytest


@pytest.mark.parametrize("name, text", [
    ("Light mortar", 'minimum range 24" for indirect fire'),
    ("Heavy mortar", 'minimum range 48" for indirect fire'),
    ("Rocket battery", 'minimum range 48" for indirect fire'),
    ("Field gun", "no minimum range"),
])
def test_the_report_prints_the_engines_minimum_range(tmp_path, capsys, name, text):
    from dustup_cli.cli import main

    f = tmp_path / "d.json"
    f.write_text(json.dumps({"design": "heavy_weapon", "name": name, "type": "artillery", "class": 2,
                             "carriage": "towed", "crew": 3}))
    main(["design", "check", str(f)])
    out = capsys.readouterr().out
    assert text in out
