"""Customer names compared as staff mean them (docs/rules.md, Candidate dates)."""

from __future__ import annotations

import pytest

from core.rules.customers import customer_key


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("山田様", "山田"),
        ("山田 様", "山田さま"),
        ("山田　太郎様", "山田太郎"),  # a full-width space
        ("ﾔﾏﾀﾞ", "ヤマダ"),  # half-width katakana
        ("ＡＢＣ商事", "abc商事"),  # full-width letters, and case
        ("  佐藤 花子 さま ", "佐藤花子"),
    ],
)
def test_the_same_customer_written_differently(one: str, other: str) -> None:
    assert customer_key(one) == customer_key(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [("山田様", "山口様"), ("ヤマダ", "山田"), ("様子見", "子見"), ("さまざま", "ざま")],
)
def test_different_customers_stay_different(one: str, other: str) -> None:
    assert customer_key(one) != customer_key(other)
