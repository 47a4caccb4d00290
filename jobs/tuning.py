"""Operator knobs of the job runtime, from the environment (defaults suit production).

They live here rather than in ``cli.settings`` because only the jobs read them; each one is
described in ``app.json``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta


@dataclass(frozen=True)
class Tuning:
    namespace: str = "osae"  # OSAE_QUEUE_NAMESPACE: prefix of every Redis key Dramatiq writes
    worker_threads: int = 4  # OSAE_WORKER_THREADS
    lease: timedelta = timedelta(seconds=60)  # OSAE_OUTBOX_LEASE_SECONDS
    slack_timeout: int = 10  # OSAE_SLACK_TIMEOUT_SECONDS: one Web API call, at most
    drain_every: float = 15.0  # OSAE_DRAIN_EVERY_SECONDS: the safety-net drain
    sweep_every_minutes: int = 1  # OSAE_SWEEP_EVERY_MINUTES
    reminders_every_minutes: int = 5  # OSAE_REMINDERS_EVERY_MINUTES
    venues_every_minutes: int = 5  # OSAE_VENUES_EVERY_MINUTES: the clock re-reads venues
    report_locale: str = "ja"  # OSAE_LANG: the language of reports to the sales channel

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Tuning:
        env = os.environ if env is None else env
        base = cls()
        return cls(
            namespace=env.get("OSAE_QUEUE_NAMESPACE") or base.namespace,
            worker_threads=_int(env, "OSAE_WORKER_THREADS", base.worker_threads),
            lease=timedelta(
                seconds=_float(env, "OSAE_OUTBOX_LEASE_SECONDS", base.lease.total_seconds())
            ),
            slack_timeout=_int(env, "OSAE_SLACK_TIMEOUT_SECONDS", base.slack_timeout),
            drain_every=_float(env, "OSAE_DRAIN_EVERY_SECONDS", base.drain_every),
            sweep_every_minutes=_int(env, "OSAE_SWEEP_EVERY_MINUTES", base.sweep_every_minutes),
            reminders_every_minutes=_int(
                env, "OSAE_REMINDERS_EVERY_MINUTES", base.reminders_every_minutes
            ),
            venues_every_minutes=_int(env, "OSAE_VENUES_EVERY_MINUTES", base.venues_every_minutes),
            report_locale=env.get("OSAE_LANG") or base.report_locale,
        )


class TuningError(ValueError):
    """A knob set to something that is not a positive number."""


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise TuningError(f"{name}={raw!r} is not a number") from None
    if value <= 0:
        raise TuningError(f"{name}={raw!r} must be above 0")
    return value


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    value = _float(env, name, default)
    if value != int(value):
        raise TuningError(f"{name}={env.get(name)!r} must be a whole number")
    return int(value)
