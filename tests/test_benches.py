"""Every bench of bench/ runs end to end at its smallest size, so none rots unnoticed.

Each runs as `python3 dev.py bench NAME` does (``python -m bench.NAME``, this interpreter), on
the test PostgreSQL and Redis (``bench.common`` finds them as the tests do), with arguments
that still take every part of it: both variants, every phase, every printed figure from at
least one sample. A bench added to bench/ without an entry here fails the first test.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HELPERS = {"__init__", "common", "variants"}  # bench/ modules that are not benches
FIGURE = r"p50 +[0-9.]+ ms +p95 +[0-9.]+ ms"
ROW = r"[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +(1|[0-9]\.[0-9]{3}) +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{3}"

# bench -> (its smallest arguments, lines its output must have: one regex each)
SMALL: dict[str, tuple[str, list[str]]] = {
    "hot_slot": (
        "--trials 1 --contenders 3 --requests 12 --threads 2 --rounds 1 --bursts 1",
        [
            r"^  engine \(SERIALIZABLE \+ part-day bump\)$",
            r"^  naive READ COMMITTED$",
            r"^  READ COMMITTED \+ FOR UPDATE$",
            r"^ +1 trials +accepted \d \(ranks [\d,]+\), refused \d$",
            r"^mix +variant +req/s +p50 ms +p95 ms +p99 ms +attempts +x FOR UPDATE +x floor$",
            *(
                rf"^{mix} +{variant} +{ROW}$"
                for mix in ("hot slot", "1 venue", "4 venues")
                for variant in ("engine", "FOR UPDATE", "bare lock", "floor")
            ),
            *(
                rf"^decisions +{variant} +{ROW}$"
                for variant in ("engine", "serializable", "FOR UPDATE", "floor")
            ),
            r"^decisions answered busy: \{'engine': 0, .*\} in 40 each$",
            r"^serializable decisions attempts started again: \d+ in 40 decisions$",
            r"^engine attempts started again: \d+ in \d+ requests$",
            r"^engine requests refused on sight: \d+ in \d+$",
            r"^machine: Python reference loop \d+ ms CPU \(median of 5\)$",
        ],
    ),
    "packages": (
        "--trials 1 --contenders 3 --requests 12 --threads 2",
        [
            r"^3-room wedding, rooms in opposite orders$",
            r"^one room$",
            r"^  busy \(no answer after every retry\): \d+$",
            r"^  3-room wedding +" + FIGURE,
            r"^  p95 of a 3-room request / p95 of a one-room request: \d+\.\d\d$",
        ],
    ),
    "scale": (
        # the holds fill one venue of 20,000 whatever --holds says; 4 samples: 1 request
        "--holds 2000 --due 50 --samples 4",
        [
            r"^filled 20,060 holds",
            r"^conflict check at 20,060 holds",
            r"^  occupants of a random slot +" + FIGURE + r" .*\(n=4\)$",
            r"Index Only Scan",
            r"^  engine\.writes\.request +" + FIGURE + r" .*\(n=1\)$",
            r"^  expired 50, promoted 10 in [0-9.]+ s",
        ],
    ),
    "search": (
        "--holds 2000 --samples 2 --profile",
        [
            r"^filled 20,000 holds",
            r"^  whole call, as started +" + FIGURE,
            r"^  whole call, heap settled +" + FIGURE,
            r"^    full collections \d+, \d+ ms in all, longest [0-9.]+ ms; "
            r"first [\d,]+, second [\d,]+, taken [\d,]+$",
            r"^  phases:$",
            *(
                rf"^    {phase} +" + FIGURE
                for phase in (
                    "dates, times, places",
                    "the statement",
                    "its rows to a ledger",
                    "deciding every place",
                    "the answer",
                )
            ),
            r"^  the statement's plan:$",
            r"Index Only Scan using ix_hold_spans_part_start",
            r"^  deciding, lean \(what search runs\) +" + FIGURE,
            r"^  lean / reference at p50: \d+\.\d\d$",
            r"^whole call, heap settled: p95 [0-9.]+ ms (meets|MISSES) the 50 ms target$",
            r"^profile of the whole calls, by own time:$",
            r"^ +\d+ function calls .*in [0-9.]+ seconds$",
        ],
    ),
    # issue 27: the ledger taken out (feed, 304, export)
    "exports": (
        "--feed 60 --rows 90 --samples 3",
        [
            r"^venue: 10 rooms, 60 live holds, 30 that left$",
            r"^feed: [0-9.]+ MB; first GET of the process \(every hold rendered\) [0-9]+ ms$",
            *(
                rf"^feed {what} +" + FIGURE
                for what in (
                    "GET after one change",
                    "GET, nothing changed",
                    r"poll, If-None-Match \(304\)",
                )
            ),
            r"^x 304 poll, full GET after a change [0-9.]+$",
            r"^feed after a change \(p50\) [0-9.]+ s: (under|OVER) 0.3 s$",
            r"^304 poll \(p50\) [0-9.]+ s: (under|OVER) 0.02 s$",
            r"^export: 90 rows \(90 holds\)$",
            r"^export read \(--all\) +" + FIGURE,
            *(rf"^export {fmt} \(rows \+ file\) +" + FIGURE for fmt in ("xlsx", "csv")),
            r"^a year's export, 90 rows, read \+ xlsx \(p50\) [0-9.]+ s: (under|OVER) 5 s$",
        ],
    ),
    "diary": (
        "--rooms 6 --holds 40 --rounds 1",
        [
            r"^month 2027-05: 6 rooms, 40 holds$",
            *(
                rf"^{grid} {phase} +" + FIGURE
                for grid in ("empty", "full")
                for phase in ("layout", "png", "pdf", r"layout \+ png", "cold png")
            ),
            *(
                rf"^x empty grid, {phase} +[0-9.]+$"
                for phase in ("png", "pdf", r"layout \+ png", "cold png")
            ),
            r"^a month drawn \(layout \+ png, p50\) [0-9.]+ s: (under|OVER) 1 s$",
            r"^a month drawn cold \(layout \+ cold png, p50\) [0-9.]+ s: (under|OVER) 1 s$",
            r"^a month drawn cold, CPU \(p50\) [0-9.]+ s: (under|OVER) 1 s$",
            r"^  cpu full cold png +" + FIGURE,
        ],
    ),
    "team": (
        "--holds 200 --firsts 20 --events 60 --samples 2",
        [
            r"^venue: 224 holds, 60 audit events; home: \d+ deadlines, 4 waiting$",
            r"^day \(10 rooms, a busy day\) +" + FIGURE + r" .*\(\d+ statements\)$",
            r"^team home +" + FIGURE + r" .*\(\d+ statements\)$",
            r"^month counts +" + FIGURE + r" .*\(\d+ statements\)$",
        ],
    ),
    "bot_ack": (
        "--rounds 1 --concurrency 2 --threads 2",
        [
            r"^machine: Python reference loop \d+ ms CPU \(median of 5\)$",
            r"^submit \(one at a time\): server +" + FIGURE,
            r"^submit \(one slot, a race\): server +" + FIGURE,
            r"^   engine\.writes\.request +" + FIGURE,
            r"^   admission wait +" + FIGURE,
            r"^   transaction +" + FIGURE,
            r"^   after-ack work +" + FIGURE,
            r"^   server CPU per request, acks and after-ack work: [0-9.]+ ms$",
            r"^preview: request -> views\.update +" + FIGURE,
            *(
                rf"^submit \({what}\): server p95 [0-9.]+ ms (meets|MISSES) the 150 ms target$"
                for what in ("distinct slots", "one slot, a race")
            ),
            r'^Web API calls made: \{.*"views\.update": 2',
        ],
    ),
    "notices": (
        "--users 2 --busy-users 1 --samples 2 --workers 1 --threads 1",
        [
            r"^stand-in ceiling: \d+ calls/s",
            r"^2 users x 1 notices: 2 DMs in [0-9.]+s",
            r"^1 users x 6 notices: 6 DMs in [0-9.]+s = [0-9.]+/s; 429s answered: \d+",
            r"^deadline -> DM \(1 s ticks\) +p50 +[0-9.]+ ms +p95 +[0-9.]+ ms .*\(n=2\)$",
            r"^tick -> sweep -> drain -> DM +p50",
        ],
    ),
}


def benches() -> list[str]:
    return sorted(p.stem for p in (REPO / "bench").glob("*.py") if p.stem not in HELPERS)


def test_every_bench_has_its_smallest_run_here() -> None:
    assert benches() == sorted(SMALL), "give a new bench its smallest arguments in SMALL"


@pytest.mark.parametrize("name", sorted(SMALL))
def test_a_bench_runs_end_to_end_at_its_smallest_size(name: str) -> None:
    args, expected = SMALL[name]
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{name}", *args.split()],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    took = time.monotonic() - started
    said = f"bench {name} ({took:.1f} s), exit {done.returncode}:\n{done.stdout}\n{done.stderr}"
    assert done.returncode == 0, said
    assert "Traceback" not in done.stderr, said
    missing = [want for want in expected if not re.search(want, done.stdout, re.MULTILINE)]
    assert not missing, f"lines not printed: {missing}\n{said}"
    # every figure had samples: a part given none prints nan
    assert not re.search(r"\bnan\b", done.stdout), said
    assert took < 60, f"too slow for the suite: {said}"
