"""A fingerprint of the tables' contents: equal before and after means nothing was written."""

from __future__ import annotations

import sqlalchemy as sa

_TABLES = sa.text(
    "SELECT t.tablename, EXISTS (SELECT 1 FROM information_schema.columns c"
    "  WHERE c.table_schema = t.schemaname AND c.table_name = t.tablename"
    "  AND c.column_name = 'venue_id')"
    " FROM pg_tables t WHERE t.schemaname = current_schema() ORDER BY t.tablename"
)
_DIGEST = (
    "SELECT '{0}', md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM \"{0}\" t"
)


def tables(engine: sa.Engine, venue_id: str | None = None) -> dict[str, str]:
    """table name -> md5 of its rows (as text, sorted), only the venue's rows where a table
    has a ``venue_id`` (every table of the ledger does); one round trip."""
    with engine.connect() as conn:
        names = conn.execute(_TABLES).all()  # from the catalog, not from input
        parts = [
            _DIGEST.format(name) + (" WHERE t.venue_id = :venue" if scoped and venue_id else "")
            for name, scoped in names
        ]
        rows = conn.execute(sa.text(" UNION ALL ".join(parts)), {"venue": venue_id}).all()
    return {str(name): str(digest) for name, digest in rows}
