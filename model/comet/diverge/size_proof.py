"""What is proved about a deal witness's size: by construction (a difference before play, or at the first
action), or by Z3 over the proofs' encodings (``comet_proofs.smallest``, through ``z3_smallest``), and the
witness to keep (``prove``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from comet.diverge.deal_search import before_play_witness, deal_witness, differs_before_play
from comet.diverge.going_out import applies, going_out_proof, going_out_witness
from comet.diverge.labels import label_of
from comet.diverge.pairs import Pair
from comet.diverge.records import Proof, Witness, cards_played
from comet.engine import packs_in_rotation, player_counts


def first_action_proof(pair: Pair, w: Witness, why_not: str) -> Proof | None:
    """A deal witness of 1 action when no deal of any player count differs before play
    (``differs_before_play``, decided for every deal) is smallest in actions by construction; with the
    fewest players the rule sets allow, in players too; with a pass as its action (no card), in cards
    too.  None for any other witness.  ``why_not`` is why no fuller proof was made (Z3's answer)."""
    if w.level != "deal" or len(w.actions) != 1:
        return None
    counts = [n for n in player_counts(pair.a) if n in player_counts(pair.b)]
    if any(differs_before_play(pair, n) for n in counts):
        return None
    players = ", ".join(map(str, counts))
    parts = [f"1 action, the fewest: no deal of {players} players differs before play"]
    over: tuple[str, ...] = ("actions",)
    if w.players == counts[0]:
        parts.append(f"{w.players} players, the fewest the game allows")
        over = ("actions", "players")
        if not w.actions[0].cards:
            parts.append("0 cards put down (a pass)")
            over = ("actions", "players", "cards")
        else:
            parts.append(f"cards not minimised: fewer than {cards_n(cards_played(w))} not excluded ({why_not})")
    else:
        parts.append(f"players not minimised: fewer than {w.players} not excluded ({why_not})")
    return Proof("construction", True, f"smallest in {', then '.join(over)}: " + "; ".join(parts), over=over)


def cards_n(k: int) -> str:
    return f"{k} card" if k == 1 else f"{k} cards"


def z3_smallest(
    pair: Pair,
    on_question: Callable[[str], None] | None = None,
    rlimit: int | None = None,
    only: Sequence[int] | None = None,
) -> object:
    """``comet_proofs.smallest.smallest`` for the pair within ``rlimit`` Z3 resource units (default: its
    ``PAIR_RLIMIT``); None: no encoding tells the readings apart; the string "missing" when the proofs
    package is not installed; ``only``: over deals of those player counts alone)."""
    try:
        from comet_proofs.budget import PAIR_RLIMIT
        from comet_proofs.smallest import smallest
    except ImportError:  # the proofs package is not installed
        return "missing"
    budget = PAIR_RLIMIT if rlimit is None else rlimit
    return smallest(pair.preset, pair.field, pair.a, pair.b, on_question, rlimit=budget, only=only)


def prove(pair: Pair, found: Witness | None, z: object) -> tuple[Witness | None, Proof]:
    """The witness to keep and what is proved about its size, from the sampled witness ``found`` and
    Z3's answer ``z`` (``z3_smallest``).

    A witness of 0 actions (the deal refused or dealt differently) with the fewest players both rule sets
    allow cannot be beaten.  A pair whose readings part only where a hand is emptied (``going_out``) gets
    the witness built at the floor every witness needs, smallest by construction.  Otherwise Z3 (``comet_proofs.smallest``) searches every deal of every player
    count, fewest actions first, when the pair is one its encodings tell apart; its witness (replayed and
    checked by the engine) replaces the one found by sampling.  Without either, nothing is proved."""
    counts = [n for n in player_counts(pair.a) if n in player_counts(pair.b)]
    before = [n for n in counts if differs_before_play(pair, n)]
    if before and (found is None or found.actions or found.level != "deal" or found.players > before[0]):
        found = before_play_witness(pair, before[0]) or found
    if found is not None and found.level == "deal" and not found.actions:
        if before and found.players == before[0]:
            fewer = [n for n in counts if n < found.players]
            later = [n for n in fewer if rotations_differ(pair, n)]
            why = (
                f"; with {', '.join(map(str, fewer))} players no deal differs before play (the same shuffle gives the "
                "same hands, and every deal of A is a deal of B)"
                + (
                    f"; at {', '.join(map(str, later))} players B takes other packs for a game's later deals, a "
                    "difference between deals, not within one"
                    if later
                    else ""
                )
                if fewer
                else ", the fewest the game allows"
            )
            return found, Proof(
                "construction",
                True,
                f"smallest in actions, then players, then cards: 0 actions (the deal itself differs) with "
                f"{found.players} players{why}",
                over=("actions", "players", "cards"),
            )
        return found, Proof("none", False, "not proved: a deal of fewer players may differ before play")
    if before:
        return found, Proof("none", False, f"not proved: a deal of {before[0]} players differs before play")
    if applies(pair):
        # readings that part only where a hand is emptied: a witness built at the floor every witness needs
        built = going_out_witness(pair)
        made = going_out_proof(pair, built) if built is not None else None
        if built is not None and made is not None:
            return built, made
    if z == "missing":
        return found, _or_first_action(pair, found, "not proved (the comet_proofs package is not installed)")
    if z is None:
        from comet_proofs.pair_cover import blind_reason

        why = blind_reason(pair.preset, pair.field, pair.a, pair.b)
        return found, _or_first_action(
            pair, found, f"not proved: the Z3 encodings do not tell these readings apart: {why}"
        )
    from comet_proofs.smallest import Smallest

    assert isinstance(z, Smallest)
    if z.start is None:
        if z.proved:
            return found, Proof("z3", True, z.text, size=z.size, over=z.over, within=z.within)
        if found is not None and found.level == "deal" and z.least == (len(found.actions), found.players):
            # Z3 proved no witness smaller than (actions, players) and found one of that size it could not make
            # a real deal of: the witness found otherwise is of that size, so it is the smallest in both
            return found, Proof(
                "z3",
                True,
                f"smallest in actions, then players: {z.text}; the witness kept is of that size",
                size=found.size,
                over=("actions", "players"),
                within=z.within,
            )
        return found, _or_first_action(pair, found, f"not proved ({z.text})")
    try:
        step, kind, detail = label_of(pair, z.start, z.actions)
    except ValueError as e:
        # the engine replays Z3's deal alike under both readings: the encodings and the engine disagree
        return found, _or_first_action(pair, found, f"not proved: Z3's witness shows no difference in the engine ({e})")
    w = deal_witness(z.start, kind, detail, f"Z3, {z.players} players, every deal", z.actions)
    if step != len(z.actions) - 1:
        raise AssertionError(f"{pair.key}: the Z3 witness differs at step {step}, not at its last action")
    if not replay_tells_apart(pair, w):
        return found, _or_first_action(
            pair,
            found,
            f"not proved: Z3's witness ({w.detail}) is not told apart by a replay's output, even played on to the "
            "deal's end (conformance.played_on)",
        )
    if found is not None and found.level == "deal" and found.size < w.size:
        return found, Proof("none", False, f"not proved (Z3's witness is larger than the one sampled: {z.text})")
    return w, Proof("z3" if z.proved else "none", z.proved, z.text, size=z.size, over=z.over, within=z.within)


def rotations_differ(pair: Pair, players: int) -> bool:
    """Do the two rule sets take different packs in turn at ``players`` (R-PACK-ALTERNATE), whatever a
    single deal is dealt from?"""
    a = [p.cards for p in packs_in_rotation(pair.a, players)]
    b = [p.cards for p in packs_in_rotation(pair.b, players)]
    return a != b


def replay_tells_apart(pair: Pair, w: Witness) -> bool:
    """Do the replay outputs of deal witness ``w`` under A and B differ, once it is played on where its
    difference is only in points scored during play (``conformance.played_on``, as its vector is written)?
    A witness that fails this could not be a discriminating vector (``tests/test_diverge_vectors.py``)."""
    from comet.diverge.conformance import played_on, verdict, with_rulings
    from comet.presets import preset
    from comet.records.deal_record import record_from_state

    rec, _ = played_on(pair, record_from_state(w.start(pair.a), pair.preset, w.actions).to_json())
    base = preset(pair.preset).rules
    return verdict(with_rulings(rec, pair.a, base)) != verdict(with_rulings(rec, pair.b, base))


def _or_first_action(pair: Pair, found: Witness | None, why: str) -> Proof:
    """``first_action_proof`` for ``found`` where it applies, else "not proved" with ``why``."""
    proof = first_action_proof(pair, found, why.removeprefix("not proved").strip(" :()")) if found else None
    return proof or Proof("none", False, why)
