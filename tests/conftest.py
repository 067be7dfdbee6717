"""Hypothesis profiles: ``ci`` (quick, the default) and ``long`` (overnight-style search).

Select with the environment variable ``HYPOTHESIS_PROFILE=long``.  Tests that want to scale
their own budgets with the profile use ``strategies.budget``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from once import built_once

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "long",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """``COMET_CORE_ONLY=1``: the core's tests alone, for a bare install (.ci/run's bare step): a test module
    that needs an optional extra (``extras_needed``, from its imports) is not collected."""
    if os.environ.get("COMET_CORE_ONLY") and collection_path.name.startswith("test_") and collection_path.suffix == ".py":
        from extras_needed import extras_needed

        return bool(extras_needed(collection_path)) or None
    return None


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rulebook site (``comet site``), built once per test run (``built_once``) for test_site*.py."""
    from comet.site.build import build

    root = Path(__file__).resolve().parent.parent
    return built_once(tmp_path_factory, "site", lambda d: build(root, d / "out")) / "out"
