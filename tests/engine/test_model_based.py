"""Model-based property test: random operation sequences through the engine and the model.

The machine (``tests.support.machine``) compares every answer of the engine with the
model's and checks the stored ledger, the invariants and the rows beside the holds after
every step; this file runs it on sequences Hypothesis draws.
"""

from __future__ import annotations

import os

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from core.engine import HoldEngine
from tests.support.machine import bound

SETTINGS = settings(
    # ~40 s on an idle 2-core machine; OSAE_MODEL_EXAMPLES=1000 for a long hunt.
    max_examples=int(os.environ.get("OSAE_MODEL_EXAMPLES", "60")),
    stateful_step_count=30,
    deadline=None,
    database=None,  # no .hypothesis/ directory in the shared working tree
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.mark.slow
def test_engine_agrees_with_the_model(engine: HoldEngine, sa_engine: sa.Engine) -> None:
    run_state_machine_as_test(bound(engine, sa_engine), settings=SETTINGS)
