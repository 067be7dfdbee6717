"""From the encoding's ``AbstractState`` back to a real ``comet.state.DealState`` (the inverse of
the encodings' ``abstract``).

A counting encoding says how many natural cards of each rank each seat holds, where the Comet (or each
seat's wild cards) is, and what is played or dead; ``concretise`` picks concrete cards of the deal's pack
for those counts.  A card-level encoding names every card's place, so nothing is picked: it builds the
state itself (``Encoding.concrete_state``).  The turn, run, chips and
outcome fields are copied back (the chips as payments that net to them).

Not every abstract state has a concrete twin (the encodings are over-approximations: e.g. a card-level
state whose only played card is the 9D but which says the 9D was not the last card played).  The
caller checks ``enc.abstract(concretise(...)) == abstract`` and looks for another witness otherwise
(``refine.find_witness``); ``ConcretiseError`` is raised when the counts do not fit the pack at all.
"""

from __future__ import annotations

from comet.cards import Card, rank_of
from comet.engine import packs_in_rotation
from comet.ruleset import Ruleset
from comet.state import DealState, Payment

from comet_proofs.encoding import Encoding
from comet_proofs.symbolic import COMET_DEAD, COMET_PLAYED, AbstractState


class ConcretiseError(ValueError):
    """The abstract state's counts do not fit the pack."""


def extra_of(a: AbstractState) -> dict[str, int]:
    return dict(a.extra)


def payments_for(chips: tuple[int, ...], rule: str = "R-COMET-BONUS") -> tuple[Payment, ...]:
    """Payments whose net per seat is ``chips`` (which sum to 0): debtors pay creditors in seat order."""
    if sum(chips) != 0:
        raise ConcretiseError(f"chips {chips} do not sum to 0")
    owe = [[p, -c] for p, c in enumerate(chips) if c < 0]
    due = [[p, c] for p, c in enumerate(chips) if c > 0]
    out: list[Payment] = []
    i = j = 0
    while i < len(owe) and j < len(due):
        amount = min(owe[i][1], due[j][1])
        out.append(Payment(owe[i][0], due[j][0], amount, rule))
        owe[i][1] -= amount
        due[j][1] -= amount
        if owe[i][1] == 0:
            i += 1
        if due[j][1] == 0:
            j += 1
    return tuple(out)


def concretise(enc: Encoding, a: AbstractState, rules: Ruleset) -> DealState:
    """A ``DealState`` of ``rules``' game whose abstraction under ``enc`` is meant to be ``a``."""
    own = enc.concrete_state(a, rules)
    if own is not None:
        return own
    n = a.players
    pack = packs_in_rotation(rules, n)[0]
    extra = extra_of(a)
    wild_in_pack = [c for c in pack.cards if c in pack.wild]
    pool: dict[int, list[Card]] = {}
    for c in pack.cards:
        if c not in pack.wild:
            pool.setdefault(rank_of(c), []).append(c)

    def take(row: tuple[int, ...], where: str) -> list[Card]:
        out: list[Card] = []
        for r, k in zip(a.ranks, row, strict=True):
            have = pool.get(r, [])
            if k < 0 or k > len(have):
                raise ConcretiseError(f"{where}: {k} natural cards of rank {r}, the pack has {len(have)} left")
            out += have[:k]
            del have[:k]
        return out

    hands = [take(h, f"seat {p}") for p, h in enumerate(a.hands)]
    dead = take(a.dead, "dead")
    played = take(a.played, "played")
    left = [c for cards in pool.values() for c in cards]
    if left:
        raise ConcretiseError(f"{len(left)} natural cards of the pack are nowhere")
    wild_counts = [extra.get(f"wild{p}") for p in range(n)]
    if all(k is not None for k in wild_counts):  # several wild cards, counted per seat
        for p, k in enumerate(wild_counts):
            assert k is not None
            hands[p] += wild_in_pack[:k]
            del wild_in_pack[:k]
        k = extra.get("wild_played", 0)
        played += wild_in_pack[:k]
        del wild_in_pack[:k]
    elif wild_in_pack:
        comet = wild_in_pack.pop(0)
        if a.comet >= 0:
            hands[a.comet].append(comet)
        elif a.comet == COMET_DEAD:
            dead.append(comet)
        elif a.comet == COMET_PLAYED:
            played.append(comet)
        else:
            raise ConcretiseError(f"the Comet's place {a.comet} is not a seat, dead or played")
    if wild_in_pack:
        raise ConcretiseError(f"{len(wild_in_pack)} wild cards of the pack are nowhere")
    first = extra.get("first_turn", 0) == 1
    return deal_state(
        a, rules, pack.name, pack.wild, hands, dead, played, turn=0 if first else 1, drawn=extra.get("drawn", 0) == 1
    )


def deal_state(
    a: AbstractState,
    rules: Ruleset,
    pack_name: str,
    wild: tuple[Card, ...],
    hands: list[list[Card]],
    dead: list[Card],
    played: list[Card],
    *,
    turn: int,
    drawn: bool,
) -> DealState:
    n = a.players
    return DealState(
        rules=rules,
        players=n,
        # the first player sits left of the dealer (R-LEAD-FIRST; a first-turn rule looks at it)
        dealer=(a.to_move - 1) % n,
        pack=pack_name,
        wild=wild,
        comet_value=a.comet_value,
        hands=tuple(tuple(sorted(h)) for h in hands),
        dead=tuple(sorted(dead)),
        played=tuple(played),
        run=(a.need - 1,) if a.need > 0 else (),
        to_move=a.to_move,
        turn_played=a.turn_played,
        last_player=a.last_player,
        turn=turn,
        steps=a.steps,
        payments=payments_for(a.chips),
        winner=a.winner,
        out_wild_as=a.out_wild_as,
        drawn=drawn,
        free_lead=a.free_lead,
    )
