"""How long a month's diary picture takes to draw: 30 rooms, 1,000 live holds.

Builds the venue and its holds in memory (the read is one statement; its cost is the
database's and is measured by the team bench), then times, round after round: the layout,
the PNG and the PDF, each beside the same month with no hold (the empty grid, a baseline
in the same process). A server keeps the lines it has written (a month repeats its kinds,
guests, names and deadlines); "cold png" forgets them before each round, as the first
picture after a start. The target is a month drawn in under 1 s.

    python3 dev.py bench diary [--rooms 30] [--holds 1000] [--rounds 15]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bench.common import latency_line, machine_line, percentile
from bot.diary_words import diary_words
from core.diary import layout, raster
from core.diary.draw import Format, render
from core.diary.model import DiaryRange, DiaryRead
from core.model import Hold, Kind, Policy, Room, Status, Venue

JST = ZoneInfo("Asia/Tokyo")
NOW = datetime(2027, 3, 1, 9, 0, tzinfo=JST)
SLOTS = ((11 * 60, 15 * 60), (17 * 60 + 30, 21 * 60), (9 * 60, 10 * 60))
CUSTOMERS = ("山田", "佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "中村", "小林", "加藤")


def venue_of(rooms: int) -> Venue:
    """``rooms`` rooms; every fifth is a whole room sold in two halves (the next two)."""
    made: dict[str, Room] = {}
    n = 0
    while len(made) < rooms:
        if n % 5 == 0 and len(made) + 3 <= rooms:
            made[f"r{n}"] = Room(f"r{n}", f"宴会場{n}", frozenset({f"p{n}a", f"p{n}b"}), 60, n)
            made[f"r{n}a"] = Room(f"r{n}a", f"宴会場{n}A", frozenset({f"p{n}a"}), 60, n)
            made[f"r{n}b"] = Room(f"r{n}b", f"宴会場{n}B", frozenset({f"p{n}b"}), 60, n)
        else:
            made[f"r{n}"] = Room(f"r{n}", f"会議室{n}", frozenset({f"p{n}"}), 30, n)
        n += 1
    return Venue("bench", "ベンチ・ホテル", "Asia/Tokyo", frozenset(), Policy(), made)


def holds_of(venue: Venue, count: int, month: DiaryRange) -> tuple[Hold, ...]:
    rooms = [r for r in venue.rooms.values() if not r.id.endswith(("a", "b"))]
    days = month.days
    made = []
    for n in range(count):
        room = rooms[n % len(rooms)]
        day = days[(n // len(rooms)) % len(days)]
        start, end = SLOTS[(n // (len(rooms) * len(days))) % len(SLOTS)]
        midnight = datetime.combine(day, datetime.min.time(), JST)
        status = Status.CONFIRMED if n % 3 == 0 else Status.TENTATIVE
        rank = None if status is Status.CONFIRMED else 1 + (n % 7 == 1)
        begin, finish = midnight + timedelta(minutes=start), midnight + timedelta(minutes=end)
        made.append(
            Hold(
                id=n + 1, venue_id=venue.id, room_id=room.id, room_name=room.name,
                parts=room.parts, local_date=day, start_at=begin, end_at=finish,
                span_end=finish + timedelta(minutes=room.turnover_min),
                kind=Kind.WEDDING if n % 2 else Kind.BANQUET,
                customer=f"{CUSTOMERS[n % len(CUSTOMERS)]}様 {n}", note="",
                salesperson=f"U0SALES{n % 12:03d}", creator="U0SALES000", status=status,
                rank=rank, expires_at=NOW + timedelta(days=7) if rank == 1 else None,
                extensions_used=0, created_at=NOW, updated_at=NOW, guests=40 + n % 80,
            )
        )  # fmt: skip
    return tuple(made)


def timed(work: Callable[[], object], rounds: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of each round (CPU: what this process spent, which a
    machine shared with others' tests does not inflate)."""
    wall, cpu = [], []
    for _ in range(rounds):
        began, spent = time.perf_counter(), time.process_time()
        work()
        wall.append(time.perf_counter() - began)
        cpu.append(time.process_time() - spent)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rooms", type=int, default=30)
    parser.add_argument("--holds", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    month = DiaryRange.month(2027, 5)
    venue = venue_of(args.rooms)
    full = DiaryRead(venue, month, holds_of(venue, args.holds, month))
    empty = DiaryRead(venue, month, ())
    words = diary_words(venue, month, "ja", NOW, lambda user: user)
    render(layout.build(empty, NOW), words, Format.PNG)  # the font and matplotlib, read once
    print(machine_line())
    print(f"month {month.first:%Y-%m}: {len(venue.rooms)} rooms, {len(full.holds)} holds")
    medians: dict[str, float] = {}
    for name, read in (("empty", empty), ("full", full)):
        placed = layout.build(read, NOW)
        phases: dict[str, Callable[[], object]] = {
            "layout": lambda read=read: layout.build(read, NOW),
            "png": lambda placed=placed: render(placed, words, Format.PNG),
            "pdf": lambda placed=placed: render(placed, words, Format.PDF),
            "layout + png": lambda read=read: render(layout.build(read, NOW), words, Format.PNG),
            # as the first picture after a start: no line written before
            "cold png": lambda placed=placed: (raster.forget(), render(placed, words, Format.PNG)),
        }
        for phase, work in phases.items():
            seconds, cpu = timed(work, args.rounds)
            medians[f"{name} {phase}"] = percentile(seconds, 50)
            medians[f"cpu {name} {phase}"] = percentile(cpu, 50)
            print(latency_line(f"{name} {phase}", seconds))
            print(latency_line(f"  cpu {name} {phase}", cpu))
    for phase in ("png", "pdf", "layout + png", "cold png"):
        ratio = medians[f"full {phase}"] / medians[f"empty {phase}"]
        print(f"x empty grid, {phase:<14} {ratio:5.2f}")
    drawn = medians["full layout + png"]
    print(f"a month drawn (layout + png, p50) {drawn:.3f} s: {_verdict(drawn)} 1 s")
    cold = medians["full layout"] + medians["full cold png"]
    print(f"a month drawn cold (layout + cold png, p50) {cold:.3f} s: {_verdict(cold)} 1 s")
    cpu = medians["cpu full layout"] + medians["cpu full cold png"]
    print(f"a month drawn cold, CPU (p50) {cpu:.3f} s: {_verdict(cpu)} 1 s")


def _verdict(seconds: float) -> str:
    return "under" if seconds < 1.0 else "OVER"


if __name__ == "__main__":
    main()
