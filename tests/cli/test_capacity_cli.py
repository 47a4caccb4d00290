"""Guests over a room's capacity in the terminal (issue 25, item 8), through
``cli.main.main``: ``hold request`` and ``hold edit`` answer with an ``over_capacity``
warning naming the room and its ``capacity`` (one per room of a package), never a refusal."""

from __future__ import annotations

from typing import Any

import pytest

from cli.main import main
from tests.cli.test_typed_names_cli import NOW, osae, request

__all__ = ["osae"]  # the fixture, used by name


def over(answer: dict[str, Any]) -> list[tuple[str, int, int]]:
    return [
        (w["room"], w["capacity"], w["guests"])
        for w in answer["warnings"]
        if w["code"] == "over_capacity"
    ]


def test_a_request_and_an_edit_over_a_rooms_capacity_warn_with_it(osae: Any) -> None:
    # 菊の間 seats 40, the chapel 80, 鳳凰の間 300 (examples/venue.toml)
    code, small = request(
        osae, "--room", "菊の間", "--kind", "wedding", "--guests", "50", lang="ja_JP.UTF-8"
    )
    assert code == 0 and small["rank"] == 1  # taken all the same
    assert over(small) == [("kiku", 40, 50)]
    said = small["warnings"][0]["message"]
    assert said.startswith("菊の間の定員は着席40名です（50名で押さえます）")

    code, both = request(
        osae, "--room", "hoo", "--also", "chapel,09:00,10:00", "--kind", "wedding",
        "--guests", "120", "--salesperson", "U0SALES002",
    )  # fmt: skip
    assert code == 0 and over(both) == [("chapel", 80, 120)]  # per room: not the ballroom

    hold = both["hold"]
    code, dry = osae(
        "hold", "edit", str(hold["id"]), "--item", "チャペル", "--room", "菊の間", "--dry-run",
        "--actor", "U0SALES002", "--version", str(hold["version"]), "--now", NOW,
    )  # fmt: skip
    assert code == 0 and dry["dry_run"] and over(dry) == [("kiku", 40, 120)]  # nothing written
    code, edited = osae(
        "hold", "edit", str(hold["id"]), "--guests", "320", "--actor", "U0SALES002",
        "--version", str(hold["version"]), "--now", NOW,
    )  # fmt: skip
    assert code == 0, edited
    assert over(edited) == [("hoo", 300, 320), ("chapel", 80, 320)]
    assert "鳳凰の間 seats 300 (this hold is for 320 guests)" in edited["warnings"][0]["message"]
    code, fits = request(osae, "--room", "hoo", "--date", "2027-05-13", "--guests", "300",
                         "--kind", "wedding")  # fmt: skip
    assert code == 0 and over(fits) == []  # exactly what it seats


def test_the_terminals_line_says_the_capacity(
    osae: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    code = main(
        ["hold", "request", "--room", "kiku", "--date", "2027-05-12", "--start", "11:00",
         "--end", "15:00", "--kind", "婚礼", "--customer", "山田様", "--salesperson",
         "U0SALES001", "--guests", "45", "--now", NOW]
    )  # fmt: skip
    assert code == 0
    shown = capsys.readouterr().out
    assert "! 菊の間の定員は着席40名です（45名で押さえます）" in shown
