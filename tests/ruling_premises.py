"""Rulings that argue from the same premise must not reach opposite answers (issue 20).

A ruling may state the premise its default rests on in one or more lines

    **Premise.** PREMISE => QUESTION = yes|no (`field = VALUE`)

``PREMISE`` and ``QUESTION`` are short kebab-case names shared between rulings (for example
``nothing-to-replace => wild-may-lead = yes``); ``field = VALUE`` is the ruling's own default reading, the
one the premise argues for.  The checks (each returns one readable line per problem):

- a line that starts ``**Premise.**`` but does not have this form;
- the named reading is not one of the ruling's readings, or not its default (a changed default must
  restate its premise);
- two rulings name the same premise and question with opposite answers: the pair of RUL-COMET-LEAD and
  RUL-COMMIT-C-COMET found in issue 20.  Rulings whose sources really differ say so by naming different
  premises.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from spec_checks import Section

PREMISE = re.compile(
    r"^\*\*Premise\.\*\* ([a-z0-9]+(?:-[a-z0-9]+)*) => ([a-z0-9]+(?:-[a-z0-9]+)*) = (yes|no) "
    r"\(`([A-Za-z_][A-Za-z0-9_]*) = ([^`]+)`\)$"
)
PREMISE_LIKE = "**Premise.**"


def premises(s: Section) -> tuple[tuple[str, str, str, str, str], ...]:
    """(premise, question, answer, field, raw value) for each well-formed premise line of ``s``."""
    out = []
    for t in s.body:
        m = PREMISE.match(t.strip())
        if m:
            out.append((m.group(1), m.group(2), m.group(3), m.group(4), m.group(5).strip()))
    return tuple(out)


def check_premises(sections: Sequence[Section]) -> list[str]:
    problems: list[str] = []
    seen: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for s in sections:
        if s.kind != "ruling":
            continue
        for t in s.body:
            if t.strip().startswith(PREMISE_LIKE) and not PREMISE.match(t.strip()):
                problems.append(
                    f"{s.file}:{s.line}: {s.id}: malformed premise (want **Premise.** premise => question = yes|no "
                    f"(`field = VALUE`)): {t.strip()}"
                )
        defaults = {(r.field, _value(r.raw)) for r in s.readings if r.default}
        readings = {(r.field, _value(r.raw)) for r in s.readings}
        for premise, question, answer, field, raw in premises(s):
            key = (field, _value(raw))
            if key not in readings:
                problems.append(
                    f"{s.file}:{s.line}: {s.id}: premise {premise} argues for `{field} = {raw}`, not a reading of it"
                )
            elif key not in defaults:
                problems.append(
                    f"{s.file}:{s.line}: {s.id}: premise {premise} argues for `{field} = {raw}`, which is not its default"
                )
            seen.setdefault((premise, question), []).append((s.id, answer))
    for (premise, question), said in sorted(seen.items()):
        if len({a for _, a in said}) > 1:
            both = ", ".join(f"{rid} says {a}" for rid, a in said)
            problems.append(f"premise {premise} leads to opposite answers to {question}: {both}")
    return problems


def _value(raw: str) -> object:
    try:
        return json.dumps(json.loads(raw))
    except json.JSONDecodeError:
        return raw
