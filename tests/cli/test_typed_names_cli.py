"""Rooms and kinds by name on the command line (issue 25, item 8), through ``cli.main.main``:
``--room 瑞雲の間`` / ``--room hoo``, ``--also``, ``--item``, ``--kind 婚礼`` / a venue's own
kind, ``free --room`` / ``--kind``, ``day --room``; an unknown word exits 2, writes nothing and
lists what exists, closest first, in the reader's language."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli.main import main

ROOT = Path(__file__).resolve().parents[2]
NOW = "2027-03-01T09:00"
KINDS = '\n[[kinds]]\nid = "nijikai"\nname = "二次会"\nclass = "banquet"\n'
REASONS = """
[[reasons]]
code = "entry_error"
name = "入力の誤り"
loss = true

[[reasons]]
code = "venue_closed"
name = "休館"
loss = false
"""


@pytest.fixture
def osae(
    fresh_db: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> Any:
    """``osae(*args, lang="en")``: the command's exit code and its one JSON answer."""
    monkeypatch.setenv("DATABASE_URL", fresh_db)
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.delenv("OSAE_VENUE", raising=False)
    monkeypatch.delenv("OSAE_LANG", raising=False)

    def run(*args: str, lang: str = "C.UTF-8") -> tuple[int, dict[str, Any]]:
        monkeypatch.setenv("LANG", lang)
        code = main([*args, "--json"])
        out = capsys.readouterr().out.strip().splitlines()
        assert len(out) == 1, out
        return code, json.loads(out[0])

    venue = tmp_path / "venue.toml"
    example = (ROOT / "examples" / "venue.toml").read_text("utf-8")
    venue.write_text(example + KINDS + REASONS, "utf-8")
    assert run("venue", "load", str(venue))[0] == 0
    return run


def request(osae: Any, *extra: str, lang: str = "C.UTF-8") -> tuple[int, dict[str, Any]]:
    asked = ["hold", "request", "--date", "2027-05-12", "--start", "11:00", "--end", "15:00"]
    asked += ["--customer", "山田様", "--salesperson", "U0SALES001", "--now", NOW]
    return osae(*asked, *extra, lang=lang)


def test_rooms_and_kinds_are_taken_by_id_or_by_name(osae: Any) -> None:
    code, by_name = request(osae, "--room", "鳳凰の間", "--kind", "婚礼")
    assert code == 0, by_name
    assert by_name["hold"]["items"][0]["room_id"] == "hoo"
    assert by_name["hold"]["kind_id"] == "wedding"
    # full-width letters, spaces left out, a venue's own kind by name, a package by name
    code, folded = request(
        osae, "--room", "ＳＡＫＵＲＡ", "--kind", "二次会", "--also", "鳳凰東,16:00,18:00"
    )
    assert code == 0, folded
    assert [i["room_id"] for i in folded["hold"]["items"]] == ["sakura", "hoo-east"]
    assert folded["hold"]["kind_id"] == "nijikai"

    # an edit's --item and --room by name, its --kind by name
    hold = folded["hold"]
    code, edited = osae(
        "hold", "edit", str(hold["id"]), "--item", "鳳凰 東", "--room", "菊の間",
        "--kind", "一般宴会", "--actor", "U0SALES001", "--version", str(hold["version"]),
        "--now", NOW,
    )  # fmt: skip
    assert code == 0, edited
    assert [i["room_id"] for i in edited["hold"]["items"]] == ["sakura", "kiku"]
    assert edited["hold"]["kind_id"] == "banquet"

    code, free = osae(
        "free", "--from", "2027-05-12", "--to", "2027-05-12", "--room", "チャペル",
        "--start", "11:00", "--end", "12:00", "--kind", "婚礼", "--now", NOW,
    )  # fmt: skip
    assert code == 0 and {r["room"] for r in free["results"]} == {"chapel"}
    code, day = osae("day", "2027-05-12", "--room", "桜の間")
    assert code == 0 and [r["id"] for r in day["rooms"]] == ["sakura"]


def test_an_unknown_room_or_kind_exits_2_listing_what_exists_closest_first(osae: Any) -> None:
    code, room = request(osae, "--room", "瑞雲の間", "--kind", "wedding")
    assert (code, room["code"]) == (2, "unknown_room")
    said = room["message"]
    assert "瑞雲の間" in said and "nothing was written" in said
    listed = said.split("closest first: ")[1]
    assert listed.index("桜の間 (sakura)") < listed.index("チャペル (chapel)")  # の間 is close
    assert (room["field"], room["room"]) == ("room", "瑞雲の間")
    assert room["choices"].index("sakura") < room["choices"].index("chapel")

    code, kind = request(osae, "--room", "hoo", "--kind", "二次回", lang="ja_JP.UTF-8")
    assert (code, kind["code"]) == (2, "unknown_kind")
    assert kind["message"].startswith("種別「二次回」はこの会場にありません")
    listed = kind["message"].split("（近い順）: ")[1]
    assert listed.startswith("二次会 (nijikai)") and "婚礼 (wedding)" in listed
    assert kind["choices"][0] == "nijikai" and kind["kinds"] == ["wedding", "banquet", "nijikai"]

    code, also = request(osae, "--room", "hoo", "--kind", "wedding", "--also", "kiku2,16:00,18:00")
    assert (code, also["code"]) == (2, "unknown_room") and "菊の間 (kiku)" in also["message"]
    code, free = osae(
        "free", "--from", "2027-05-12", "--to", "2027-05-12", "--room", "ほうおう", "--now", NOW
    )
    assert (code, free["code"]) == (2, "unknown_room")
    code, day = osae("day", "2027-05-12", "--room", "蓮")
    assert (code, day["code"]) == (2, "unknown_room")

    code, listed_holds = osae("hold", "list")
    assert code == 0 and listed_holds["holds"] == []  # nothing was written
