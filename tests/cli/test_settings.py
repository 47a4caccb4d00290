"""Settings: every variable read in one place, each described in app.json, knobs checked."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from cli.settings import VARIABLES, SettingError, Settings

ROOT = Path(__file__).resolve().parents[2]


def test_app_json_describes_every_variable_osae_reads() -> None:
    described = json.loads((ROOT / "app.json").read_text())["env"]
    assert sorted(set(VARIABLES) - set(described)) == []
    assert all(entry["description"] for entry in described.values())


def test_every_variable_listed_is_read() -> None:
    """Each name in VARIABLES changes what Settings.from_env gives (none is listed idly)."""
    values = {name: "7" for name in VARIABLES} | {
        "OSAE_VENUES": "T1=a",
        "OSAE_CONSOLE_LANGS": "U1=en",
        "OSAE_PG_BINARIES": "wheel",
    }
    unset = Settings.from_env({})
    for name in VARIABLES:
        assert Settings.from_env({name: values[name]}) != unset, name


def test_defaults_and_knobs() -> None:
    settings = Settings.from_env({"OSAE_OUTBOX_LEASE_SECONDS": "90", "LANG": "en_US.UTF-8"})
    assert settings.tuning.lease == timedelta(seconds=90)
    assert (settings.language, settings.report_locale) == ("en_US.UTF-8", "ja")
    assert (settings.port, settings.data_dir, settings.log_format) == (3000, Path(".data"), None)
    assert Settings.from_env({"OSAE_LANG": "en"}).report_locale == "en"
    for bad in ({"PORT": "web"}, {"OSAE_SWEEP_EVERY_MINUTES": "1.5"}):
        with pytest.raises(SettingError):
            Settings.from_env(bad)
