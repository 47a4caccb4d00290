"""In-process admission: a cap per venue, and one request at a time per part-day."""

from __future__ import annotations

import threading
import time
from datetime import date

from core.admission import Admission

DAY = date(2027, 3, 10)


def overlap(admission: Admission, keys_a: list, keys_b: list, venues: tuple = ("v", "v")) -> bool:
    """Whether two holders of these keys were ever inside at the same time."""
    inside = threading.Barrier(2, timeout=0.3)
    met = []

    def hold(venue: str, keys: list) -> None:
        with admission.write(venue, keys):
            try:
                inside.wait()
                met.append(True)
            except threading.BrokenBarrierError:
                time.sleep(0.05)

    threads = [
        threading.Thread(target=hold, args=(venues[0], keys_a)),
        threading.Thread(target=hold, args=(venues[1], keys_b)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return bool(met)


def test_requests_for_the_same_part_day_take_turns() -> None:
    assert not overlap(Admission(2), [("A1", DAY)], [("A1", DAY), ("A2", DAY)])


def test_requests_for_other_part_days_run_together_up_to_the_cap() -> None:
    assert overlap(Admission(), [("A1", DAY)], [("A2", DAY)])
    assert overlap(Admission(2), [("A1", DAY)], [("A2", DAY)])
    assert not overlap(Admission(1), [("A1", DAY)], [("A2", DAY)])


def test_venues_do_not_share_a_cap_and_no_queue_means_straight_through() -> None:
    assert overlap(Admission(1), [("A1", DAY)], [("A1", DAY)], venues=("v", "w"))
    assert not overlap(Admission(), [("A1", DAY)], [("A1", DAY)])
    assert overlap(Admission(queue=False), [("A1", DAY)], [("A1", DAY)])


def test_a_request_waiting_for_a_part_day_holds_no_writer_slot() -> None:
    """Two slots: A is inside on A1, B waits for A1. C (A2) must get in while A is inside,
    which it could not if B had taken the second slot before queueing for A1."""
    admission = Admission(2)
    a_inside, release_a, c_inside = threading.Event(), threading.Event(), threading.Event()

    def a() -> None:
        with admission.write("v", [("A1", DAY)]):
            a_inside.set()
            release_a.wait(2)

    def b() -> None:
        with admission.write("v", [("A1", DAY)]):
            pass

    def c() -> None:
        with admission.write("v", [("A2", DAY)]):
            c_inside.set()

    threads = [threading.Thread(target=f) for f in (a, b, c)]
    threads[0].start()
    assert a_inside.wait(2)
    threads[1].start()
    time.sleep(0.05)  # B is queued on A1
    threads[2].start()
    assert c_inside.wait(1), "C waited behind B's queue for another part-day"
    release_a.set()
    for t in threads:
        t.join()


def test_idle_keys_are_forgotten() -> None:
    admission = Admission()
    with admission.write("v", [("A1", DAY)]):
        assert admission._keys
    assert not admission._keys


def test_a_turn_says_whether_it_waited_for_another_on_one_of_its_part_days() -> None:
    admission = Admission()
    inside, leave = threading.Event(), threading.Event()
    told: list[bool] = []

    def first() -> None:
        with admission.write("v", [("A1", DAY)]) as waited:
            told.append(waited)
            inside.set()
            leave.wait(2)

    holder = threading.Thread(target=first)
    holder.start()
    assert inside.wait(2)
    with admission.write("v", [("A2", DAY)]) as waited:
        told.append(waited)  # another part-day: no wait
    both = [("A2", DAY), ("A1", DAY)]
    late = threading.Thread(target=lambda: told.append(_turn(admission, both)))
    late.start()
    time.sleep(0.05)  # queued on A1
    leave.set()
    for t in (holder, late):
        t.join()
    with Admission(queue=False).write("v", [("A1", DAY)]) as waited:
        told.append(waited)
    assert told == [False, False, True, False]


def _turn(admission: Admission, keys: list) -> bool:
    with admission.write("v", keys) as waited:
        return bool(waited)
