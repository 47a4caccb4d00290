"""Fixtures: a real PostgreSQL (the machine's, or a throwaway one), migrated once per run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from core.db import create_engine
from core.engine import HoldEngine
from core.model import Venue
from tests.support import databases, factories
from tests.support.engines import EngineForTests


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    url, discard = databases.server_url()
    yield url
    discard()


@pytest.fixture(scope="session")
def template_db(pg_server: str) -> Iterator[str]:
    name = databases.migrated_template(pg_server)
    yield name
    databases.drop_database(pg_server, name)


@pytest.fixture(scope="session")
def db_url(pg_server: str, template_db: str) -> Iterator[str]:
    name = databases.create_database(pg_server, template=template_db)
    yield databases.with_database(pg_server, name)
    databases.drop_database(pg_server, name)


@pytest.fixture(scope="session")
def sa_engine(db_url: str) -> Iterator[sa.Engine]:
    engine = create_engine(db_url, pool_size=12)
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def engine(sa_engine: sa.Engine) -> HoldEngine:
    """No per-process writer cap: races in tests must reach the database to be tested there."""
    return EngineForTests(sa_engine, queue=False)


@pytest.fixture
def venue(engine: HoldEngine) -> Venue:
    """A new venue of its own for each test: tests never see each other's holds."""
    return engine.save_venue(factories.venue(), now=factories.NOW)


@pytest.fixture
def fresh_db(pg_server: str, template_db: str) -> Iterator[str]:
    """An empty, migrated database for tests that need empty tables."""
    name = databases.create_database(pg_server, template=template_db)
    yield databases.with_database(pg_server, name)
    databases.drop_database(pg_server, name)
