"""Text forms: action notation of deal records, and narration in the sources' words."""

from __future__ import annotations

from collections.abc import Sequence

from comet.cards import KING, card_text, parse_card, parse_rank, rank_of, spoken_rank
from comet.engine import apply, deal_points, returns, settlement
from comet.errors import RecordError
from comet.state import PASS, Action, DealState, one_card
from comet.variant import variant_of

NAMES = ("Anna", "Ben", "Carla", "Dora", "Emil", "Frida", "Gustav", "Hanna")


def seat_name(seat: int) -> str:
    return NAMES[seat] if 0 <= seat < len(NAMES) else f"Seat {seat}"


def parse_action(text: str) -> Action:
    """Parse ``pass``, ``play CARD``, ``play CARD as RANK`` or ``play C1 C2 C3 C4``.

    Raises ``RecordError`` (kind ``action-syntax`` or ``card``) with a plain message.
    """
    if not isinstance(text, str):
        raise RecordError("action-syntax", f"an action must be a string, not {text!r}")
    words = text.split()
    if words == ["pass"]:
        return PASS
    if not words or words[0] != "play" or len(words) < 2:
        raise RecordError(
            "action-syntax",
            f"cannot read action {text!r}: expected 'pass', 'play CARD', 'play CARD as RANK' or 'play C1 C2 C3 C4'",
        )
    as_rank = 0
    cards_words = words[1:]
    if "as" in cards_words:
        # 'as RANK' ends the action: a wild card alone, or with the three natural 9s (RUL-COMET-QUARTET).
        i = cards_words.index("as")
        if i != len(cards_words) - 2 or i == 0:
            raise RecordError("action-syntax", f"cannot read action {text!r}: 'as RANK' ends the action, after the cards")
        try:
            as_rank = parse_rank(cards_words[-1])
        except ValueError as e:
            raise RecordError("action-syntax", f"cannot read action {text!r}: {e}") from None
        cards_words = cards_words[:i]
    try:
        cards = tuple(sorted(parse_card(w) for w in cards_words))
    except ValueError as e:
        raise RecordError("card", f"cannot read action {text!r}: {e}") from None
    return one_card(cards[0], as_rank) if len(cards) == 1 else Action(cards, as_rank)


def format_action(action: Action) -> str:
    return str(action)


def _spoken(action: Action, wild: Sequence[int], wild_name: str = "Comet") -> str:
    if action.as_rank:
        return f"{wild_name} as {spoken_rank(action.as_rank)}"
    r = rank_of(action.cards[0])
    if len(action.cards) == 1:
        return wild_name if action.cards[0] in wild else spoken_rank(r)
    words = {2: "two", 3: "three", 4: "four"}.get(len(action.cards), str(len(action.cards)))
    return f"{words} {spoken_rank(r)}s"


def _join(words: Sequence[str]) -> str:
    return ", ".join(words).replace(" –, ", " – ")


def narrate(start: DealState, actions: Sequence[Action]) -> list[str]:
    """One line per turn in the sources' words ("5, 6, 7, without 8"), then the settlement."""
    v = variant_of(start.rules)
    worth = f"the {v.wild_name} is worth {start.comet_value}" if start.comet_value else f"the {v.wild_name} earns nothing"
    lines = [f"{seat_name(start.dealer)} deals the {start.pack} pack to {start.players} players; {worth}."]
    for seat, hand in enumerate(start.hands):
        lines.append(f"  {seat_name(seat)}: {' '.join(card_text(c) for c in hand)}")
    lines.append(f"  dead hand: {' '.join(card_text(c) for c in start.dead)}")
    s = start
    words: list[str] = []
    for a in actions:
        mover = s.to_move
        nxt = apply(s, a)
        if a.is_pass:
            if s.turn_played:
                words.append(f"without {spoken_rank(s.need)}" if s.need else "without")
            else:
                words.append("pass")
            lines.append(f"{seat_name(mover)}: {_join(words)}.")
            words = []
            if nxt.last_player == nxt.to_move and not nxt.run and s.run:
                paid = sum(p.amount for p in nxt.payments[len(s.payments) :])
                won = f", collecting {paid} for the last card" if paid else ""
                lines.append(f"  (all the others passed: {seat_name(nxt.to_move)} starts a new run{won})")
        else:
            token = _spoken(a, s.wild, v.wild_name)
            paid = sum(p.amount for p in nxt.payments[len(s.payments) :])
            if paid:
                token += f" (collects {paid})"
            if not nxt.run and (a.as_rank or a.rank == KING) and not nxt.terminal:
                token += " –"
            words.append(token)
            if nxt.terminal:
                lines.append(f"{seat_name(mover)}: {_join(words)}, out!")
                if nxt.drawn:
                    lines.append(f"  Opera: {seat_name(nxt.dealer)} could also have gone out at once: the deal is drawn.")
                words = []
        s = nxt
    if words:
        lines.append(f"{seat_name(s.to_move)}: {_join(words)} …")
    if s.terminal:
        for p in settlement(s):
            left = " ".join(card_text(c) for c in s.hands[p.payer])
            lines.append(f"  {seat_name(p.payer)} holds {left} and pays {seat_name(p.payee)} {p.amount}")
        if v.scoring == "points":
            pts = deal_points(s)
            for seat, hand in enumerate(s.hands):
                if hand:
                    lines.append(f"  {seat_name(seat)} holds {' '.join(card_text(c) for c in hand)}")
            lines.append("Points for the deal: " + ", ".join(f"{seat_name(i)} {p}" for i, p in enumerate(pts)))
        net = returns(s)
        if v.scoring == "chips" or any(net):
            lines.append("Net for the deal: " + ", ".join(f"{seat_name(i)} {n:+d}" for i, n in enumerate(net)))
    return lines
