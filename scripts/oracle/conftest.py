"""Shared set-up of the oracle tests: the binary must exist before anything runs."""

import pytest

import oracle_lib


def pytest_sessionstart(session):
    path = oracle_lib.binary()
    if not path.is_file():
        raise pytest.UsageError(
            f"no lightsout binary at {path}: run `cargo build --release` or set LIGHTSOUT"
        )
