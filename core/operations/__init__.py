"""Operations: each runs inside one unit of work, given a connection, a venue and ``now``."""
