"""``core.rules.naming``: an id as written, else a name or id folded for width, case and
spaces; an unknown word gets every choice, the closest first."""

from __future__ import annotations

from core.rules.naming import Choice, Unknown, closest, resolve

ROOMS = (
    Choice("hoo", "鳳凰の間"),
    Choice("hoo-east", "鳳凰 東"),
    Choice("sakura", "桜の間"),
    Choice("chapel", "チャペル"),
)


def test_an_id_or_a_name_as_typed_or_folded_names_its_choice() -> None:
    assert resolve("hoo", ROOMS) == ROOMS[0]
    assert resolve("鳳凰の間", ROOMS) == ROOMS[0]
    assert resolve(" 鳳凰東 ", ROOMS) == ROOMS[1]  # spaces of any width left out
    assert resolve("ＳＡＫＵＲＡ", ROOMS) == ROOMS[2]  # full-width, upper case
    assert resolve("ﾁｬﾍﾟﾙ", ROOMS) == ROOMS[3]  # half-width kana


def test_an_unknown_word_lists_every_choice_closest_first() -> None:
    found = resolve("桜", ROOMS)
    assert isinstance(found, Unknown) and found.word == "桜"
    assert found.choices[0] == ROOMS[2] and set(found.choices) == set(ROOMS)
    assert closest("chapl", ROOMS)[0] == ROOMS[3]
    assert closest("", ROOMS) == ROOMS  # nothing typed: the venue's order


def test_two_choices_of_one_folded_name_are_not_guessed_between() -> None:
    twins = (Choice("a", "桜の間"), Choice("b", "桜 の間"), Choice("c", "菊の間"))
    found = resolve("桜の間", twins)
    assert isinstance(found, Unknown) and found.choices[:2] == twins[:2]
