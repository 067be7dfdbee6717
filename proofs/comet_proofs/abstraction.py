"""From the model's ``DealState`` to the encoding's ``AbstractState``, and both back to words.

``counts_abstract`` keeps exactly what the base rules look at: per seat
and rank the natural cards held, where the Comet is, what has been played and
what is dead, the rank the run needs, whose turn it is, who played last, whether
the mover has played this turn, the chips moved, the winner, what the Comet
stood for when it was the last card, the step count and the Comet's value.
"""

from __future__ import annotations

from comet.cards import card_text, cards_text, rank_of, rank_text
from comet.state import DealState

from comet_proofs.symbolic import (
    CARD,
    COMET,
    COMET_DEAD,
    COMET_PLAYED,
    COMET_QUARTET,
    GROUP_BASE,
    NATURAL,
    PASS,
    QUARTET,
    RANKS,
    AbstractState,
)


def counts_abstract(
    state: DealState, ranks: tuple[int, ...] = RANKS, extra: tuple[tuple[str, int], ...] = ()
) -> AbstractState:
    """The counting abstraction of a deal with exactly one wild card (no checks of the variant)."""
    if len(state.wild) != 1:
        raise ValueError(f"the encoding needs exactly one wild card, this deal has {len(state.wild)}")
    wild = state.wild[0]

    def counts(cards: tuple[int, ...]) -> tuple[int, ...]:
        for c in cards:
            if c != wild and rank_of(c) not in ranks:
                raise ValueError(f"card of rank {rank_text(rank_of(c))} is not in the pack")
        return tuple(sum(1 for c in cards if c != wild and rank_of(c) == r) for r in ranks)

    places = [seat for seat, h in enumerate(state.hands) if wild in h]
    places += [COMET_DEAD] * state.dead.count(wild) + [COMET_PLAYED] * state.played.count(wild)
    if len(places) != 1 or any(h.count(wild) > 1 for h in state.hands):
        raise ValueError(f"the Comet must be in exactly one place, found {len(places)}")
    return from_deal(
        state,
        hands=tuple(counts(h) for h in state.hands),
        comet=places[0],
        played=counts(state.played),
        dead=counts(state.dead),
        ranks=ranks,
        extra=extra,
    )


def from_deal(
    state: DealState,
    *,
    hands: tuple[tuple[int, ...], ...],
    comet: int,
    played: tuple[int, ...],
    dead: tuple[int, ...],
    ranks: tuple[int, ...],
    extra: tuple[tuple[str, int], ...],
    labels: tuple[str, ...] = (),
) -> AbstractState:
    """An abstract state with the given card rows; the turn, run, chips and outcome fields are copied
    from ``state`` in one place, so no encoding forgets one (every encoding's abstraction uses this)."""
    return AbstractState(
        players=state.players,
        hands=hands,
        comet=comet,
        played=played,
        dead=dead,
        need=state.need,
        to_move=state.to_move,
        last_player=state.last_player,
        turn_played=state.turn_played,
        free_lead=state.free_lead,
        chips=state.chips(),
        winner=state.winner,
        out_wild_as=state.out_wild_as,
        steps=state.steps,
        comet_value=state.comet_value,
        ranks=ranks,
        extra=extra,
        labels=labels,
    )


def ranks_text(row: tuple[int, ...], ranks: tuple[int, ...] = RANKS, labels: tuple[str, ...] = ()) -> str:
    """Counts per rank as ranks (``2 2 5 K``); odd counts (over 4, negative) as ``rank x count``.
    ``labels`` names the entries instead of rank codes (card-level encodings)."""
    words = []
    names = labels or tuple(rank_text(r) for r in ranks)
    for name, k in zip(names, row, strict=True):
        if 0 <= k <= 4:
            words += [name] * k
        else:
            words.append(f"{name}x{k}")
    return " ".join(words) or "-"


def describe(a: AbstractState) -> str:
    """An abstract state in card terms, one line per seat (suits are not part of the encoding)."""
    lines = []
    for p, row in enumerate(a.hands):
        held = ranks_text(row, a.ranks, a.labels) + (" + Comet" if a.comet == p else "")
        marks = [m for m, on in (("to move", a.to_move == p), ("last to play", a.last_player == p)) if on]
        if a.winner == p:
            marks.append("WINNER")
        lines.append(f"  seat {p}{' (' + ', '.join(marks) + ')' if marks else ''}: {held}")
    lines.append(f"  dead: {ranks_text(a.dead, a.ranks, a.labels)}{' + Comet' if a.comet == COMET_DEAD else ''}")
    lines.append(f"  played: {ranks_text(a.played, a.ranks, a.labels)}{' + Comet' if a.comet == COMET_PLAYED else ''}")
    run = "a new run is to be started" if a.need == 0 else f"the run needs a {rank_text(a.need)}"
    if a.free_lead:
        run += " (or, after the Comet, any new lead)"
    lines.append(
        f"  {run}; mover has {'' if a.turn_played else 'not '}played this turn; "
        f"chips {' '.join(f'{c:+d}' for c in a.chips)} (sum {sum(a.chips):+d}); "
        f"steps {a.steps}; Comet value {a.comet_value}"
        + (f"; last card was the Comet as {rank_text(a.out_wild_as)}" if a.out_wild_as else "")
        + "".join(f"; {name} {value}" for name, value in a.extra)
    )
    return "\n".join(lines)


def describe_action(kind: int, rank: int) -> str:
    if kind == PASS:
        return "pass"
    if kind == NATURAL:
        return f"play a natural {rank_text(rank) if 1 <= rank <= 13 else rank}"
    if kind == QUARTET:
        return f"play all the natural {rank_text(rank) if 1 <= rank <= 13 else rank}s at once"
    if kind == COMET_QUARTET:
        return "play the three natural 9s and the Comet together"
    if kind == COMET:
        return f"play the Comet as {rank_text(rank) if 1 <= rank <= 13 else rank}"
    if kind == CARD:
        return f"play {card_text(rank)}" if 4 <= rank < 56 else f"play card #{rank}"
    if kind >= GROUP_BASE:
        return f"play {kind - GROUP_BASE} natural {rank_text(rank) if 1 <= rank <= 13 else rank}s at once"
    return f"unknown action kind {kind} (rank {rank})"


def describe_deal_state(state: DealState) -> str:
    """A concrete model state with its real cards (for cross-check mismatches)."""
    lines = [f"  rulings: {state.rules.differences(type(state.rules)()) or 'standard defaults'}"]
    for p, h in enumerate(state.hands):
        lines.append(f"  seat {p}{' (to move)' if p == state.to_move else ''}: {cards_text(h) or '-'}")
    lines.append(f"  dead: {cards_text(state.dead) or '-'}; run: {' '.join(rank_text(r) for r in state.run) or '-'}")
    lines.append(
        f"  last player {state.last_player}; turn played {state.turn_played}; "
        f"Comet {cards_text(state.wild)} worth {state.comet_value}; steps {state.steps}"
    )
    return "\n".join(lines)
