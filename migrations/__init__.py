"""Alembic migrations of the osae schema (``versions/``), applied by ``cli.migrate``."""


class MigrationRefused(RuntimeError):
    """A migration that would lose data says so and changes nothing (its transaction ends)."""
