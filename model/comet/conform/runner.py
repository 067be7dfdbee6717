"""The conformance run: hello, every vector, random and fault-planted deals and games for a time,
hostile texts; each answer compared with the model's, each disagreement shrunk."""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from comet.conform.cases import Case, hostile_cases, random_deal, random_game, replay_request, vector_cases
from comet.conform.client import Implementation
from comet.conform.compare import difference, model_answer, rule_of
from comet.conform.shrink import shrink_record
from comet.records.deal_record import JsonObject

#: The sources in the order they run.
SOURCES = ("vectors", "random", "hostile")
#: Disagreements shrunk and narrated in full (the rest are counted and listed by name).
MAX_SHRUNK = 5


@dataclass(frozen=True, slots=True)
class Finding:
    """A case the implementation got wrong: the first difference, the rule id the model names, and the
    shrunk record (None when the case is not a record) with both answers to it."""

    case: Case
    problem: str
    rule: str | None
    shrunk: JsonObject | None = None
    model: JsonObject | None = None
    answer: JsonObject | None = None
    shrunk_problem: str | None = None


@dataclass
class Report:
    """What a run found: per source the cases run and the findings, per rule id the cases that passed
    and failed (the coverage table), the implementation's hello."""

    hello: JsonObject | None = None
    games: bool = False
    run: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SOURCES, 0))
    findings: list[Finding] = field(default_factory=list)
    coverage: dict[str, list[int]] = field(default_factory=dict)  # rule id -> [passed, failed]
    passed: list[Case] = field(default_factory=list)
    seconds: float = 0.0
    fatal: str | None = None
    generator: str = ""  # which made the random cases: Hypothesis (with its version) or the stdlib's

    @property
    def ok(self) -> bool:
        return self.fatal is None and not self.findings


@dataclass(frozen=True, slots=True)
class Options:
    presets: tuple[str, ...]
    seconds: float
    seed: int
    vectors: Path
    timeout: float = 10.0
    hostile: bool = True
    vector_limit: int | None = None  # at most this many vectors (None: all)
    generator: str = "auto"  # "hypothesis", "stdlib", or "auto" (Hypothesis when it is installed)
    random_limit: int | None = None  # exactly this many random cases instead of ``seconds`` (tests)


#: The random cases' generators.
GENERATORS = ("auto", "hypothesis", "stdlib")


def use_hypothesis(choice: str) -> bool:
    """Whether the random cases come from Hypothesis: ``auto`` when it is installed; ``hypothesis`` asks
    for it (ValueError without it); ``stdlib`` never."""
    from comet.conform import explore

    if choice not in GENERATORS:
        raise ValueError(f"unknown generator {choice!r}; known: {', '.join(GENERATORS)}")
    if choice == "stdlib":
        return False
    if not explore.available():
        if choice == "hypothesis":
            raise ValueError("Hypothesis is not installed (pip install hypothesis), or use --generator stdlib")
        return False
    return True


def supports_games(hello: JsonObject) -> bool:
    """Games are tested when the implementation's hello says so (``games: true`` or ``game_new`` in
    ``ops``)."""
    ops = hello.get("ops")
    return hello.get("games") is True or (isinstance(ops, list) and "game_new" in ops)


def run(impl: Implementation, options: Options, progress: Callable[[str, int], None] | None = None) -> Report:
    """Run the whole suite against ``impl``; ``progress(source, done)`` after every case."""
    report = Report()
    began = time.monotonic()
    answer = impl.ask({"id": 0, "op": "hello"})
    resp = answer.response
    if resp is None or resp.get("ok") is not True or not isinstance(resp.get("result"), dict):
        report.fatal = f"hello failed: {answer.problem or 'not ok'} {answer.detail or json.dumps(resp)[:200]}"
        return report
    hello = resp["result"]
    assert isinstance(hello, dict)
    report.hello, report.games = hello, supports_games(hello)
    presets = set(options.presets)
    hypothesis = use_hypothesis(options.generator)
    for source, cases in _sources(report, options, presets):
        if source == "random" and hypothesis:
            _hypothesis_random(impl, options, report, progress)
            continue
        for case in cases:
            _one(impl, case, report)
            report.run[source] += 1
            if progress is not None:
                progress(source, report.run[source])
    if not hypothesis:
        report.generator = "the standard library's random (seeded), shrunk by comet.conform.shrink"
    report.seconds = time.monotonic() - began
    return report


def _sources(report: Report, options: Options, presets: set[str]) -> Iterator[tuple[str, Iterator[Case]]]:
    vectors = vector_cases(options.vectors, presets, report.games)
    yield "vectors", vectors if options.vector_limit is None else itertools.islice(vectors, options.vector_limit)
    yield "random", _random_cases(options, sorted(presets), report.games)
    if options.hostile:
        base = _a_record(options.vectors)
        yield "hostile", hostile_cases(base) if base is not None else iter(())


def _random_cases(options: Options, presets: list[str], games: bool) -> Iterator[Case]:
    """Random cases for ``options.seconds`` from the first (at least one), deterministic in ``seed``."""
    rng = random.Random(options.seed)
    i = 0
    began = time.monotonic()
    while (
        i < options.random_limit
        if options.random_limit is not None
        else (time.monotonic() - began < options.seconds or i == 0)
    ):
        name = presets[i % len(presets)]
        yield random_game(rng, name, i) if games and i % 4 == 3 else random_deal(rng, name, i)
        i += 1


def _hypothesis_random(
    impl: Implementation, options: Options, report: Report, progress: Callable[[str, int], None] | None
) -> None:
    """The random cases from Hypothesis (``explore``): each generated case counted like any other, each
    disagreement shrunk by Hypothesis and then by ``shrink_record``."""
    from comet.conform import explore

    report.generator = f"Hypothesis {explore.version()} (generation and shrinking, then comet.conform.shrink)"

    last: list[JsonObject] = []  # the model's answer to the case just checked (seen() follows check())

    def check(case: Case) -> str | None:
        last[:] = [model_answer(case.request)]
        return difference(last[0], impl.ask(case.request))

    def seen(case: Case, problem: str | None) -> None:
        _count(case, last[0], problem, report)
        if problem is None:
            report.passed.append(case)
        report.run["random"] += 1
        if progress is not None:
            progress("random", report.run["random"])

    def shrink() -> bool:
        return sum(1 for f in report.findings if f.shrunk is not None) < MAX_SHRUNK

    for found in explore.explore(
        sorted(options.presets), report.games, options.seconds, options.seed, check, seen, shrink, options.random_limit
    ):
        model = model_answer(found.first.request)
        finding = Finding(found.first, found.problem, rule_of(model, found.problem))
        small = found.shrunk
        if small.record is not None and shrink():
            finding = _shrunk(impl, Finding(small, found.problem, finding.rule), small.request["op"])
            finding = Finding(found.first, found.problem, finding.rule, *_tail(finding))
        report.findings.append(finding)


def _tail(f: Finding) -> tuple[JsonObject | None, JsonObject | None, JsonObject | None, str | None]:
    return f.shrunk, f.model, f.answer, f.shrunk_problem


def _count(case: Case, model: JsonObject, problem: str | None, report: Report) -> None:
    """The case in the coverage table: its own rule ids and the rule the model's answer names."""
    rules = set(case.rules)
    rid = rule_of(model, problem or "")
    if rid is not None:
        rules.add(rid)
    for r in rules:
        report.coverage.setdefault(r, [0, 0])[0 if problem is None else 1] += 1


def _a_record(root: Path) -> JsonObject | None:
    for path in sorted((root / "standard" / "default" / "replay").glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8")).get("record")
        if isinstance(record, dict):
            return record
    return None


def _one(impl: Implementation, case: Case, report: Report) -> None:
    model = model_answer(case.request)
    problem = difference(model, impl.ask(case.request))
    _count(case, model, problem, report)
    rid = rule_of(model, problem or "")
    if problem is None:
        report.passed.append(case)
        return
    finding = Finding(case, problem, rid)
    if case.record is not None and len(report.findings) < MAX_SHRUNK:
        finding = _shrunk(impl, finding, case.request["op"])
    report.findings.append(finding)


def _shrunk(impl: Implementation, finding: Finding, op: object) -> Finding:
    """The finding with its record shrunk (the smallest that still disagrees) and both answers to it."""
    op_name = op if isinstance(op, str) else "replay"
    record = finding.case.record
    assert record is not None

    def disagrees(candidate: JsonObject) -> bool:
        req = replay_request(candidate, op=op_name)
        return difference(model_answer(req), impl.ask(req)) is not None

    small = shrink_record(record, disagrees)
    req = replay_request(small, op=op_name)
    model = model_answer(req)
    answer = impl.ask(req)
    return Finding(
        finding.case,
        finding.problem,
        rule_of(model, difference(model, answer) or "") or finding.rule,
        small,
        model,
        answer.response,
        difference(model, answer),
    )
