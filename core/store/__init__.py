"""The engine's store: tables and queries on PostgreSQL (SQLAlchemy Core, psycopg 3)."""
