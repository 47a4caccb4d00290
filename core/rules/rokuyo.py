"""六曜 (rokuyō), the six-day cycle couples choose wedding dates by, from the 旧暦."""

from __future__ import annotations

from datetime import date
from enum import Enum

from core.rules.lunisolar import LunarDate, lunar_date


class Rokuyo(Enum):
    """The six days; the value is ``(lunar month + lunar day) % 6`` for that day."""

    TAIAN = 0
    SHAKKO = 1
    SENSHO = 2
    TOMOBIKI = 3
    SENBU = 4
    BUTSUMETSU = 5

    @property
    def japanese(self) -> str:
        return _JAPANESE[self]

    @property
    def romaji(self) -> str:
        """Hepburn, lower case, as used in flags and English text: taian, shakko, …"""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Rokuyo:
        """By its Japanese name (大安) or romaji (taian, any case); ValueError otherwise."""
        wanted = text.strip()
        for member in cls:
            if wanted == member.japanese or wanted.lower() == member.romaji:
                return member
        names = ", ".join(f"{m.japanese} ({m.romaji})" for m in cls)
        raise ValueError(f"{text!r} is not a 六曜; use one of {names}")


_JAPANESE = {
    Rokuyo.TAIAN: "大安",
    Rokuyo.SHAKKO: "赤口",
    Rokuyo.SENSHO: "先勝",
    Rokuyo.TOMOBIKI: "友引",
    Rokuyo.SENBU: "先負",
    Rokuyo.BUTSUMETSU: "仏滅",
}


def rokuyo(day: date) -> Rokuyo:
    """The 六曜 of a Japanese calendar day (a leap month counts as its base month)."""
    return rokuyo_of(lunar_date(day))


def rokuyo_of(lunar: LunarDate) -> Rokuyo:
    return Rokuyo((lunar.month + lunar.day) % 6)
