"""Pages for players: how to play (the spec's own statements, chapter by chapter, each linked to its
rule), a worked deal drawn as cards, the glossary, and a table comparing the presets."""

from __future__ import annotations

import re

from comet.diverge.glossary import GLOSSARY as VERDICT_WORDS
from comet.engine import deal_sizes, packs_in_rotation
from comet.presets import PRESETS, Preset
from comet.ruleset import RULING_FIELDS, RULING_OF
from comet.site.core import Site
from comet.site.html import esc, page
from comet.site.pages_presets import example_deal_html, own_rules
from comet.site.plain import is_contract, label, short, statement
from comet.variant import applies

# Each term: (the word, what it means in our words, the rules that define it).  A test checks that every
# rule id named here exists in the spec, so the glossary cannot point at a rule that is gone.
GLOSSARY: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "run",
        "The pile the players build together: it starts with any card and goes up one rank at a "
        "time (on a 5 only a 6), whatever the suit, until a stop ends it.",
        ("R-LEAD-ANY", "R-PLAY-CONTINUE"),
    ),
    (
        "start a run (lead)",
        "Play the first card of a new run. The player who ended the last run starts "
        "the next one, with any card they like.",
        ("R-LEAD-ANY", "R-NEW-RUN"),
    ),
    (
        "stop",
        "A card that ends the run: a King, or the Comet. Whoever plays a stop starts a new run at once.",
        ("R-STOP-KING", "R-COMET-STOP", "R-NEW-RUN"),
    ),
    (
        "stuck run",
        "A run nobody can carry on (the card it needs is in the dead hand or already played): it "
        "comes back to the last player who played, who starts a new one.",
        ("R-STOP-STUCK",),
    ),
    (
        "without",
        "What a player says when they have played at least one card and cannot go on; they name "
        "the rank they lack. The turn passes to the left.",
        ("R-TURN-END",),
    ),
    ("pass", "What a player says who has not played a card in this turn and cannot play.", ("R-TURN-END",)),
    (
        "must play",
        "A player who holds the card the run needs has to play it, and go on as far as they can. "
        "The Comet is the one exception: nobody ever has to play it.",
        ("R-PLAY-MUST", "R-COMET-OPTIONAL"),
    ),
    ("natural card", "Any card other than the Comet: it counts as what is printed on it.", ("R-COMET-WILD",)),
    (
        "Comet",
        "The one wild card of each pack (the 9♦ in the black pack, the 9♣ in the red). It stands for "
        "the card a player needs, ends the run, and earns its player a bonus from everyone.",
        ("R-COMET-WILD", "R-COMET-STOP", "R-COMET-BONUS"),
    ),
    (
        "black pack, red pack",
        "The two 48-card packs the standard game is played with, in turn: two decks "
        "without Aces, split by colour, each with the other colour's 9 as its Comet.",
        ("R-PACK-BLACK", "R-PACK-RED", "R-PACK-ALTERNATE"),
    ),
    (
        "dead hand",
        "The cards left over after the deal. They lie face down and are not played, which is "
        "why runs get stuck. A Comet left there is worth more in the next deal.",
        ("R-DEAD-HAND", "R-COMET-ESCALATE"),
    ),
    (
        "four of a kind",
        "All four natural cards of the rank the run needs, played together as one play "
        "(with the three natural 9s, three are enough).",
        ("R-FOUR-OF-A-KIND", "R-THREE-NINES"),
    ),
    (
        "going out",
        "Playing one's last card. It ends the deal at once, and the others pay for what they still hold.",
        ("R-END-OUT", "R-SETTLE-POINTS"),
    ),
    ("caught", "Still holding the Comet when someone else goes out: the holder pays double.", ("R-SETTLE-CAUGHT",)),
    (
        "points in hand",
        "What a loser's cards are worth at the end: 2 to 10 their rank, Jack, Queen and King 10 each.",
        ("R-SETTLE-POINTS",),
    ),
    (
        "escalation",
        "The Comet's bonus rises by 2 for each deal it spends in the dead hand, and goes back to "
        "2 once it has been played or caught.",
        ("R-COMET-ESCALATE",),
    ),
    ("Opera", "Going out in one's very first turn: everyone pays double.", ("R-OPERA-FIRST-TURN", "R-OPERA-DOUBLE")),
    ("manille", "Old Comet's name for its wild card, the 9♦.", ("R-OLD-DECK", "R-OLD-MANILLE-PLAY")),
    (
        "chips",
        "The stakes of the standard game: every payment moves chips from one player to another.",
        ("R-GAME-CHIPS",),
    ),
    (
        "ruling",
        "A point where the sources disagree, contradict themselves or say nothing. Each ruling has "
        "readings; this rulebook takes one by default and lets you play the others.",
        (),
    ),
    ("reading", "One answer to a ruling. A preset is a game played under one reading of every ruling.", ()),
    (
        "preset",
        "A game the rulebook plays: a family of rules (Comet, Old Comet, Commit, Red Nines) and "
        "a reading of every ruling.",
        (),
    ),
)


def chapter_name(chapter: str) -> str:
    return re.sub(r"^\d+\.\s*", "", chapter)


def build_how_to_play(site: Site) -> None:
    rules = next(f for f in site.rules if f.name == "rules.md")
    parts: list[str] = []
    toc: list[str] = []
    chapter = None
    for sec in rules.sections:
        if is_contract(sec):
            continue
        if sec.chapter != chapter:
            if chapter is not None:
                parts.append("</ul></section>")
            chapter = sec.chapter
            cid = "ch-" + re.sub(r"[^a-z0-9]+", "-", chapter_name(chapter).lower()).strip("-")
            toc.append(f'<li><a href="#{cid}">{esc(chapter_name(chapter))}</a></li>')
            parts.append(
                f'<section aria-labelledby="{cid}"><h2 id="{cid}">{esc(chapter_name(chapter))}</h2><ul class="steps">'
            )
        text = statement(sec)
        if not text:
            continue
        parts.append(
            f"<li>{site.md(text, '').removeprefix('<p>').removesuffix('</p>' + chr(10))} "
            f'<a class="rule-ref" href="{esc(site.where[sec.id])}" aria-label="Rule {esc(sec.id)}: {esc(sec.title)}">'
            f"{esc(sec.id)}</a></li>"
        )
    if chapter is not None:
        parts.append("</ul></section>")
    std = PRESETS["standard"]
    others = "".join(
        f'<li><a href="how-to-play/{esc(n)}.html">{esc(short(PRESETS[n].description))}</a></li>'
        for n in sorted(PRESETS)
        if n != "standard"
    )
    body = f"""<h1>How to play Comet</h1>
<p class="lead">Comet is a card game for two to five players from 18th-century France. The aim is to get rid
of your cards first: together the players build runs going up one rank at a time, and the Comet, a wild
card, helps whoever holds it. When someone has played their last card, the others pay for what they still hold.</p>
<p>Below, each rule of the standard game is said once, in the words of this rulebook's
<a href="rules.html">rules</a>, with a link to the rule and the sources it rests on. Words in
<em>italics</em> elsewhere are in the <a href="glossary.html">glossary</a>. Ready to try? <a href="play.html">Play a
deal in the page</a>, with the rules checking every move.</p>
<nav aria-label="On this page" class="toc"><ul>{"".join(toc)}<li><a href="#worked">A worked deal</a></li></ul></nav>
{"".join(parts)}
<section aria-labelledby="worked"><h2 id="worked">A worked deal</h2>
{example_deal_html(std, heading=False)}</section>
<section aria-labelledby="others"><h2 id="others">The other games</h2>
<p>The other games of the family change some of these rules. How to play each, in what differs from the game
above:</p><ul>{others}</ul><p>See also <a href="compare.html">the presets compared</a> and the
<a href="rules-variants.html">variant rules</a>.</p></section>"""
    site.write("how-to-play.html", page("How to play", body, "", "how-to-play.html"))


def preset_facts(pr: Preset) -> list[str]:
    """The preset's game in plain sentences, from the model: players, pack and deal, wild card, scoring, end."""
    v = pr.variant
    n = v.default_players
    packs = packs_in_rotation(pr.rules, n)
    pk = packs[0]
    each, dead = deal_sizes(pr.rules, n, len(pk.cards))
    counts = sorted(v.player_counts)
    facts = [
        f"{counts[0]} to {counts[-1]} players" + (f" (usually {n})." if len(counts) > 1 else "."),
        f"The pack: {len(pk.cards)} cards ({pk.name})"
        + (f", and a second pack ({packs[1].name}) used in turn, one per deal." if len(packs) > 1 else ".")
        + f" With {n} players each gets {each} cards"
        + (f" and {dead} lie face down, unplayed." if dead else ", none left over."),
        f"The wild card is the {v.wild_name}"
        + (f", worth {v.comet_value} chips from everyone to whoever plays it in a first deal" if v.comet_value else "")
        + (", more for each deal it lies unplayed." if v.escalates_under(pr.rules) else "."),
    ]
    if pr.scoring == "chips":
        facts.append(
            f"Everyone starts with {pr.rules.starting_chips} chips; every payment passes chips between players."
        )
    else:
        facts.append(
            "Each deal gives every player points, added up over the game"
            + ("; the lowest total wins." if v.lower_wins else "; the highest total wins.")
        )
    if v.game_end == "target":
        facts.append(f"The game ends when a player reaches {v.target} points.")
    else:
        facts.append(
            "The game is a fixed number of deals (one round: each player deals once, unless agreed otherwise)."
        )
    return facts


def build_how_to_play_presets(site: Site) -> None:
    """One how-to-play page per preset other than the standard game: what differs from the standard game in
    plain words (its facts from the model, its own rules' statements from the variant rules, the readings it
    takes where the standard game takes another), and a worked deal; each paragraph linked to its rule."""
    std = PRESETS["standard"]
    pre = "../"
    for name in sorted(PRESETS):
        pr = PRESETS[name]
        if name == "standard":
            continue
        facts = "".join(f"<li>{esc(f)}</li>" for f in preset_facts(pr))
        own = []
        for sec in own_rules(site, pr):
            text = statement(sec)
            if text and sec.id in site.where:
                own.append(
                    f"<li>{site.md(text, pre).removeprefix('<p>').removesuffix('</p>' + chr(10))} "
                    f'<a class="rule-ref" href="{pre}{esc(site.where[sec.id])}" '
                    f'aria-label="Rule {esc(sec.id)}: {esc(sec.title)}">{esc(sec.id)}</a></li>'
                )
        readings = []
        for f in RULING_FIELDS:
            rid = RULING_OF.get(f, "")
            if not rid or not applies(f, pr.rules.variant):
                continue
            mine = getattr(pr.rules, f)
            in_std = applies(f, std.rules.variant)
            if in_std and getattr(std.rules, f) == mine:
                continue
            where = (
                f' <a class="rule-ref" href="{pre}{esc(site.where[rid])}">{esc(rid)}</a>' if rid in site.where else ""
            )
            was = f" (the standard game: {esc(label(site.labels, f, getattr(std.rules, f)))})" if in_std else ""
            readings.append(f"<li>{esc(label(site.labels, f, mine))}{was}{where}</li>")
        body = f"""<h1>How to play {esc(short(pr.description))}</h1>
<p class="lead">{esc(pr.description)}. Learn <a href="{pre}how-to-play.html">the standard game</a> first: this
page says what is different here, in the rulebook's words, each point linked to its rule.</p>
<section aria-labelledby="facts"><h2 id="facts">The game at a glance</h2><ul class="steps">{facts}</ul></section>
{f'<section aria-labelledby="own"><h2 id="own">Its own rules</h2><ul class="steps">{"".join(own)}</ul></section>' if own else ""}
{f'<section aria-labelledby="readings"><h2 id="readings">Where the sources leave a choice</h2><p>The readings this game takes, where the standard game takes another or has no such question:</p><ul class="steps">{"".join(readings)}</ul></section>' if readings else ""}
<section aria-labelledby="worked"><h2 id="worked">A worked deal</h2>{example_deal_html(pr, heading=False)}</section>
<p>Everything about this preset (sources, deal table, every reading): <a href="{pre}preset/{esc(name)}.html">preset
<code>{esc(name)}</code></a>. <a href="{pre}play.html">Play a deal in the page</a>.</p>"""
        site.write(
            f"how-to-play/{name}.html", page(f"How to play {short(pr.description)}", body, pre, "how-to-play.html")
        )
        site.index.append(
            {
                "id": f"how-to-play {name}",
                "kind": "players",
                "title": f"How to play {short(pr.description)}",
                "url": f"how-to-play/{name}.html",
                "text": " ".join(preset_facts(pr)),
            }
        )


def build_glossary(site: Site) -> None:
    items = []
    for word, meaning, ids in GLOSSARY:
        anchor = "g-" + re.sub(r"[^a-z0-9]+", "-", word.lower()).strip("-")
        refs = ", ".join(f'<a href="{esc(site.where[i])}">{esc(i)}</a>' for i in ids if i in site.where)
        items.append(
            f'<dt id="{anchor}">{esc(word)}</dt><dd>{esc(meaning)}'
            + (f' <span class="refs">(rules: {refs})</span>' if refs else "")
            + "</dd>"
        )
        site.index.append(
            {"id": word, "kind": "glossary", "title": word, "url": f"glossary.html#{anchor}", "text": meaning}
        )
    verdicts = []
    for word, meaning in VERDICT_WORDS.items():
        anchor = "v-" + re.sub(r"[^a-z0-9]+", "-", word.lower()).strip("-")
        verdicts.append(f'<dt id="{anchor}">{esc(word)}</dt><dd>{esc(meaning)}</dd>')
        site.index.append(
            {"id": word, "kind": "glossary", "title": word, "url": f"glossary.html#{anchor}", "text": meaning}
        )
    body = (
        '<h1>Glossary</h1><p class="lead">The words of the game, in plain English, each with the rules that '
        'define it.</p><dl class="glossary">' + "".join(items) + "</dl>"
        '<h2 id="verdicts">The words of the answers</h2><p>How much a ruling matters is answered in these words '
        "(the divergence report and its method page define them the same way).</p>"
        '<dl class="glossary">' + "".join(verdicts) + "</dl>"
    )
    site.write("glossary.html", page("Glossary", body, "", "glossary.html"))


def build_compare(site: Site) -> None:
    rows = []
    for name in sorted(PRESETS, key=lambda n: (n != "standard", n)):
        pr = PRESETS[name]
        v = pr.variant
        n = v.default_players
        pk = packs_in_rotation(pr.rules, n)[0]
        each, dead = deal_sizes(pr.rules, n, len(pk.cards))
        end = f"first to {v.target} points" if v.game_end == "target" else "an agreed number of deals"
        score = "chips" if pr.scoring == "chips" else ("points, lowest wins" if v.lower_wins else "points")
        rows.append(
            f'<tr><th scope="row"><a href="preset/{esc(name)}.html">{esc(name)}</a></th>'
            f"<td>{min(v.player_counts)}–{max(v.player_counts)}</td><td>{len(pk.cards)} ({esc(pk.name)})</td>"
            f"<td>{n} players: {each} each, {dead} dead</td><td>the {esc(v.wild_name)}</td>"
            f"<td>{esc(score)}</td><td>{esc(end)}</td></tr>"
        )
    body = f"""<h1>The presets compared</h1>
<p class="lead">Each preset is one game of the Comet family as a source describes it, with one reading of every
ruling. The standard game comes first.</p>
<div class="scroll" tabindex="0" role="region" aria-label="The presets compared"><table class="compare">
<thead><tr><th scope="col">preset</th><th scope="col">players</th><th scope="col">cards in the pack</th>
<th scope="col">deal (usual number of players)</th><th scope="col">wild card</th><th scope="col">scoring</th>
<th scope="col">end of the game</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>"""
    site.write("compare.html", page("The presets compared", body, "", "presets.html"))
