"""Operations: what the engine does, each given a transaction (``tx.Tx``, ``tx.Snapshot``).

Most run inside one unit of work; the sweep runs several, through the runner it is given.
"""
