"""The 旧暦 and 六曜 against published tables, never against values this code produced.

Sources (all read through the search tool's stored copies; no value here was computed):

* NAOJ: 国立天文台 暦計算室「暦要項」朔弦望, https://eco.mtk.nao.ac.jp/koyomi/yoko/{YYYY}/rekiyou{YY}3.html
  — the instant (JST, to the minute) of every new moon 2004–2027, as transcribed in the
  fixture ``tests/cases/lunar-naoj-saku.php`` of the public repository poiopi/fortune
  (retrieved there 2026-09-30). A lunisolar month starts on the JST date of each.
* ARACHNE: 暦のページ arachne.jp「大安カレンダー」, https://www.arachne.jp/onlinecalendar/taian/{YYYY}/{MM}/
  — the 六曜 of every day of the months below, as transcribed in poiopi/fortune's
  ``tests/cases/lunar-arachne-rokuyo.php`` (retrieved there 2026-09-30).
* KOYOMINOTE: https://koyominote.com/post/calendar-day/?date=YYYY-MM-DD — 旧暦 month/day
  and 六曜 of single days. BENRI: https://www.benri.jp/calendar/kyuureki/?year=2028.
  HIGOYO: https://higoyo.me/?p=10221. STARCRAWLER: https://calendar.starcrawler.net/d/?ymd=2029-05-28.
  BROWN: https://brown.velvet.jp/uranai/kyureki.html (January 2026).
* WIKIPEDIA: ja.wikipedia「1月 (旧暦)」「9月 (旧暦)」「10月 (旧暦)」tables of 朔 dates (2014–2025).
* lunardate (PyPI), a table of the Chinese calendar, as a second, independent check.
"""

from __future__ import annotations

import itertools
from datetime import date, datetime, timedelta

import pytest
from lunardate import LunarDate as ChineseDate

from core.rules.lunisolar import LunarDate, OutOfRange, lunar_date, months_of
from core.rules.rokuyo import Rokuyo, rokuyo

# NAOJ 暦要項 朔弦望: "MM-DD HH:MM" (JST) of every new moon, by year.
NAOJ_NEW_MOONS = """
2004: 01-22 06:05  02-20 18:18  03-21 07:41  04-19 22:21  05-19 13:52  06-18 05:27
      07-17 20:24  08-16 10:24  09-14 23:29  10-14 11:48  11-12 23:27  12-12 10:29
2005: 01-10 21:03  02-09 07:28  03-10 18:10  04-09 05:32  05-08 17:45  06-07 06:55
      07-06 21:02  08-05 12:05  09-04 03:45  10-03 19:28  11-02 10:25  12-02 00:01
      12-31 12:12
2006: 01-29 23:15  02-28 09:31  03-29 19:15  04-28 04:44  05-27 14:26  06-26 01:05
      07-25 13:31  08-24 04:10  09-22 20:45  10-22 14:14  11-21 07:18  12-20 23:01
2007: 01-19 13:01  02-18 01:14  03-19 11:43  04-17 20:36  05-17 04:27  06-15 12:13
      07-14 21:04  08-13 08:03  09-11 21:44  10-11 14:01  11-10 08:03  12-10 02:40
2008: 01-08 20:37  02-07 12:45  03-08 02:14  04-06 12:55  05-05 21:18  06-04 04:23
      07-03 11:19  08-01 19:13  08-31 04:58  09-29 17:12  10-29 08:14  11-28 01:55
      12-27 21:22
2009: 01-26 16:55  02-25 10:35  03-27 01:06  04-25 12:23  05-24 21:11  06-23 04:35
      07-22 11:35  08-20 19:02  09-19 03:44  10-18 14:33  11-17 04:14  12-16 21:02
2010: 01-15 16:11  02-14 11:51  03-16 06:01  04-14 21:29  05-14 10:04  06-12 20:15
      07-12 04:40  08-10 12:08  09-08 19:30  10-08 03:44  11-06 13:52  12-06 02:36
2011: 01-04 18:03  02-03 11:31  03-05 05:46  04-03 23:32  05-03 15:51  06-02 06:03
      07-01 17:54  07-31 03:40  08-29 12:04  09-27 20:09  10-27 04:56  11-25 15:10
      12-25 03:06
2012: 01-23 16:39  02-22 07:35  03-22 23:37  04-21 16:18  05-21 08:47  06-20 00:02
      07-19 13:24  08-18 00:54  09-16 11:11  10-15 21:03  11-14 07:08  12-13 17:42
2013: 01-12 04:44  02-10 16:20  03-12 04:51  04-10 18:35  05-10 09:28  06-09 00:56
      07-08 16:14  08-07 06:51  09-05 20:36  10-05 09:35  11-03 21:50  12-03 09:22
2014: 01-01 20:14  01-31 06:39  03-01 17:00  03-31 03:45  04-29 15:14  05-29 03:40
      06-27 17:08  07-27 07:42  08-25 23:13  09-24 15:14  10-24 06:57  11-22 21:32
      12-22 10:36
2015: 01-20 22:14  02-19 08:47  03-20 18:36  04-19 03:57  05-18 13:13  06-16 23:05
      07-16 10:24  08-14 23:53  09-13 15:41  10-13 09:06  11-12 02:47  12-11 19:29
2016: 01-10 10:31  02-08 23:39  03-09 10:54  04-07 20:24  05-07 04:30  06-05 12:00
      07-04 20:01  08-03 05:45  09-01 18:03  10-01 09:11  10-31 02:38  11-29 21:18
      12-29 15:53
2017: 01-28 09:07  02-26 23:58  03-28 11:57  04-26 21:16  05-26 04:44  06-24 11:31
      07-23 18:46  08-22 03:30  09-20 14:30  10-20 04:12  11-18 20:42  12-18 15:30
2018: 01-17 11:17  02-16 06:05  03-17 22:12  04-16 10:57  05-15 20:48  06-14 04:43
      07-13 11:48  08-11 18:58  09-10 03:01  10-09 12:47  11-08 01:02  12-07 16:20
2019: 01-06 10:28  02-05 06:04  03-07 01:04  04-05 17:50  05-05 07:45  06-03 19:02
      07-03 04:16  08-01 12:12  08-30 19:37  09-29 03:26  10-28 12:38  11-27 00:06
      12-26 14:13
2020: 01-25 06:42  02-24 00:32  03-24 18:28  04-23 11:26  05-23 02:39  06-21 15:41
      07-21 02:33  08-19 11:42  09-17 20:00  10-17 04:31  11-15 14:07  12-15 01:17
2021: 01-13 14:00  02-12 04:06  03-13 19:21  04-12 11:31  05-12 04:00  06-10 19:53
      07-10 10:17  08-08 22:50  09-07 09:52  10-06 20:05  11-05 06:15  12-04 16:43
2022: 01-03 03:33  02-01 14:46  03-03 02:35  04-01 15:24  05-01 05:28  05-30 20:30
      06-29 11:52  07-29 02:55  08-27 17:17  09-26 06:55  10-25 19:49  11-24 07:57
      12-23 19:17
2023: 01-22 05:53  02-20 16:06  03-22 02:23  04-20 13:13  05-20 00:53  06-18 13:37
      07-18 03:32  08-16 18:38  09-15 10:40  10-15 02:55  11-13 18:27  12-13 08:32
2024: 01-11 20:57  02-10 07:59  03-10 18:00  04-09 03:21  05-08 12:22  06-06 21:38
      07-06 07:57  08-04 20:13  09-03 10:56  10-03 03:49  11-01 21:47  12-01 15:21
      12-31 07:27
2025: 01-29 21:36  02-28 09:45  03-29 19:58  04-28 04:31  05-27 12:02  06-25 19:32
      07-25 04:11  08-23 15:07  09-22 04:54  10-21 21:25  11-20 15:47  12-20 10:43
2026: 01-19 04:52  02-17 21:01  03-19 10:23  04-17 20:52  05-17 05:01  06-15 11:54
      07-14 18:44  08-13 02:37  09-11 12:27  10-11 00:50  11-09 16:02  12-09 09:52
2027: 01-08 05:24  02-07 00:56  03-08 18:29  04-07 08:51  05-06 19:59  06-05 04:40
      07-04 12:02  08-02 19:05  09-01 02:41  09-30 11:36  10-29 22:37  11-28 12:24
      12-28 05:12
"""

# ARACHNE 大安カレンダー, one character a day from the 1st: 勝 先勝, 引 友引, 負 先負,
# 滅 仏滅, 安 大安, 口 赤口.
ARACHNE_ROKUYO = {
    "2014-09": "負滅安口勝引負滅安口勝引負滅安口勝引負滅安口勝負滅安口勝引負",
    "2014-10": "滅安口勝引負滅安口勝引負滅安口勝引負滅安口勝引負滅安口勝引負滅",
    "2014-11": "安口勝引負滅安口勝引負滅安口勝引負滅安口勝滅安口勝引負滅安口",
    "2014-12": "勝引負滅安口勝引負滅安口勝引負滅安口勝引負安口勝引負滅安口勝引",
    "2025-06": "滅安口勝引負滅安口勝引負滅安口勝引負滅安口勝引負口勝引負滅安",
    "2025-07": "口勝引負滅安口勝引負滅安口勝引負滅安口勝引負滅安口勝引負滅安口",
    "2025-08": "勝引負滅安口勝引負滅安口勝引負滅安口勝引負滅勝引負滅安口勝引負",
    "2025-09": "滅安口勝引負滅安口勝引負滅安口勝引負滅安口引負滅安口勝引負滅",
    "2026-01": "安口勝引負滅安口勝引負滅安口勝引負滅口勝引負滅安口勝引負滅安口",
    "2026-02": "勝引負滅安口勝引負滅安口勝引負滅勝引負滅安口勝引負滅安口",
    "2026-03": "勝引負滅安口勝引負滅安口勝引負滅安口引負滅安口勝引負滅安口勝引",
    "2026-04": "負滅安口勝引負滅安口勝引負滅安口負滅安口勝引負滅安口勝引負滅",
    "2026-05": "安口勝引負滅安口勝引負滅安口勝引滅安口勝引負滅安口勝引負滅安口",
    "2026-06": "勝引負滅安口勝引負滅安口勝引安口勝引負滅安口勝引負滅安口勝引",
    "2026-07": "負滅安口勝引負滅安口勝引負口勝引負滅安口勝引負滅安口勝引負滅安",
    "2026-08": "口勝引負滅安口勝引負滅安勝引負滅安口勝引負滅安口勝引負滅安口勝",
    "2026-09": "引負滅安口勝引負滅安引負滅安口勝引負滅安口勝引負滅安口勝引負",
    "2026-10": "滅安口勝引負滅安口勝負滅安口勝引負滅安口勝引負滅安口勝引負滅安",
    "2026-11": "口勝引負滅安口勝滅安口勝引負滅安口勝引負滅安口勝引負滅安口勝",
    "2026-12": "引負滅安口勝引負安口勝引負滅安口勝引負滅安口勝引負滅安口勝引負",
    "2028-05": "滅安口勝引負滅安口勝引負滅安口勝引負滅安口勝引安口勝引負滅安口",
    "2028-06": "勝引負滅安口勝引負滅安口勝引負滅安口勝引負滅安口勝引負滅安口",
    "2028-07": "勝引負滅安口勝引負滅安口勝引負滅安口勝引負口勝引負滅安口勝引負",
    "2028-08": "滅安口勝引負滅安口勝引負滅安口勝引負滅勝引負滅安口勝引負滅安口",
    "2033-11": "勝引負滅安口勝引負滅安口勝引負滅安口勝引負安口勝引負滅安口勝",
    "2033-12": "引負滅安口勝引負滅安口勝引負滅安口勝引負滅安口勝引負滅安口勝引",
    "2034-01": "負滅安口勝引負滅安口勝引負滅安口勝引負口勝引負滅安口勝引負滅安",
    "2034-02": "口勝引負滅安口勝引負滅安口勝引負滅安勝引負滅安口勝引負滅",
}
_CODES = {"勝": "先勝", "引": "友引", "負": "先負", "滅": "仏滅", "安": "大安", "口": "赤口"}

# Single days: date, 旧暦 month, day, leap, 六曜, where it is printed.
ALMANAC_DAYS = [
    ("2026-01-01", 11, 13, False, "大安", "BROWN"),
    ("2026-01-03", 11, 15, False, "先勝", "BROWN"),
    ("2026-01-18", 11, 30, False, "仏滅", "BROWN"),
    ("2026-09-27", 8, 17, False, "赤口", "KOYOMINOTE"),
    ("2027-01-29", 12, 22, False, "先負", "HIGOYO"),
    ("2027-02-20", 1, 14, False, "友引", "KOYOMINOTE"),
    ("2027-09-11", 8, 11, False, "赤口", "KOYOMINOTE"),
    ("2027-09-23", 8, 23, False, "赤口", "KOYOMINOTE"),
    ("2027-10-17", 9, 18, False, "友引", "KOYOMINOTE"),
    ("2028-01-01", 12, 5, False, "仏滅", "BENRI"),
    ("2028-01-26", 12, 30, False, "大安", "BENRI"),
    ("2028-01-27", 1, 1, False, "先勝", "BENRI"),
    ("2028-02-09", 1, 14, False, "友引", "BENRI"),
    ("2028-02-24", 1, 29, False, "大安", "KOYOMINOTE"),
    ("2028-03-21", 2, 26, False, "先負", "KOYOMINOTE"),
    ("2028-06-29", 5, 7, True, "大安", "KOYOMINOTE"),
    ("2028-07-11", 5, 19, True, "大安", "KOYOMINOTE"),
    ("2028-09-20", 8, 2, False, "先負", "KOYOMINOTE"),
    ("2028-11-02", 9, 16, False, "赤口", "KOYOMINOTE"),
    ("2029-03-09", 1, 25, False, "先勝", "KOYOMINOTE"),
    ("2029-05-28", 4, 16, False, "先勝", "STARCRAWLER"),
    ("2029-10-01", 8, 24, False, "先勝", "KOYOMINOTE"),
    ("2029-11-15", 10, 10, False, "先勝", "KOYOMINOTE"),
    ("2029-11-23", 10, 18, False, "先負", "KOYOMINOTE"),
    ("2029-11-29", 10, 24, False, "先負", "KOYOMINOTE"),
    ("2030-02-18", 1, 16, False, "仏滅", "KOYOMINOTE"),
    ("2030-06-04", 5, 4, False, "友引", "KOYOMINOTE"),
    ("2030-08-29", 8, 1, False, "友引", "KOYOMINOTE"),
    ("2030-08-30", 8, 2, False, "先負", "KOYOMINOTE"),
    ("2030-12-31", 12, 7, False, "赤口", "KOYOMINOTE"),
    ("2033-05-30", 5, 3, False, "先勝", "KOYOMINOTE"),
    ("2034-01-28", 12, 9, False, "友引", "KOYOMINOTE"),
    ("2034-03-30", 2, 11, False, "赤口", "KOYOMINOTE"),
]

# First days of months, by month name, as WIKIPEDIA tabulates them (閏: the leap month).
WIKIPEDIA_FIRST_DAYS = {
    (1, False): "2014-01-31 2015-02-19 2016-02-08 2017-01-28 2018-02-16 2019-02-05 "
    "2020-01-25 2021-02-12 2022-02-01 2023-01-22 2024-02-10 2025-01-29",
    (9, False): "2014-09-24 2015-10-13 2016-10-01 2017-10-20 2018-10-09 2019-09-29 "
    "2020-10-17 2021-10-06 2022-09-26 2023-10-15 2024-10-03 2025-10-21",
    (9, True): "2014-10-24",
    (10, False): "2014-11-22 2015-11-12 2016-10-31 2017-11-18 2018-11-08 2019-10-28 "
    "2020-11-15 2021-11-05 2022-10-25 2023-11-13 2024-11-01 2025-11-20",
}

# Every month that starts 2025-2030 whose first day and number a published table pins:
# (first day, month, leap, how). NAOJ gives the day; the number is read from the 六曜 of the
# ARACHNE day (first-day 六曜 = number + 1, mod 6), from a dated 旧暦 entry in ALMANAC_DAYS
# or WIKIPEDIA, or counted between two such anchors over NAOJ's new moons.
PUBLISHED_MONTHS = [
    ("2025-01-29", 1, False, "NAOJ + WIKIPEDIA"),
    ("2025-02-28", 2, False, "NAOJ, counted"),
    ("2025-03-29", 3, False, "NAOJ, counted"),
    ("2025-04-28", 4, False, "NAOJ, counted"),
    ("2025-05-27", 5, False, "NAOJ, counted"),
    ("2025-06-25", 6, False, "NAOJ + ARACHNE"),
    ("2025-07-25", 6, True, "NAOJ + ARACHNE"),
    ("2025-08-23", 7, False, "NAOJ + ARACHNE"),
    ("2025-09-22", 8, False, "NAOJ + ARACHNE"),
    ("2025-10-21", 9, False, "NAOJ + WIKIPEDIA"),
    ("2025-11-20", 10, False, "NAOJ + WIKIPEDIA"),
    ("2025-12-20", 11, False, "NAOJ + BROWN"),
    ("2026-01-19", 12, False, "NAOJ + ARACHNE"),
    ("2026-02-17", 1, False, "NAOJ + ARACHNE"),
    ("2026-03-19", 2, False, "NAOJ + ARACHNE"),
    ("2026-04-17", 3, False, "NAOJ + ARACHNE"),
    ("2026-05-17", 4, False, "NAOJ + ARACHNE"),
    ("2026-06-15", 5, False, "NAOJ + ARACHNE"),
    ("2026-07-14", 6, False, "NAOJ + ARACHNE"),
    ("2026-08-13", 7, False, "NAOJ + ARACHNE"),
    ("2026-09-11", 8, False, "NAOJ + ARACHNE"),
    ("2026-10-11", 9, False, "NAOJ + ARACHNE"),
    ("2026-11-09", 10, False, "NAOJ + ARACHNE"),
    ("2026-12-09", 11, False, "NAOJ + ARACHNE"),
    ("2027-01-08", 12, False, "NAOJ + HIGOYO"),
    ("2027-02-07", 1, False, "NAOJ + KOYOMINOTE"),
    ("2027-03-08", 2, False, "NAOJ, counted"),
    ("2027-04-07", 3, False, "NAOJ, counted"),
    ("2027-05-06", 4, False, "NAOJ, counted"),
    ("2027-06-05", 5, False, "NAOJ, counted"),
    ("2027-07-04", 6, False, "NAOJ, counted"),
    ("2027-08-02", 7, False, "NAOJ, counted"),
    ("2027-09-01", 8, False, "NAOJ + KOYOMINOTE"),
    ("2027-09-30", 9, False, "NAOJ + KOYOMINOTE"),
    ("2027-10-29", 10, False, "NAOJ, counted"),
    ("2027-11-28", 11, False, "NAOJ, counted"),
    ("2027-12-28", 12, False, "NAOJ + BENRI"),
    ("2028-01-27", 1, False, "BENRI"),
    ("2028-02-25", 2, False, "KOYOMINOTE"),
    ("2028-04-25", 4, False, "ARACHNE"),
    ("2028-05-24", 5, False, "ARACHNE"),
    ("2028-06-23", 5, True, "ARACHNE + KOYOMINOTE"),
    ("2028-07-22", 6, False, "ARACHNE"),
    ("2028-08-20", 7, False, "ARACHNE"),
    ("2028-09-19", 8, False, "KOYOMINOTE"),
    ("2028-10-18", 9, False, "KOYOMINOTE"),
    ("2029-02-13", 1, False, "KOYOMINOTE"),
    ("2029-05-13", 4, False, "STARCRAWLER"),
    ("2029-09-08", 8, False, "KOYOMINOTE"),
    ("2029-11-06", 10, False, "KOYOMINOTE"),
    ("2030-02-03", 1, False, "KOYOMINOTE"),
    ("2030-06-01", 5, False, "KOYOMINOTE"),
    ("2030-08-29", 8, False, "KOYOMINOTE"),
    ("2030-12-25", 12, False, "KOYOMINOTE"),
]

# Months 2025-2030 whose Japanese first day is a day after the Chinese one: the new moon
# falls between 00:00 and 01:00 JST (23:00-24:00 in China). NAOJ prints the first two
# (00:50, 00:56), BENRI the third's 旧正月; the fourth's new moon is at about 00:50 JST.
JAPAN_DAY_LATER = {"2026-10-11", "2027-02-07", "2028-01-27", "2029-07-12"}


def naoj_new_moons() -> list[datetime]:
    moments = []
    for line in NAOJ_NEW_MOONS.strip().splitlines():
        year, _, rest = line.rpartition(": ") if ": " in line else ("", "", line)
        if year:
            current = year.strip()
        cells = rest.split()
        for day, clock in zip(cells[::2], cells[1::2], strict=True):
            moments.append(datetime.fromisoformat(f"{current}-{day}T{clock}"))
    return moments


def test_the_table_is_read_whole() -> None:
    moons = naoj_new_moons()
    assert len(moons) == 297
    assert moons[0] == datetime(2004, 1, 22, 6, 5)
    assert moons[-1] == datetime(2027, 12, 28, 5, 12)
    assert all(later - earlier > timedelta(days=29) for earlier, later in itertools.pairwise(moons))


def test_every_month_2004_to_2027_starts_on_the_naoj_new_moon_day() -> None:
    published = {m.date() for m in naoj_new_moons()}
    computed = {m.start for year in range(2004, 2028) for m in months_of(year)}
    assert computed == published


def test_new_moons_near_midnight_start_the_month_on_their_jst_day() -> None:
    near_midnight = [m for m in naoj_new_moons() if m.hour in (0, 23)]
    assert len(near_midnight) == 20  # 2005-12-02 00:01, 2012-06-20 00:02, 2015-08-14 23:53, …
    for moment in near_midnight:
        assert lunar_date(moment.date()).day == 1, moment
        assert lunar_date(moment.date() - timedelta(days=1)).day >= 29, moment


@pytest.mark.parametrize(("first", "month", "leap", "source"), PUBLISHED_MONTHS)
def test_published_month_starts_2025_to_2030(
    first: str, month: int, leap: bool, source: str
) -> None:
    day = date.fromisoformat(first)
    found = lunar_date(day)
    assert (found.month, found.day, found.leap) == (month, 1, leap), source
    assert lunar_date(day - timedelta(days=1)).day in (29, 30), source


def test_published_months_cover_every_month_2025_to_2027() -> None:
    published = {date.fromisoformat(first) for first, *_ in PUBLISHED_MONTHS}
    naoj = {m.date() for m in naoj_new_moons() if m.year >= 2025}
    assert naoj <= published


@pytest.mark.parametrize(("day", "month", "number", "leap", "name", "source"), ALMANAC_DAYS)
def test_almanac_days(
    day: str, month: int, number: int, leap: bool, name: str, source: str
) -> None:
    found = lunar_date(date.fromisoformat(day))
    assert (found.month, found.day, found.leap) == (month, number, leap), source
    assert rokuyo(date.fromisoformat(day)).japanese == name, source


@pytest.mark.parametrize(("first_days", "month"), [(v, k) for k, v in WIKIPEDIA_FIRST_DAYS.items()])
def test_wikipedia_month_tables(first_days: str, month: tuple[int, bool]) -> None:
    for first in first_days.split():
        found = lunar_date(date.fromisoformat(first))
        assert (found.month, found.leap, found.day) == (*month, 1), first


@pytest.mark.parametrize("month", sorted(ARACHNE_ROKUYO))
def test_arachne_rokuyo_every_day(month: str) -> None:
    start = date.fromisoformat(f"{month}-01")
    printed = [_CODES[c] for c in ARACHNE_ROKUYO[month]]
    computed = [rokuyo(start + timedelta(days=i)).japanese for i in range(len(printed))]
    assert (start + timedelta(days=len(printed))).day == 1  # the whole month is encoded
    assert computed == printed


def test_2033_takes_the_leap_eleventh_month() -> None:
    """案1 of the 旧暦2033年問題, as ARACHNE prints it: 閏11月 from 2033-12-22."""
    assert lunar_date(date(2033, 8, 25)) == LunarDate(2033, 8, 1, False)
    assert lunar_date(date(2033, 11, 22)) == LunarDate(2033, 11, 1, False)
    assert lunar_date(date(2033, 12, 22)) == LunarDate(2033, 11, 1, True)
    assert lunar_date(date(2034, 1, 20)) == LunarDate(2033, 12, 1, False)
    assert lunar_date(date(2034, 2, 19)) == LunarDate(2034, 1, 1, False)


def test_chinese_calendar_agrees_except_where_the_day_boundary_differs() -> None:
    """lunardate (the Chinese calendar, UTC+8) numbers 2025-2030 the same way; the first
    day differs only for the months in JAPAN_DAY_LATER, where China's is a day earlier."""
    later = set()
    for year in range(2025, 2031):
        for month in months_of(year):
            chinese = ChineseDate.from_solar_date(
                month.start.year, month.start.month, month.start.day
            )
            assert (chinese.month, chinese.is_leap_month) == (month.number, month.leap)
            if chinese.day == 2:
                later.add(month.start.isoformat())
                before = month.start - timedelta(days=1)
                assert ChineseDate.from_solar_date(before.year, before.month, before.day).day == 1
            else:
                assert chinese.day == 1, month
    assert later == JAPAN_DAY_LATER


def test_naoj_near_midnight_new_moons_are_where_china_differs() -> None:
    """The same day-boundary rule, read off NAOJ's times alone, for 2004-2027."""
    for moment in naoj_new_moons():
        day = moment.date()
        chinese = ChineseDate.from_solar_date(day.year, day.month, day.day)
        assert chinese.day == (2 if moment.hour == 0 else 1), moment


def test_rokuyo_names_and_romaji() -> None:
    assert [(r.japanese, r.romaji) for r in Rokuyo] == [
        ("大安", "taian"),
        ("赤口", "shakko"),
        ("先勝", "sensho"),
        ("友引", "tomobiki"),
        ("先負", "senbu"),
        ("仏滅", "butsumetsu"),
    ]
    assert Rokuyo.parse("大安") is Rokuyo.TAIAN
    assert Rokuyo.parse(" Tomobiki ") is Rokuyo.TOMOBIKI
    with pytest.raises(ValueError, match="大安"):
        Rokuyo.parse("吉日")


def test_months_of_a_year_run_29_or_30_days() -> None:
    months = [m for year in range(2024, 2036) for m in months_of(year)]
    lengths = {(b.start - a.start).days for a, b in itertools.pairwise(months)}
    assert lengths == {29, 30}


def test_years_outside_the_computed_range_are_refused() -> None:
    with pytest.raises(OutOfRange, match="1900"):
        lunar_date(date(1899, 12, 31))
    with pytest.raises(OutOfRange, match="2199"):
        months_of(2200)
