"""The engine by role (``core.engine.HoldEngine`` builds them on one database): writes of
holds and their dry runs, reads, venues, and delivery's bookkeeping."""
