"""Pure rules of the hold engine: no I/O, no clock, no database."""
