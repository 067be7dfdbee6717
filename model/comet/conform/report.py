"""The run's report: a summary per source, each shrunk disagreement narrated with both answers and the
rule id, a coverage table by rule id, and JUnit XML for CI."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

from comet.conform.compare import model_answer
from comet.conform.runner import SOURCES, Report
from comet.records.deal_record import JsonObject


def narration(record: JsonObject) -> list[str]:
    """The model's narration of a record (``comet replay --explain``)."""
    resp = model_answer({"op": "explain", "record_text": json.dumps(record)})
    result = resp.get("result")
    lines = result.get("lines") if isinstance(result, dict) else None
    return [str(line) for line in lines] if isinstance(lines, list) else []


def text_report(report: Report, coverage: bool = True) -> str:
    """The report for a person."""
    if report.fatal is not None:
        return f"comet conform: {report.fatal}\n"
    out = []
    total = sum(report.run.values())
    wrong = len(report.findings)
    games = "deal and game records" if report.games else "deal records only (hello lists no game ops)"
    out.append(f"comet conform: {total} cases in {report.seconds:.1f} s, {wrong} disagreements; {games}")
    if report.generator:
        out.append(f"  random cases: {report.generator}")
    for source in SOURCES:
        bad = sum(1 for f in report.findings if f.case.source == source)
        out.append(f"  {source:8} {report.run[source]:6} cases  {bad:5} disagree")
    problems: dict[str, int] = {}
    for f in report.findings:
        kind = f.problem.split(":", 1)[0] if f.problem.startswith(("timeout", "crash", "garbled")) else None
        if kind:
            problems[kind] = problems.get(kind, 0) + 1
    for kind, n in sorted(problems.items()):
        out.append(f"  {kind}: {n} (reported as disagreements; the implementation was restarted)")
    for f in report.findings:
        out.append("")
        out.append(f"DISAGREE {f.case.name} ({f.rule or 'no rule id'}): {f.problem}")
        if f.shrunk is not None:
            actions = f.shrunk.get("actions")
            deals = f.shrunk.get("deals")
            size = (
                f"{len(actions)} actions"
                if isinstance(actions, list)
                else f"{len(deals) if isinstance(deals, list) else 0} deals"
            )
            out.append(f"  shrunk to {size}: {f.shrunk_problem or 'no longer disagrees'}")
            out.append("  record: " + json.dumps(f.shrunk, separators=(",", ":")))
            out.extend("    " + line for line in narration(f.shrunk))
            out.append("  model:          " + json.dumps(f.model, separators=(",", ":"))[:600])
            out.append("  implementation: " + json.dumps(f.answer, separators=(",", ":"))[:600])
        else:
            out.append("  request: " + json.dumps(f.case.request)[:300])
    if coverage:
        out.append("")
        out.append("| rule id | agree | disagree |")
        out.append("|---|---|---|")
        for rid in sorted(report.coverage):
            ok, bad = report.coverage[rid]
            out.append(f"| {rid} | {ok} | {bad} |")
    return "\n".join(out) + "\n"


def junit_xml(report: Report) -> str:
    """JUnit XML: one test suite per source; every failing case a test case with its failure, the
    passing cases of a source one test case each."""
    suites = ET.Element("testsuites", name="comet conform")
    for source in SOURCES:
        failing = [f for f in report.findings if f.case.source == source]
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=source,
            tests=str(report.run[source]),
            failures=str(len(failing)),
            time=f"{report.seconds:.3f}",
        )
        for f in failing:
            case = ET.SubElement(suite, "testcase", classname=f"conform.{source}", name=f.case.name)
            failure = ET.SubElement(case, "failure", message=f.problem[:500], type=f.rule or "disagreement")
            failure.text = json.dumps(f.shrunk if f.shrunk is not None else f.case.request)[:5000]
        for c in report.passed:
            if c.source == source:
                ET.SubElement(suite, "testcase", classname=f"conform.{source}", name=c.name)
    if report.fatal is not None:
        suite = ET.SubElement(suites, "testsuite", name="hello", tests="1", failures="1")
        case = ET.SubElement(suite, "testcase", classname="conform.hello", name="hello")
        ET.SubElement(case, "failure", message=report.fatal)
    return ET.tostring(suites, encoding="unicode") + "\n"
