"""A reproducible deal for a counterexample report."""

from __future__ import annotations

from dataclasses import dataclass

from comet.cards import cards_text
from comet.ruleset import Ruleset
from comet.state import Action, DealState


@dataclass(frozen=True, slots=True)
class Counterexample:
    """What is needed to reproduce a deal: who plays, the cards, the actions."""

    start: DealState
    actions: tuple[Action, ...]

    def text(self) -> str:
        s = self.start
        rules = s.rules
        diffs = rules.differences(Ruleset(variant=rules.variant))
        lines = [
            f"variant={rules.variant} players={s.players} dealer={s.dealer} pack={s.pack} comet_value={s.comet_value}",
            "rulings: " + (", ".join(f"{k}={v}" for k, v in diffs.items()) if diffs else "defaults"),
        ]
        for seat, h in enumerate(s.hands):
            lines.append(f"  seat {seat}: {cards_text(h)}")
        lines.append(f"  dead: {cards_text(s.dead)}")
        lines.append(f"actions ({len(self.actions)}): " + "; ".join(str(a) for a in self.actions))
        return "\n".join(lines)
