"""``comet verify --json FILE``: the machine-readable summary, one object per preset (proofs, refinement check,
starting points, fuzz, shipped vectors, fast engine), the units that failed, the verdict and wall time."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from comet.verify.results import Verified


def summary_json(found: Verified, wall: float, ok: bool) -> dict[str, Any]:
    fuzz_rows = {p.preset: p for p in found.report.presets} if found.report is not None else {}
    out: list[dict[str, Any]] = []
    for name in found.names:
        obj: dict[str, Any] = {"preset": name}
        pr = found.proofs.get(name)
        if pr is not None:
            obj["proofs"] = {
                "proved": pr.proved,
                "total": pr.total,
                "solver_seconds": round(pr.seconds, 2),
                "second_solver": {
                    "agrees": pr.agrees,
                    "no_answer": pr.no_answer,
                    "disagrees": pr.disagrees,
                    "no_answer_reasons": list(pr.unanswered),
                },
                "problems": list(pr.problems),
            }
        rf = found.refined.get(name)
        if rf is not None:
            obj["refine"] = {
                "classes": len(rf.classes),
                "classes_covered": rf.covered,
                "witnesses": rf.witnesses,
                "random_states": rf.random_states,
                "certified_witnesses": rf.certified,
                "certificate_notes": list(rf.certificate_notes),
                "seconds": round(rf.seconds, 2),
                "ok": rf.ok,
                "failures": rf.failures(),
            }
        dr = found.dealt.get(name)
        if dr is not None:
            obj["starting_points"] = {
                "fresh_deals": dr.deals,
                "readings_of_init": dr.combinations,
                "scripted_games": dr.games,
                "seconds": round(dr.seconds, 2),
                "problems": list(dr.problems),
            }
        fz = fuzz_rows.get(name)
        if fz is not None:
            obj["fuzz"] = {
                "deals": fz.deals,
                "games": fz.games,
                "steps": fz.steps,
                "distinct_states": fz.distinct_states,
                "failures": list(fz.failures),
            }
        vr = found.vectors.get(name)
        if vr is not None:
            obj["vectors"] = {
                "deal_records": vr.deals,
                "game_records": vr.games,
                "malformed": vr.malformed,
                "seconds": round(vr.seconds, 2),
                "missing": vr.missing,
                "failures": list(vr.failures),
            }
        fr = found.fast.get(name)
        if fr is not None:
            obj["fast"] = {
                "players": list(fr.players),
                "deals": fr.deals,
                "seconds": round(fr.seconds, 2),
                "skipped": fr.skipped,
                "mismatches": list(fr.mismatches),
            }
        out.append(obj)
    return {
        "ok": ok,
        "wall_seconds": round(wall, 1),
        "presets": out,
        "failed_units": [asdict(f) for f in found.failures],
    }
