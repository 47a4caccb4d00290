"""Dramatiq on Redis: sweep, outbox delivery, reminders, weekly digest, and the clock."""
