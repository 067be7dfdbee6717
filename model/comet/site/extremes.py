"""``extremes.html``, the extremes of Comet as facts a player can quote, each with its deal drawn and steppable.

The figures are the bounds table of spec/extremes.md (written by ``comet bounds --page`` from the proofs and
the replayed shipped deals, and checked against them by ``comet bounds --check``); nothing is typed here.
Each row's shipped deal (``comet_proofs/witnesses/``) is replayed by the model when the site is built: the
page's final chips and steps come from that replay (``comet.site.witness.side``, the rulings' stepper), and
a deal that no longer reaches the table's figure stops the build with the row named.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from comet.cards import card_text
from comet.engine import deal_points, returns
from comet.notation import seat_name
from comet.presets import preset
from comet.records.deal_record import JsonObject, parse_record, replay_record
from comet.site.core import Site
from comet.site.html import card, esc, json_script, page
from comet.site.markdown import github_slug
from comet.site.witness import side
from comet.variant import variant_of

REL = "extremes.html"
# One row of the table at the foot of spec/extremes.md (comet_proofs.bounds.page.row writes it).
ROW = re.compile(
    r"^\| (\w+) \| (\d+) \| ([^|]+?) \| (-|\d+) \| (none|\d+) \| (exact|gap|no bound) \| (?:\[([^\]]+)\]\([^)]*\))? *\|"
)
GAPS = "## Where a gap remains, and why"


@dataclass(frozen=True)
class Row:
    """One row of the bounds table as spec/extremes.md states it."""

    preset: str
    players: int
    quantity: str
    upper: int | None
    reached: int | None
    status: str
    file: str


@dataclass(frozen=True)
class Shown:
    """A row with its deal replayed by the model: the figure the deal reaches and each seat's final score."""

    row: Row
    value: int
    final: tuple[int, ...]  # chips won or lost in the deal (points in a points game), seat by seat
    unit_final: str  # "chips" or "points"
    hands: tuple[tuple[str, ...], ...]  # the deal, seat by seat (card texts)
    dead: tuple[str, ...]
    wild: frozenset[str]
    wild_name: str
    actions: tuple[str, ...]  # the record's actions
    stepper: JsonObject  # the rulings' stepper data (one side: the deal under the preset's readings)


def read_rows(text: str) -> list[Row]:
    """The rows of the page's table, in its order."""
    out = []
    for line in text.splitlines():
        m = ROW.match(line)
        if m is None:
            continue
        p, n, q, upper, reached, status, file = m.groups()
        out.append(
            Row(
                p,
                int(n),
                q,
                None if upper == "-" else int(upper),
                None if reached == "none" else int(reached),
                status,
                file or "",
            )
        )
    return out


def gaps_text(text: str) -> str:
    """The page's section on the gaps (its Markdown, without the heading; empty if there is none)."""
    at = text.find(GAPS)
    if at < 0:
        return ""
    rest = text[at + len(GAPS) :]
    end = rest.find("\n## ")
    return rest if end < 0 else rest[:end]


def replayed(row: Row, witnesses: Path) -> Shown:
    """``row``'s deal replayed by the model; ValueError if it does not reach the table's figure."""
    from comet_proofs.bounds.quantities import quantities

    where = f"spec/extremes.md, {row.preset} {row.players}p {row.quantity}"
    path = witnesses / row.file
    if not path.is_file():
        raise ValueError(f"{where}: its deal {row.file} is not shipped")
    record = json.loads(path.read_text(encoding="utf-8"))["#meta"]["record"]
    verdict = replay_record(parse_record(record))
    final = verdict.final
    if not verdict.legal or not final.terminal:
        raise ValueError(f"{where}: the model does not play {row.file} to its end")
    value = quantities(final, len(verdict.record.actions)).get(row.quantity)
    if value is None or value != row.reached:
        raise ValueError(f"{where}: the table says its deal reaches {row.reached}, the model's replay gives {value}")
    points = variant_of(final.rules).scoring != "chips"
    scores = deal_points(final) if points else returns(final)
    start = verdict.start
    stepper: JsonObject = {
        "sides": [side(record)],
        "diff_step": -1,
        "detail": "",
        "labels": ["The deal, played by the model"],
        "wild_name": preset(row.preset).variant.wild_name,
    }
    return Shown(
        row,
        value,
        tuple(scores),
        "points" if points else "chips",
        tuple(tuple(card_text(c) for c in h) for h in start.hands),
        tuple(card_text(c) for c in start.dead),
        frozenset(card_text(c) for c in start.wild),
        preset(row.preset).variant.wild_name,
        tuple(verdict.record.action_texts),
        stepper,
    )


def _game(row: Row) -> str:
    from comet_proofs.bounds.page import NAMES

    return f"{row.players}-player {NAMES.get(row.preset, row.preset)}"


def fact(row: Row, deal: str = "") -> str:
    """The row in plain words (HTML), its figure marked ``data-figure``; ``deal``: the link to its deal."""
    from comet_proofs.bounds.page import SAYS

    what, unit = SAYS[row.quantity]
    this = f'<a href="{esc(deal)}">this deal</a>' if deal else "this deal"
    if row.status == "exact":
        return (
            f'In {esc(_game(row))}, {esc(what)} is <strong class="figure" data-figure="{row.upper}">'
            f"{row.upper} {esc(unit)}</strong>: proved, and {this} does it."
        )
    known = "no deal is shipped yet" if row.reached is None else f"the best deal known reaches {row.reached} ({this})"
    if row.upper is None:
        return f"In {esc(_game(row))}, {esc(what)} has no proved bound; {known}."
    gap = "" if row.reached is None else f", a gap of {row.upper - row.reached}"
    return f"In {esc(_game(row))}, {esc(what)} is at most {row.upper} {esc(unit)} (proved); {known}{gap}."


def heading(row: Row) -> str:
    """The quantity as a heading: "The most one player can lose in a whole deal (play and settlement)"."""
    from comet_proofs.bounds.page import SAYS

    what = SAYS[row.quantity][0]
    return what[:1].upper() + what[1:]


def anchor(row: Row) -> str:
    return github_slug(f"{row.preset}-{row.players}p-{row.quantity}")


def shown_html(s: Shown, n: int) -> str:
    """One fact: the sentence, the deal's final score seat by seat, and the deal drawn and steppable."""
    wid = f"x{n}"
    drawn = "".join(
        f'<li><span class="seat">{esc(seat_name(i))}</span> <span class="hand">'
        f"{''.join(card(c, s.wild, s.wild_name) for c in h)}</span></li>"
        for i, h in enumerate(s.hands)
    )
    if s.dead:
        drawn += (
            '<li><span class="seat">dead hand</span> <span class="hand">'
            f"{''.join(card(c, s.wild, s.wild_name) for c in s.dead)}</span></li>"
        )
    items = "".join(f"<li>{esc(t)}</li>" for t in s.actions) or "<li>(no action)</li>"
    scores = ", ".join(f"{seat_name(i)} {v:+d}" for i, v in enumerate(s.final))
    return f"""<section class="extreme" id="{anchor(s.row)}" data-file="{esc(s.row.file)}">
<h3>{esc(heading(s.row))}</h3>
<p class="fact">{fact(s.row)}</p>
<p class="final" data-final="{esc(json.dumps(list(s.final)))}" data-value="{s.value}">This deal ({len(s.actions)}
actions) reaches {s.value}; at its end, in {s.unit_final}: {esc(scores)}.</p>
<details class="witness"><summary>The deal, step by step</summary>
<div class="stepper" id="{wid}" data-data="{wid}-data">
<div class="static"><p>The deal ({len(s.hands)} players):</p><ul class="hands">{drawn}</ul>
<p>The actions:</p><ol class="actions">{items}</ol></div>
<div class="controls" role="group" aria-label="Step through the deal">
<button type="button" data-go="first">First</button>
<button type="button" data-go="prev">Previous</button>
<button type="button" data-go="next">Next action</button>
<button type="button" data-go="last">Last</button>
<span class="status" role="status" aria-live="polite"></span>
</div>
<div class="sides" hidden><section class="side" data-side="0" aria-label="{esc(f"{heading(s.row)}, {_game(s.row)}: the deal")}"></section></div>
{json_script(wid + "-data", s.stepper)}
</div></details>
</section>"""


def preset_rel(name: str) -> str:
    return f"extremes/{name}.html"


def build_extremes(site: Site) -> None:
    """Write ``extremes.html`` (every fact in plain words) and ``extremes/<preset>.html`` (each fact with its
    deal drawn and steppable) from spec/extremes.md's table and the shipped deals replayed by the model."""
    text = (site.root / "spec" / "extremes.md").read_text(encoding="utf-8")
    rows = read_rows(text)
    if not rows:
        raise ValueError("spec/extremes.md has no bounds table (write it with `comet bounds --page spec/extremes.md`)")
    try:
        from comet_proofs.bounds.extremes import witnesses_root
        from comet_proofs.bounds.page import NAMES
    except ImportError:
        body = (
            "<h1>The extremes of Comet</h1><p>The deals of this page ship with the proofs package "
            "(<code>comet_proofs</code>), which this installation lacks; the figures are in "
            "<code>spec/extremes.md</code>.</p>"
        )
        site.write(REL, page("The extremes of Comet", body, "", REL))
        return
    root = witnesses_root()
    exact = sum(r.status == "exact" for r in rows)
    groups: list[tuple[str, int]] = []
    for r in rows:
        if (r.preset, r.players) not in groups:
            groups.append((r.preset, r.players))
    presets = list(dict.fromkeys(p for p, _ in groups))
    toc, facts, n = [], [], 0
    for name in presets:
        title = NAMES.get(name, name)
        rel = preset_rel(name)
        toc.append(f'<li><a href="#{github_slug(name)}">{esc(title)}</a></li>')
        facts.append(f'<h2 id="{github_slug(name)}">{esc(title)}</h2>')
        parts = []
        for p, k in (g for g in groups if g[0] == name):
            gid = github_slug(f"{p}-{k}p")
            head = f"{title[:1].upper()}{title[1:]}, {k} players"
            parts.append(f'<h2 id="{gid}">{esc(head)}</h2>')
            said = []
            for r in (r for r in rows if (r.preset, r.players) == (p, k)):
                deal = f"{rel}#{anchor(r)}" if r.file and r.reached is not None else ""
                said.append(f"<li>{fact(r, deal)}</li>")
                if deal:
                    parts.append(shown_html(replayed(r, root), n))
                    n += 1
                else:
                    parts.append(
                        f'<section class="extreme" id="{anchor(r)}"><h3>{esc(heading(r))}</h3>'
                        f'<p class="fact">{fact(r)}</p></section>'
                    )
            facts.append(f'<ul class="facts" aria-label="{esc(head)}">{"".join(said)}</ul>')
        body = f"""<h1>The extremes of {esc(title)}</h1>
<p class="lead">Each figure with the deal that reaches it, replayed by the model when this site was built: open
a deal to step through it. All the games: <a href="../{REL}">the extremes of Comet</a>.</p>
{"".join(parts)}"""
        site.write(rel, page(f"The extremes of {title}", body, "../", REL))
    gaps = gaps_text(text)
    body = f"""<h1>The extremes of Comet</h1>
<p class="lead">What a player can quote about one deal of each game: the longest deal, the most one player can
pay or collect at the settlement, lose or win in the whole deal, or score, each with the deal that does it.
A figure in bold is exact: Z3 proves no deal can do more, and the deal shown does it. Otherwise the proved
bound and the best deal known are both given. {exact} of the {len(rows)} figures are exact.</p>
<p>Every deal was replayed by the model when this site was built; follow a link to draw it and step through
it. The figures are those of <code>spec/extremes.md</code> (<code>comet bounds --page</code>).</p>
<nav aria-label="Games" class="toc"><ul>{"".join(toc)}</ul></nav>
{"".join(facts)}
{'<h2 id="gaps">Where a gap remains, and why</h2>' + site.md(gaps, "") if gaps.strip() else ""}"""
    said_all = " ".join(re.sub(r"<[^>]+>", "", fact(r)) for r in rows)
    site.index.append(
        {"id": "extremes", "kind": "players", "title": "The extremes of Comet", "url": REL, "text": said_all}
    )
    site.write(REL, page("The extremes of Comet", body, "", REL))
