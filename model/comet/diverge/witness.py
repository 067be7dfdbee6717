"""Witness search: the smallest deal (or game) where two rule sets part ways.

Two rule sets of one game are run in lockstep on the same deal: the same cards, and the same actions
for as long as both agree on what is legal.  The first point of difference is one of

``refused``   the deal itself is a legal deal under one rule set and not the other (a record error);
``dealt``     the same shuffled pack is dealt into different hands (not expressible in a deal record);
``legal``     the two rule sets allow different actions (the witness ends with one allowed by only one);
``payments``  the same action moves different chips (or points) during play;
``outcome``   the deal ends differently: who went out, a draw, or the settlement.

A breadth-first search over action sequences (both states stepped together, so the bound is exhaustive
for each deal tried) finds the shortest difference in a deal; playouts by several policies reach
differences that only show at the end of a long deal, and those are shrunk Hypothesis-style (choices
replaced by earlier ones while the divergence persists and gets no longer).  Deals come from seeded
shuffles with the fewest players first, and from planted hands (the wild card in the first player's
hand; straights for the first player and the dealer) for situations a shuffle rarely makes.

A ruling that never shows within a deal is tried over whole games (``comet.game``), same seeds.

This module is the search loop and what it concludes where it finds nothing (a pair inert under the
preset's readings, and the reading it needs); its steps live beside it: ``deal_search`` (deals tried,
breadth-first search, playouts, shrinking), ``game_search`` (whole games), ``size_proof`` (what is proved
of a deal witness's size), ``labels`` (a witness's label, checked by replaying it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from comet.diverge import going_out
from comet.diverge.deal_search import (
    breadth_first,
    deal_candidates,
    deal_difference,
    deal_witness,
    differs_before_play,
    playout,
    shrink,
)
from comet.diverge.game_build import built_game
from comet.diverge.game_search import game_deals_asked, game_proof, game_witness
from comet.diverge.labels import claimed_difference, label_of
from comet.diverge.pairs import Pair, all_pairs, value_text
from comet.diverge.records import PLAYOUT_POLICIES, Bound, Proof, Search, Witness
from comet.diverge.size_proof import prove, z3_smallest
from comet.diverge.store import load, pair_for, witness_of
from comet.engine import player_counts
from comet.ruleset import GAME_LEVEL_FIELDS
from comet.variant import variant_of

DEFAULT_BOUND = Bound()


def stored_game(pair: Pair) -> Witness | None:
    """The stored game witness of ``pair`` (``witnesses.json``), if it is one of the same two rule sets and
    still shows its stored difference (``claimed_difference``); None otherwise."""
    e = load().get(pair.key)
    if e is None or not e.get("found") or e.get("level") != "game":
        return None
    if (pair_for(e).a, pair_for(e).b) != (pair.a, pair.b):
        return None
    w = witness_of(e)
    if w is None:
        return None
    try:
        if claimed_difference(pair, w) != (-1, w.kind, w.detail):
            return None
    except ValueError:
        return None
    return w


# --------------------------------------------------------------------- the search


def search(
    pair: Pair,
    bound: Bound = DEFAULT_BOUND,
    games: bool = True,
    deals: bool = True,
    prove_size: bool = False,
    on_question: Callable[[str], None] | None = None,
    prove_rlimit: int | None = None,
) -> Search:
    """The smallest witness for ``pair`` within ``bound`` (deals first, then whole games); with
    ``prove_size``, a deal witness proved smallest by ``prove`` where it can be, and for a pair with no
    witness, what would make it matter (``needs``).  A ruling that acts between deals only
    (``comet.ruleset.GAME_LEVEL_FIELDS``: every deal is played alike under both readings) is searched
    over whole games alone."""
    t0 = time.monotonic()
    between_deals = pair.field in GAME_LEVEL_FIELDS
    deals = deals and not between_deals
    z: object = None
    built = False
    if prove_size and deals:
        counts = [n for n in player_counts(pair.a) if n in player_counts(pair.b)]
        built = going_out.applies(pair) and going_out.going_out_witness(pair) is not None
        if not any(differs_before_play(pair, n) for n in counts) and not built:
            # a pair with a witness ``going_out`` builds is proved by construction (``prove``): no Z3 spent
            z = z3_smallest(pair, on_question, prove_rlimit)
    if z is not None and getattr(z, "start", None) is not None:
        w, z_proof = prove(pair, None, z)
        return Search(pair, w, "every deal (Z3)", 0, 0, time.monotonic() - t0, (), z_proof)
    if prove_size and deals and built:
        w, made = prove(pair, None, None)
        return Search(pair, w, "every deal (construction)", 0, 0, time.monotonic() - t0, (), made)
    deadline = time.monotonic() + bound.seconds
    best: Witness | None = None
    tried = 0
    capped = False
    for origin, sa0, order in deal_candidates(pair, bound) if deals else iter(()):
        if time.monotonic() > deadline:
            capped = True
            break
        tried += 1
        found = deal_difference(pair, sa0, order, origin)
        if found is not None:
            # a deal refused under B is a record (a vector); a deal dealt differently is not: prefer the former
            if best is None or found.size < best.size or (found.kind == "refused" and best.kind == "dealt"):
                best = found
            if found.kind == "refused":
                break
            continue
        if best is not None and len(best.actions) <= 1 and best.kind != "dealt":
            break
        # a record of n actions is found at breadth-first level n - 1: look only for shorter ones
        limit = len(best.actions) - 2 if best is not None else bound.depth
        bfs = breadth_first(pair, sa0, min(limit, bound.depth), bound.nodes) if limit >= 0 else None
        if bfs is not None:
            best = _better(best, deal_witness(sa0, bfs[1], bfs[2], origin + ", every sequence searched", bfs[0]))
            continue
        if best is not None and len(best.actions) <= bound.depth + 1:
            continue  # a playout cannot beat a witness within the exhaustive depth
        for k, policy in enumerate(PLAYOUT_POLICIES[:-1] + ("random",) * bound.random_playouts):
            res = playout(pair, sa0, [], policy, tried * 31 + k, 10_000)
            if res is None:
                continue
            res = shrink(pair, sa0, res, policy, min(deadline, time.monotonic() + 2.0))
            best = _better(best, deal_witness(sa0, res[1], res[2], f"{origin}, {policy} playout shrunk", res[0]))
    games_tried = 0
    notes: list[str] = []
    if between_deals:
        notes.append("no deal searched: the ruling acts between deals only, so every deal is played alike")
    if capped:
        notes.append(f"the deal search stopped at its time cap ({bound.seconds:g} s) after {tried} deals")
    proof: Proof | None = None
    if prove_size and deals:
        best, proof = prove(pair, best, z)
    if best is None and games:
        deadline = time.monotonic() + bound.seconds
        # the stored game witness or one built at the floor (``game_build``), whichever is smaller
        known = [w for w in (built_game(pair), stored_game(pair)) if w is not None]
        smaller = min(known, key=lambda w: (game_deals_asked(pair, w), w.players)) if known else None
        best, games_tried = game_witness(pair, bound, deadline, smaller)
        if best is None:
            notes.append(
                "no game within the bound differs" if between_deals else "no deal and no game within the bound differs"
            )
        else:
            if not between_deals:
                notes.append("the readings never differed within a deal in the bound; they differ over a game")
            if prove_size:
                proof = game_proof(pair, best)
    if best is None and prove_size and pair.field:
        need = needs(pair, bound, prove_rlimit)
        if need is not None and need[1].startswith("inert: "):
            proof = Proof("inert", True, need[1], need[0])
        elif need is not None:
            proof = Proof("none", False, need[1], need[0])
        else:
            proof = Proof("none", False, no_witness_reason(pair))
    return Search(pair, best, bound.text(), tried, games_tried, time.monotonic() - t0, tuple(notes), proof)


def no_witness_reason(pair: Pair) -> str:
    """Why a pair with no witness, and no other reading found to make it matter, is not proved inert."""
    if pair.field in GAME_LEVEL_FIELDS:
        return (
            "not proved: no witness; the ruling acts between deals only (comet.ruleset.GAME_LEVEL_FIELDS), and no "
            "sampled game differed, which proves nothing (games are sampled by seed)"
        )
    if pair.field.startswith(("opera_", "old_opera_")) and not pair.a.opera:
        return (
            "not proved: no witness; the ruling is read only with opera = true, no encoding covers this preset "
            "with it, and no sampled deal with it differed"
        )
    return (
        "not proved: no witness; the Z3 encodings do not tell these readings apart and no sampled deal or game differed"
    )


def needs(pair: Pair, bound: Bound, prove_rlimit: int | None = None) -> tuple[str, str] | None:
    """What would make a pair with no witness matter: the first other reading of the preset under which
    the pair's readings part ways, as (``field = value``, why), or None.  The pair is called *inert* only
    when that reading brings the deal under an encoding that reads the pair's field while the preset's
    own encoding does not (its cross-check varies the field and sees no change); otherwise the text says
    only that no witness was found without the reading.

    Readings that put the deal under an encoding which quantifies the pair's field (the Opera's encoding
    reads ``opera_draw``; the standard one lists it as unquantified) are tried first; each is confirmed by
    a witness search under it, so the answer is a witness, not a guess."""
    others = [g for g in all_pairs([pair.preset]) if g.field != pair.field]
    first = [g for g in others if _quantified_under(pair, g)]
    argued = argued_inert(pair)
    if argued is not None and not first:
        return _argued_needs(pair, argued, others)
    quick = Bound(seeds=3, depth=4, nodes=400, random_playouts=1, game_seeds=2, max_game_deals=2, seconds=3.0)
    for g in [*first, *[g for g in others if g not in first]]:
        try:
            a2 = pair.a.with_overrides({g.field: g.value_b})
            b2 = a2.with_overrides({pair.field: pair.value_b})
        except ValueError:
            continue
        flipped = Pair(pair.preset, pair.field, a2, b2)
        stored = stored_witness(flipped)
        if stored is not None:
            # the same two rule sets are another preset's pair (standard with opera = true is the opera
            # preset), whose stored witness replays under them: no search needed
            w: Witness | None = stored
        elif g in first:
            # the field is read within a deal under g: Z3 over every deal, else the full sampled search
            z = z3_smallest(flipped, None, prove_rlimit)
            start = getattr(z, "start", None)
            if start is not None:
                actions = getattr(z, "actions", ())
                _step, kind, detail = label_of(flipped, start, actions)
                w = deal_witness(start, kind, detail, "Z3", actions)
            else:
                w = search(flipped, bound, games=False).witness
        else:
            # the field changes no deal under the preset's encoding: only whole games can differ
            w = search(flipped, quick, deals=False).witness
        if w is not None:
            label = f"{g.field} = {value_text(g.value_b)}"
            size = (
                f"{len(w.actions)} action(s), {w.players} players"
                if w.level == "deal"
                else f"a game, {w.players} players"
            )
            found = f"a witness of {size}: {w.detail}"
            if g in first:
                return label, f"inert: needs {label} (with it, {found})"
            # a witness under g is no proof that none exists without it (the search is bounded)
            return label, f"no witness found under the preset's readings; with {label} there is {found}"
    return None


#: The rulings read only in an Opera (RUL-OPERA-*, RUL-OLD-OPERA-*): ``argued_inert`` where the Opera is off.
OPERA_RULINGS: frozenset[str] = frozenset(
    {"opera_draw", "opera_stack", "opera_caught", "opera_comet_bonus", "old_opera_bonus", "old_opera_caught"}
)


def argued_inert(pair: Pair) -> tuple[str, str, str] | None:
    """A pair that cannot differ under the preset's other readings, by an argument over the code rather
    than an encoding: (the field, the reading of it that would make the pair matter, why); None otherwise.

    RUL-STARTING-CHIPS under RUL-INSOLVENCY = debt, in a game of a fixed number of deals: a game's balances
    are the starting chips plus the deals' payments, and no payment reads a balance; the winners (ties, and
    RUL-GAME-TIE's extra rounds) compare the balances with one another and the net chips subtract the
    starting chips, so every game is the same with any starting chips.  Under pay_what_you_have a payment
    is cut at its payer's balance, which reads them.  ``tests/test_diverge_game_floor.py`` checks the
    premise on games of every chips preset, and that the same check sees pay_what_you_have.

    RUL-CREDITOR-ORDER under RUL-INSOLVENCY = debt: every payment is made in full, so the order of a debtor's
    payments (``game.creditor_order``) changes no balance.  ``tests/test_variant_old_comet.py`` checks both
    orders give the same balances under debt and different ones under pay_what_you_have.

    The Opera's rulings (``OPERA_RULINGS``) where the Opera is off under both rule sets: every reader of
    them asks ``opera.rules.is_opera`` (false while ``opera`` is off) or is an Opera hook that returns at
    once while it is off.  This is used only where no encoding tells what the field needs (``needs``
    tries those first); the same test file checks the premise on Opera deals of two players and of Old
    Comet.

    RUL-ESCALATION-TRIGGER, RUL-ESCALATION-RESET and RUL-ESCALATION-PACKS where the Comet's value never
    rises (``Variant.escalates_under`` is false under both rule sets: Old Comet's flat 10,
    RUL-OLD-ESCALATION = none): they are read only to raise the value (``game.comet_value_for``,
    ``game.finish_deal``), which stays the variant's own; the reading of the preset that makes it rise is
    what they need.  The same test file checks the premise on Old Comet games."""
    v = variant_of(pair.a)
    if pair.field in OPERA_RULINGS and not pair.a.opera and not pair.b.opera:
        why = (
            "the Opera's rulings are read only in an Opera (opera.rules.is_opera, false while opera is off, or the "
            "Opera's hooks, the identity while it is off), so every deal is the same"
        )
        return "opera", "true", why
    if (
        pair.field in ("escalate_on", "comet_reset", "escalation")
        and not v.escalates_under(pair.a)
        and not variant_of(pair.b).escalates_under(pair.b)
    ):
        rising = next(
            (g for g in all_pairs([pair.preset]) if g.field != pair.field and variant_of(g.b).escalates_under(g.b)),
            None,
        )
        if rising is not None:
            why = (
                "the Comet's value never rises under the preset's readings, and the escalation rulings are read "
                "only to raise it, so every game is the same"
            )
            return rising.field, str(rising.value_b), why
    if (
        pair.field == "starting_chips"
        and pair.a.insolvency == pair.b.insolvency == "debt"
        and v.scoring == "chips"
        and v.game_end == "deals"
        and v.race_end is None
    ):
        why = (
            "with insolvency = debt no payment reads a balance, and the winners, their ties and the net chips "
            "compare balances only with one another or less the starting chips, so every game is the same"
        )
        return "insolvency", "pay_what_you_have", why
    if pair.field == "creditor_order" and pair.a.insolvency == pair.b.insolvency == "debt":
        why = (
            "with insolvency = debt every payment is made in full, so the order in which a debtor pays "
            "their creditors changes no balance (game.creditor_order is read only to order them)"
        )
        return "insolvency", "pay_what_you_have", why
    return None


def _argued_needs(pair: Pair, argued: tuple[str, str, str], others: list[Pair]) -> tuple[str, str]:
    """``needs`` for an ``argued_inert`` pair: its reason, and a witness under the reading it needs (the
    stored witness of that reading's own pair when it replays, else a quick search).  A stored entry of the
    pair that already says so and names a witness (one a longer or constructive search found, such as the
    Opera hands built for ``witnesses.json``) is kept."""
    field, value, why = argued
    label = f"{field} = {value_text(value)}"
    kept = load().get(pair.key)
    kept_proof = kept.get("proof") if kept is not None else None
    if (
        kept is not None
        and isinstance(kept_proof, dict)
        and kept_proof.get("method") == "inert"
        and kept_proof.get("needs") == label
        and "; with " in str(kept_proof.get("text", ""))
        and (pair_for(kept).a, pair_for(kept).b) == (pair.a, pair.b)
    ):
        return label, str(kept_proof["text"])
    a2 = pair.a.with_overrides({field: value})
    flipped = Pair(pair.preset, pair.field, a2, a2.with_overrides({pair.field: pair.value_b}))
    found: Witness | None = None
    reused = ""
    own = load().get(next((g.key for g in others if g.field == field and value_text(g.value_b) == value), ""))
    w = witness_of(own) if own is not None else None
    if own is not None and w is not None:
        try:
            _step, kind, detail = claimed_difference(flipped, w)
            found, reused = replace(w, kind=kind, detail=detail), f", the stored witness of {pair_for(own).key}"
        except ValueError:
            found = None
    if found is None:
        quick = Bound(seeds=3, depth=4, nodes=400, random_playouts=1, game_seeds=2, max_game_deals=2, seconds=3.0)
        found = search(flipped, quick, deals=pair.field not in GAME_LEVEL_FIELDS).witness
    if found is None:
        return label, f"inert: needs {label} ({why}; nothing with it was found to differ within the bound)"
    if found.level == "game":
        size = f"a game of {game_deals_asked(flipped, found)} deal(s), {found.players} players{reused}"
    else:
        size = f"a deal of {len(found.actions)} action(s), {found.players} players{reused}"
    return label, f"inert: needs {label} ({why}; with it, {size}: {found.detail})"


def stored_witness(pair: Pair) -> Witness | None:
    """A stored witness (``witnesses.json``) of another pair with the very same two rule sets, if its
    label replays under ``pair`` (``claimed_difference``); None otherwise."""
    for e in load().values():
        if not e.get("found"):
            continue
        other = pair_for(e)
        if (other.a, other.b) != (pair.a, pair.b):
            continue
        w = witness_of(e)
        if w is None:
            continue
        try:
            step, kind, detail = claimed_difference(pair, w)
        except ValueError:
            continue
        if (step, kind, detail) == (w.step, w.kind, w.detail):
            return replace(w, origin=f"{w.origin} (the stored witness of {other.key})")
    return None


def _quantified_under(pair: Pair, g: Pair) -> bool:
    """Does switching ``g`` bring the deal under an encoding that quantifies ``pair``'s field?"""
    try:
        from comet_proofs.pair_cover import quantifies
    except ImportError:
        return False
    try:
        a2 = pair.a.with_overrides({g.field: g.value_b})
        b2 = a2.with_overrides({pair.field: pair.value_b})
    except ValueError:
        return False
    n = variant_of(a2).default_players
    return quantifies(pair.preset, pair.field, a2, b2, n) and not quantifies(pair.preset, pair.field, pair.a, pair.b, n)


def _better(best: Witness | None, new: Witness) -> Witness:
    return new if best is None or new.size < best.size else best
