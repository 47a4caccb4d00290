"""The Dramatiq broker on Redis, built by an entry point from settings (never at import)."""

from __future__ import annotations

from typing import Any

import redis
from dramatiq.brokers.redis import RedisBroker
from dramatiq.middleware import AgeLimit, Retries, TimeLimit

# A job that runs longer than this is interrupted; the drain stops itself well before.
TIME_LIMIT_MS = 2 * 60_000
# Failed jobs are retried soon: they are periodic anyway, so a long backoff only delays.
MIN_BACKOFF_MS = 1_000
MAX_BACKOFF_MS = 60_000


def build_broker(url: str, *, namespace: str = "osae") -> RedisBroker:
    return RedisBroker(  # type: ignore[no-untyped-call] # dramatiq's broker has no annotations
        client=redis_client(url),
        namespace=namespace,
        middleware=[
            AgeLimit(),
            TimeLimit(time_limit=TIME_LIMIT_MS),
            Retries(max_retries=3, min_backoff=MIN_BACKOFF_MS, max_backoff=MAX_BACKOFF_MS),
        ],
    )


def redis_client(url: str) -> redis.Redis:
    """A client that gives up quickly: a web request that enqueues must not hang on Redis."""
    options: dict[str, Any] = {"socket_connect_timeout": 2, "socket_timeout": 5}
    if url.startswith("rediss://"):
        # Heroku Redis serves TLS with a self-signed certificate; its docs ask clients not to
        # verify it. The connection is still encrypted.
        options["ssl_cert_reqs"] = None
    return redis.Redis.from_url(url, **options)
