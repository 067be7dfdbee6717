"""The presets: the list, and one page per preset (its facts, own rules, deal table, readings, a deal)."""

from __future__ import annotations

import dataclasses
import re

from comet.cards import card_text
from comet.engine import deal_sizes, packs_in_rotation, shuffled_deal
from comet.game import play_deal
from comet.notation import narrate, seat_name
from comet.presets import PRESETS, Preset
from comet.ruleset import RULING_FIELDS, RULING_OF
from comet.site.core import DIFFERS_CLASS, Site, _fmt, _val
from comet.site.html import card, esc, page
from comet.site.sources import Section
from comet.variant import applies

EXAMPLE_SEED = 1


def own_rules(site: Site, pr: Preset) -> list[Section]:
    """The variant rules of the preset's own game: the chapter of the variant rules whose citations fall most
    often in the preset's source lines (the standard game's rules are all of rules.md, so it has none here)."""
    if pr.rules.variant == "standard" and not pr.rules.opera:
        return []
    spans = []
    for s in pr.sources:
        m = re.match(r"(\d{3}):(\d+)(?:-(\d+))?$", s)
        if m:
            spans.append((m.group(1), int(m.group(2)), int(m.group(3) or m.group(2))))
    hits: dict[str, list[Section]] = {}
    for f in site.rules:
        if f.name == "rules.md":
            continue
        for sec in f.sections:
            if any(c.seed == s and c.first <= hi and c.last >= lo for c in sec.citations for s, lo, hi in spans):
                hits.setdefault(sec.chapter, []).append(sec)
    if not hits:
        return []
    best = max(hits, key=lambda ch: len(hits[ch]))
    return [sec for f in site.rules if f.name != "rules.md" for sec in f.sections if sec.chapter == best]


def build_presets(site: Site) -> None:
    std = PRESETS.get("standard", None)
    items = []
    for name in sorted(PRESETS):
        pr = PRESETS[name]
        items.append(
            f'<li><a href="preset/{esc(name)}.html"><strong>{esc(name)}</strong></a>: {esc(pr.description)}</li>'
        )
        build_preset(site, pr, std)
    body = "<h1>Presets</h1><p>Each preset is a game the model plays: a game family and a reading of every ruling.</p>"
    site.write("presets.html", page("Presets", body + f'<ul class="presets">{"".join(items)}</ul>', "", "presets.html"))


def build_preset(site: Site, pr: Preset, std: Preset | None) -> None:
    pre = "../"
    v = pr.variant
    rows = []
    for n in v.player_counts:
        packs = packs_in_rotation(pr.rules, n)
        cells = []
        for pk in packs:
            each, dead = deal_sizes(pr.rules, n, len(pk.cards))
            cells.append(f"{esc(pk.name)} ({len(pk.cards)} cards): {each} each, {dead} in the dead hand")
        rows.append(f'<tr><th scope="row">{n}</th><td>{"<br>".join(cells)}</td></tr>')
    data_diff = []
    if std is not None and std.name != pr.name:
        sv = std.variant
        for fl in dataclasses.fields(v):
            a, b = getattr(sv, fl.name), getattr(v, fl.name)
            if fl.name in ("name", "presets", "rulings", "options"):
                continue  # the presets and the rulings have their own sections; options are named below
            if callable(a) or callable(b):
                if (a is None) != (b is None) or (a is not None and a is not b):
                    data_diff.append(
                        f"<li>its own <code>{esc(fl.name)}</code> (a hook of the game family replaces the standard one)</li>"
                    )
                continue
            if a != b:
                data_diff.append(f"<li><code>{esc(fl.name)}</code>: {esc(_fmt(b))} (standard: {esc(_fmt(a))})</li>")
    ruling_rows = []
    for name in RULING_FIELDS:
        try:
            if not applies(name, pr.rules.variant):
                continue
        except KeyError:
            continue
        rid = RULING_OF.get(name, "")
        mine = getattr(pr.rules, name)
        other = getattr(std.rules, name) if std is not None and applies(name, std.rules.variant) else None
        differs = std is not None and std.name != pr.name and (other is None or other != mine)
        link = f'<a href="{pre}{site.where[rid]}">{esc(rid)}</a>' if rid in site.where else esc(rid)
        ruling_rows.append(
            "<tr" + (DIFFERS_CLASS if differs else "") + f"><td><code>{esc(name)}</code></td><td>{link}</td>"
            f"<td><code>{esc(_val(mine))}</code></td><td>{'' if other is None else '<code>' + esc(_val(other)) + '</code>'}"
            f"{' (differs)' if differs and other is not None else ''}"
            f"{'not in the standard game' if differs and other is None else ''}</td></tr>"
        )
    cites = []
    for s in pr.sources:
        m = re.match(r"(\d{3}):(\d+)(?:-(\d+))?$", s)
        if m:
            first = int(m.group(2))
            last = int(m.group(3) or first)
            text = " ".join(site.seeds.get(m.group(1), [])[first - 1 : min(last, first + 2)])
            short = text[:300] + ("…" if len(text) > 300 or last > first + 2 else "")
            cites.append(
                f'<li><a class="cite" href="{pre}{site.seed_url(m.group(1), first)}">{esc(s)}</a> '
                f"<span{' lang=de' if m.group(1) == '003' else ''}>{esc(short)}</span></li>"
            )
    own = own_rules(site, pr)
    own_html = "".join(
        f'<li><a href="{pre}{site.where[s.id]}">{esc(s.id)}</a> {esc(s.title)}</li>' for s in own if s.id in site.where
    )
    scoring = (
        "chips: every payment moves chips from one player to another (zero-sum)"
        if pr.scoring == "chips"
        else "points: each deal gives every player a score, summed over the game"
        + (" (the lowest total wins)" if v.lower_wins else "")
    )
    end = f"first to {v.target} points" if v.game_end == "target" else "a fixed number of deals"
    body = f"""<h1>Preset <code>{esc(pr.name)}</code></h1>
<p class="lead">{esc(pr.description)}.</p>
<p>New to this game? <a href="{pre}{"how-to-play.html" if pr.name == "standard" else f"how-to-play/{esc(pr.name)}.html"}">How to
play it</a>{"" if pr.name == "standard" else ", in what differs from the standard game"}.</p>
<dl class="facts"><dt>Game family</dt><dd><code>{esc(pr.rules.variant)}</code></dd>
<dt>Players</dt><dd>{", ".join(str(n) for n in v.player_counts)}</dd>
<dt>Scoring</dt><dd>{esc(scoring)}</dd><dt>End of the game</dt><dd>{esc(end)}</dd>
<dt>The wild card</dt><dd>the {esc(v.wild_name)}, worth {v.comet_value} in a first deal{", rising while it lies in the dead hand" if v.escalates_under(pr.rules) else ""}</dd></dl>
<h2>Sources</h2><ul class="cites">{"".join(cites)}</ul>
<h2>What differs from the standard game</h2>
{"<ul>" + "".join(data_diff) + "</ul>" if data_diff else "<p>Nothing in the game family: this is the standard game" + (" or differs only in its rulings." if pr.name != "standard" else ".") + "</p>"}
{"<p>Its own rules:</p><ul>" + own_html + "</ul>" if own_html else ""}
<h2>Deal table</h2>
<table><caption>Packs in turn, and cards per player by number of players</caption>
<thead><tr><th scope="col">players</th><th scope="col">pack: cards each, dead hand</th></tr></thead>
<tbody>{"".join(rows)}</tbody></table>
<h2>Rulings</h2>
<table class="readings"><caption>The reading of every ruling that applies (rows that differ from the standard game are marked)</caption>
<thead><tr><th scope="col">field</th><th scope="col">ruling</th><th scope="col">here</th><th scope="col">standard</th></tr></thead>
<tbody>{"".join(ruling_rows)}</tbody></table>
{example_deal_html(pr)}
<p>Play a whole game: <code>comet game --preset {esc(pr.name)} --seed 1</code>.</p>"""
    site.index.append(
        {"id": pr.name, "kind": "preset", "title": pr.description, "url": f"preset/{pr.name}.html", "text": ""}
    )
    site.write(f"preset/{pr.name}.html", page(f"Preset {pr.name}", body, pre, "presets.html"))


def example_deal_html(pr: Preset, heading: bool = True) -> str:
    # ``heading`` False: for players (how to play), without the heading and the command line
    """One seeded deal of the preset played by the model's simple policy, narrated (what ``comet deal`` prints)."""
    v = pr.variant
    players = v.default_players
    start = shuffled_deal(pr.rules, players, players - 1, EXAMPLE_SEED, packs_in_rotation(pr.rules, players)[0])
    _, actions = play_deal(start)
    wild = frozenset(card_text(c) for c in start.wild)
    hands = "".join(
        f'<li><span class="seat">{esc(seat_name(i))}</span> '
        f'<span class="hand">{"".join(card(card_text(c), wild, v.wild_name) for c in h)}</span></li>'
        for i, h in enumerate(start.hands)
    )
    if start.dead:
        dead = "".join(card(card_text(c), wild, v.wild_name) for c in start.dead)
        hands += f'<li><span class="seat">dead hand</span> <span class="hand">{dead}</span></li>'
    story = "".join(f"<li>{esc(line)}</li>" for line in narrate(start, actions))
    return (
        ("<h2>An example deal</h2>" if heading else "")
        + f"<p>{players} players, played by the rulebook's simple players "
        f"(natural cards first, the {esc(v.wild_name)} only when stuck)"
        + (f": <code>comet deal --preset {esc(pr.name)} --seed {EXAMPLE_SEED}</code>.</p>" if heading else ".</p>")
        + f'<ul class="hands">{hands}</ul><ol class="story">{story}</ol>'
    )
