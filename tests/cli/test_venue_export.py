"""`osae venue export`: the venue as the TOML file `osae venue load` takes back unchanged."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import tomli_w

from core.model import Policy, Slot
from core.venue_document import document
from core.venue_file import parse_venue, read_venue_file
from tests.cli.test_cli import ROOT, run
from tests.support import factories


def test_what_is_exported_loads_back_as_the_same_venue() -> None:
    kinds = parse_venue(
        {
            "venue": {"id": "x", "name": "x"},
            "rooms": [{"id": "r", "name": "r", "parts": ["p"]}],
            "kinds": [{"id": "nijikai", "name": "二次会", "class": "banquet"}],
        }
    ).policy.kinds
    venue = factories.venue(
        sales_channel="C0SALES99",
        language="en",
        slots=(Slot("昼", 660, 840), Slot("深夜", 1320, 1560), Slot("夜", 1080, 1440)),
        policy=Policy(deadline_time=19 * 60, closed_weekdays=frozenset({2}), kinds=kinds),
    )
    again = parse_venue(tomllib.loads(tomli_w.dumps(document(venue))))
    assert again == replace(venue, rooms=again.rooms)
    assert again.rooms == {
        rid: replace(room, position=i) for i, (rid, room) in enumerate(venue.rooms.items())
    }


def test_export_then_load_changes_nothing(fresh_db: str, tmp_path: Path) -> None:
    example = ROOT / "examples" / "venue.toml"
    assert run(fresh_db, "venue", "load", str(example))[0] == 0
    out = tmp_path / "grand.toml"
    code, answer = run(fresh_db, "venue", "export", "grand-tokyo", "--out", str(out))
    assert (code, answer["file"]) == (0, str(out))
    assert read_venue_file(out) == read_venue_file(example)
    assert run(fresh_db, "venue", "load", str(out))[0] == 0
    code, answer = run(fresh_db, "venue", "export", "grand-tokyo")
    assert code == 0 and answer["toml"] == out.read_text(encoding="utf-8")


def test_an_unknown_venue_is_refused_naming_those_loaded(fresh_db: str) -> None:
    assert run(fresh_db, "venue", "load", str(ROOT / "examples" / "venue.toml"))[0] == 0
    code, answer = run(fresh_db, "venue", "export", "nowhere")
    assert code == 1 and answer["code"] == "unknown_venue"
    assert "grand-tokyo" in answer["message"]


def test_a_venue_is_linked_to_a_workspace_and_a_bad_id_is_refused(fresh_db: str) -> None:
    assert run(fresh_db, "venue", "load", str(ROOT / "examples" / "venue.toml"))[0] == 0
    code, answer = run(fresh_db, "venue", "link", "grand-tokyo", "T0HOTELGRP")
    assert code == 0 and answer["venues"] == ["grand-tokyo"] and answer["org_wide"] is False
    code, shown = run(fresh_db, "venue", "show")
    assert (shown["workspace"], shown["managers"], shown["sales_channel"]) == (
        "T0HOTELGRP",
        ["U0MANAGER1"],
        None,
    )
    code, answer = run(fresh_db, "venue", "link", "grand-tokyo", "general")
    assert code == 2 and answer["code"] == "bad_workspace" and "T0123ABCD" in answer["message"]
    code, answer = run(fresh_db, "venue", "link", "nowhere", "T0HOTELGRP")
    assert code == 1 and answer["code"] == "unknown_venue"
