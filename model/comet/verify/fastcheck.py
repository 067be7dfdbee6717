"""The fast engines (``comet.fast``, compiled by Numba) against the reference on a few seeds per preset and
player count (``comet verify``'s fast-engine table): each seed's deal played by the fast engine under
random legal play and replayed action for action by ``comet.engine`` (``comet.fast.check``: the same
cards, legal-action counts, choices and outcome).

A unit checks the presets of one compiled kernel (``kernel.py`` plays the standard transition system,
each ``fast/games/<variant>.py`` its own game), so that with a cold Numba cache each kernel is compiled by
one worker, not by both.  Without numba or numpy (the ``[fast]`` extra) each row says so and nothing fails."""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from comet.engine import player_counts
from comet.presets import preset as preset_named

#: Seeds per preset and player count (deals ``seed .. seed + FAST_SEEDS - 1`` of the campaign's seed).
FAST_SEEDS = 5
#: What the fast engine needs beyond the standard library and the core.
FAST_NEEDS = ("numpy", "numba")


@dataclass(frozen=True, slots=True)
class FastResult:
    """One preset: the player counts and deals checked, every disagreement in words; ``skipped`` says why
    nothing was checked (the fast engine not installed, or not playing these rules)."""

    preset: str
    players: tuple[int, ...]
    deals: int
    mismatches: tuple[str, ...]
    seconds: float
    skipped: str = ""

    @property
    def ok(self) -> bool:
        return not self.mismatches


def missing_fast() -> str | None:
    """Why the fast engine cannot run here (None: it can)."""
    absent = [name for name in FAST_NEEDS if importlib.util.find_spec(name) is None]
    if absent:
        return f"{' and '.join(absent)} not installed (the [fast] extra: pip install 'comet-rules[fast]')"
    return None


def kernel_of(preset: str) -> str:
    """The fast module that plays ``preset``: its variant's ``fast/games/<variant>.py``, else ``kernel``
    (found by file, without importing the fast engine, which would load Numba in this process)."""
    variant = preset_named(preset).rules.variant
    spec = importlib.util.find_spec("comet.fast")
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    if any((Path(folder) / "games" / f"{variant}.py").is_file() for folder in locations):
        return variant
    return "kernel"


def kernel_groups(names: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """``names`` grouped by the kernel that plays them, in the order of their first preset."""
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(kernel_of(name), []).append(name)
    return [(kernel, tuple(members)) for kernel, members in groups.items()]


def check_presets(
    presets: Sequence[str], seed: int = 0, seeds: int = FAST_SEEDS, _mutant: int = 0
) -> tuple[FastResult, ...]:
    """``seeds`` deals of each preset at each of its player counts, fast engine against the reference
    (``_mutant``: a bug planted in the compiled kernel, for tests: ``comet.fast.config.H_MUTANT``)."""
    missing = missing_fast()
    if missing is not None:
        return tuple(FastResult(name, (), 0, (), 0.0, missing) for name in presets)
    from comet.fast.api import unsupported_reason
    from comet.fast.check import check_deals

    out: list[FastResult] = []
    for name in presets:
        started = time.perf_counter()
        rules = preset_named(name).rules
        why = unsupported_reason(rules)
        if why is not None:
            out.append(FastResult(name, (), 0, (), 0.0, why))
            continue
        counts = player_counts(rules)
        mismatches = [
            str(m)
            for n in counts
            for m in check_deals(rules, n, list(range(seed, seed + seeds)), "random", _mutant=_mutant)
        ]
        out.append(FastResult(name, counts, seeds * len(counts), tuple(mismatches), time.perf_counter() - started))
    return tuple(out)
