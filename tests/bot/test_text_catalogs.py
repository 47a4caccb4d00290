"""The text catalogs: each key in one topic's catalog only (a second one would silently reword
the first one's sentence wherever it is said), and the same keys in ja and en."""

from __future__ import annotations

from collections import Counter

from bot.texts import PARTS


def test_a_key_is_written_in_one_catalog_only() -> None:
    for side in (0, 1):
        counted = Counter(key for part in PARTS for key in part[side])
        assert [key for key, n in counted.items() if n > 1] == []


def test_each_catalog_has_the_same_keys_in_both_languages() -> None:
    for ja, en in PARTS:
        assert set(ja) ^ set(en) == set()
