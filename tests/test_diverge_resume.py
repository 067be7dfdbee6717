"""``comet diverge --out DIR`` is resumable and incremental (issue 17, every preset at scale): each pair's
figures are saved in DIR/results as it finishes, a second run with the same parameters measures nothing
again and writes the same report, an interrupted run loses only the pair in flight, and any parameter that
changes the figures (or the rules of either side) measures afresh.  Cites R-DEAL (the deals measured)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import comet.commands.diverge_measure as cmd
import pytest
from comet.cli import main
from comet.diverge.pairs import pairs_for
from comet.diverge.results import (
    FORMAT,
    Entry,
    entries_of,
    load_entries,
    merged,
    rules_digest,
    save_entries,
    split,
    unit_path,
)
from comet.diverge.study import Job, Measured, run_job
from comet.presets import preset
from comet.records.deal_record import JsonObject, JsonValue
from comet.ruleset import Ruleset, field_readings

ARGV = ["diverge", "comet_lead", "--preset", "two_player", "--deals", "30", "--games", "0", "--policies", "random"]


def report(out: Path) -> str:
    """The report's pages (the index first, then the others by name) without the time it was written."""
    pages = [out / "README.md", *sorted(p for p in out.glob("*.md") if p.name != "README.md")]
    return re.sub(r" on \d{4}-\d\d-\d\d \d\d:\d\d UTC", "", "\n".join(p.read_text() for p in pages))


def counting(monkeypatch: pytest.MonkeyPatch, fail_after: int | None = None) -> list[Job]:
    """Replace the command's ``run_job`` by one that records the jobs it runs (and, after ``fail_after``
    jobs, is interrupted as by Ctrl-C)."""
    ran: list[Job] = []

    def run(job: Job) -> list[tuple[int, Measured]]:
        if fail_after is not None and len(ran) >= fail_after:
            raise KeyboardInterrupt
        ran.append(job)
        return run_job(job)

    monkeypatch.setattr(cmd, "run_job", run)
    return ran


def test_second_run_measures_nothing_and_writes_the_same_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "rep"
    ran = counting(monkeypatch)
    assert main([*ARGV, "--out", str(out)]) == 0
    first = report(out)
    units = len(ran)
    assert units == len(pairs_for("comet_lead", ["two_player"])) == len(list((out / "results").glob("*.json")))
    assert main([*ARGV, "--out", str(out)]) == 0
    assert len(ran) == units  # nothing measured again
    assert report(out) == first
    # --fresh measures everything again, with the same figures
    assert main([*ARGV, "--out", str(out), "--fresh"]) == 0
    assert len(ran) == 2 * units and report(out) == first


def test_an_interrupted_run_resumes_to_the_uninterrupted_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = tmp_path / "whole"
    counting(monkeypatch)
    assert main([*ARGV, "--out", str(whole)]) == 0
    broken = tmp_path / "broken"
    ran = counting(monkeypatch, fail_after=1)
    assert main([*ARGV, "--out", str(broken)]) == 130  # interrupted after the first pair
    assert len(ran) == 1 and len(list((broken / "results").glob("*.json"))) == 1
    assert not (broken / "README.md").exists()
    ran = counting(monkeypatch)
    assert main([*ARGV, "--out", str(broken)]) == 0
    assert len(ran) == len(pairs_for("comet_lead", ["two_player"])) - 1  # only the pair not saved
    assert report(broken) == report(whole)


def test_a_changed_parameter_measures_afresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "rep"
    ran = counting(monkeypatch)
    assert main([*ARGV, "--out", str(out)]) == 0
    units = len(ran)
    argv = [x if x != "30" else "40" for x in ARGV]
    assert main([*argv, "--out", str(out)]) == 0
    assert len(ran) == 2 * units and "40 paired deals per player" in report(out)
    # an added policy is measured alone: the saved random figures are kept
    assert main([*argv[:-1], "random,greedy", "--out", str(out)]) == 0
    assert len(ran) == 3 * units and all(job.policies == ("greedy",) for job in ran[2 * units :])
    with_greedy = report(out)
    fresh = tmp_path / "fresh"
    assert main([*argv[:-1], "random,greedy", "--out", str(fresh)]) == 0
    assert report(fresh) == with_greedy


def saved_unit(tmp_path: Path) -> tuple[Job, Path, dict[str, Entry]]:
    pair = pairs_for("comet_lead", ["standard"])[0]
    job = Job(((0, pair),), 3, (10,), (0,), ("random", "greedy"), "auto", ((),))
    (_, m) = run_job(job)[0]
    path = unit_path(tmp_path, pair, 3)
    save_entries(path, entries_of(job, "fast", m))
    return job, path, load_entries(path)


def test_the_key_holds_every_parameter_and_the_rules_of_both_sides(tmp_path: Path) -> None:
    """A saved policy is read back only under its exact key: a planted change of any parameter, or of the
    rules of either side, is a miss (so a ruling whose readings change is measured again)."""
    job, path, entries = saved_unit(tmp_path)
    have, rest = split(job, "fast", entries)
    assert rest is None and merged(job, "fast", have) == run_job(job)[0][1]
    pair = job.pairs[0][1]
    other = pair.b.with_overrides({"new_run": "may"})
    assert rules_digest(other) != rules_digest(pair.b)
    changes: list[tuple[str, JsonValue]] = [
        ("deals", 11),
        ("games", 5),
        ("players", 4),
        ("policy", "hoarder"),
        ("engine", "reference"),
        ("rules_b", rules_digest(other)),
        ("format", FORMAT + 1),
    ]
    for name, value in changes:
        planted = {p: ({**key, name: value} if p == "greedy" else key, d, g) for p, (key, d, g) in entries.items()}
        have, rest = split(job, "fast", planted)
        assert rest is not None and rest.policies == ("greedy",) and list(have) == ["random"], name
    path.write_text("{ not json")
    assert load_entries(path) == {}


def test_files_of_the_first_version_are_read(tmp_path: Path) -> None:
    """A unit saved by the first version (one key for the whole unit) is split by policy and still used."""
    from comet.diverge.results import measured_json, policy_key

    job, path, _ = saved_unit(tmp_path)
    m = run_job(job)[0][1]
    pair = job.pairs[0][1]
    key = policy_key(pair, 3, "random", 10, 0, "fast")
    old: JsonObject = {
        "format": FORMAT,
        "pair": pair.key,
        "players": 3,
        "deals": 10,
        "games": 0,
        "policies": ["random", "greedy"],
        "extra": [],
        "engine": "fast",
        "rules_a": key["rules_a"],
        "rules_b": key["rules_b"],
    }
    path.write_text(json.dumps({"key": old, "measured": measured_json(m)}))
    have, rest = split(job, "fast", load_entries(path))
    assert rest is None and merged(job, "fast", have) == m


def test_the_digest_covers_exactly_the_fields_the_game_reads() -> None:
    """A ruling of another game cannot change this game's figures, so it must not invalidate its saved
    units (adding a ruling elsewhere would otherwise re-measure every pair); a field the game reads must."""
    from comet.variant import variant_of

    standard = preset("standard").rules
    read = set(variant_of(standard).reads)
    assert "new_run" in read
    assert rules_digest(standard.with_overrides({"new_run": "may"})) != rules_digest(standard)
    commit = preset("commit_cats").rules
    foreign = next(f for f in variant_of(commit).reads if f not in read)
    # the same digest whatever a field outside the family's declarations holds
    overrides: dict[str, Any] = {foreign: _other_reading(standard, foreign)}
    changed = dataclasses.replace(standard, **overrides)
    assert rules_digest(changed) == rules_digest(standard)


def _other_reading(rules: Ruleset, name: str) -> object:
    readings = field_readings(name)
    assert readings is not None
    return next(r for r in readings if r != getattr(rules, name))


def test_plots_are_drawn_again_only_when_their_figures_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rerun that measured nothing new draws no plot again; a deleted plot or changed figures are drawn."""
    import comet.diverge.impact_report as ir

    drawn: list[str] = []
    real = ir.plot_measured

    def counting_plot(title: str, m: Measured, unit: str, out: Path) -> None:
        drawn.append(out.name)
        real(title, m, unit, out)

    monkeypatch.setattr(ir, "plot_measured", counting_plot)
    out = tmp_path / "rep"
    assert main([*ARGV, "--out", str(out)]) == 0
    first = len(drawn)
    assert first > 0 and sorted(p.name for p in out.glob("*.png")) == sorted(drawn)
    assert main([*ARGV, "--out", str(out)]) == 0
    assert len(drawn) == first
    (out / drawn[0]).unlink()
    assert main([*ARGV, "--out", str(out)]) == 0
    assert drawn[first:] == [drawn[0]]
    argv = [x if x != "30" else "40" for x in ARGV]
    assert main([*argv, "--out", str(out)]) == 0
    assert len(drawn) == 2 * first + 1
