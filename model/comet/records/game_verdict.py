"""The verdict on a game record: the first fault (item, rule id, expected, found), each deal's outcome,
and the replay output (``spec/schemas/game-output.json``); ``explain_game`` narrates it.

What each field of the output holds at each kind of fault is ``spec/record.md`` ("Faults of a game
record"); ``comet.records.game_replay`` builds the verdict.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from comet.checks.coverage import variant_classifiers
from comet.game import game_over, winners
from comet.records.contract import FORMAT
from comet.records.deal_record import JsonObject, JsonValue, Verdict
from comet.records.game_record import GameRecord
from comet.ruleset import Ruleset
from comet.state import DealState, GameState
from comet.variant import variant_of

#: The faults of a game record (exit 1), in check order: the rows of the table in ``spec/record.md``
#: ("Faults of a game record"), each an item pattern (``r`` a draw round, ``i`` a deal, ``j`` an action)
#: with its rule.  The whole record's items come first, then each deal's in turn (all of deal 0's rows
#: before deal 1's), then the end's.  ``tests/test_game_contract.py`` checks the table against this and
#: the code against both.
GAME_CHECK_ORDER: tuple[tuple[str, str], ...] = (
    ("length", "R-GAME-DEALS"),
    ("draw[r]", "R-DEAL-DEALER"),
    ("first_dealer", "R-DEAL-DEALER"),
    ("deals[i]", "R-GAME-DEALS"),
    ("deals[i].record.dealer", "R-DEAL-DEALER"),
    ("deals[i].record", "R-PACK-ALTERNATE"),
    ("deals[i].record.comet_value", "R-COMET-ESCALATE"),
    ("deals[i].record.actions[j]", "the game's end rule (RUL-COMMIT-C-RACE)"),
    ("deals[i].record.actions[j]", "the action's rule"),
    ("deals[i].after", "R-GAME-DEALS"),
    ("deals[i].after.standings", "R-GAME-CHIPS"),
    ("deals[i].after.comet_values", "R-COMET-ESCALATE"),
    ("deals[i].after.length", "R-GAME-WINNER"),
    ("end", "R-GAME-DEALS"),
    ("end.standings", "R-GAME-CHIPS"),
    ("end.winners", "R-GAME-WINNER"),
)
_PATTERNS = [item for item, _ in GAME_CHECK_ORDER]


def item_pattern(item: str) -> tuple[str, int | None]:
    """A fault's item as its row pattern, and its deal: ``deals[3].record.actions[5]`` ->
    (``deals[i].record.actions[j]``, 3)."""
    deal = None
    m = re.match(r"deals\[(\d+)\]", item)
    if m:
        deal = int(m.group(1))
        item = "deals[i]" + item[m.end() :]
    item = re.sub(r"^draw\[\d+\]", "draw[r]", item)
    item = re.sub(r"actions\[\d+\]$", "actions[j]", item)
    return item, deal


def check_rank(item: str) -> tuple[int, int, int]:
    """Where a fault's item comes in the check order: (phase: the whole record 0, the deals 1, the end 2;
    the deal; the row).  Of two faults in one record the one of the lower rank is reported."""
    pattern, deal = item_pattern(item)
    row = _PATTERNS.index(pattern)  # ValueError: not an item of the table
    phase = 0 if row < _PATTERNS.index("deals[i]") else 2 if row >= _PATTERNS.index("end") else 1
    return phase, -1 if deal is None else deal, row


@dataclass(frozen=True, slots=True)
class Fault:
    """The first illegal or inconsistent item: where (``deals[1].after.standings``), the rule it breaks,
    what the model gives and what the record says."""

    item: str
    rule: str
    message: str
    deal: int | None = None
    expected: JsonValue = None
    found: JsonValue = None


@dataclass(frozen=True, slots=True)
class DealOutcome:
    start: DealState
    verdict: Verdict
    after: GameState | None  # None: the deal is not finished (or illegal)


@dataclass(frozen=True, slots=True)
class GameVerdict:
    record: GameRecord
    first_dealer: int
    game: GameState | None  # None: the game could not start
    deals: tuple[DealOutcome, ...]
    fault: Fault | None

    @property
    def legal(self) -> bool:
        return self.fault is None

    @property
    def finished(self) -> bool:
        return self.game is not None and game_over(self.game) and (not self.deals or self.deals[-1].after is not None)

    def to_json(self) -> JsonObject:
        """The replay output of a game record (``spec/schemas/game-output.json``)."""
        deals: list[JsonValue] = []
        for i, d in enumerate(self.deals):
            entry: JsonObject = {
                "index": i,
                "dealer": d.start.dealer,
                "pack": d.start.pack,
                "comet_value": d.start.comet_value,
                "verdict": d.verdict.to_json(),
            }
            if d.after is not None:
                entry["standings"] = list(d.after.balances)
                entry["comet_values"] = list(d.after.comet_values)
                entry["length"] = d.after.deals
            deals.append(entry)
        out: JsonObject = {
            "format": FORMAT,
            "game": True,
            "legal": self.legal,
            "first_dealer": self.first_dealer,
            "deals": deals,
        }
        g = self.game
        out["standings"] = None if g is None else list(g.balances)
        out["finished"] = self.finished
        out["winners"] = list(winners(g)) if g is not None and self.finished else None
        if self.fault is not None:
            f = self.fault
            out["error"] = {
                "item": f.item,
                "deal": f.deal,
                "rule": f.rule,
                "message": f.message,
                "expected": f.expected,
                "found": f.found,
            }
        return out


def game_rule_ids(rules: Ruleset) -> tuple[str, str]:
    """(the rule id of the standings, the rule id of the game's end) for this game: the standard ids for
    a chip game of a fixed number of deals, the variant's own game rule otherwise."""
    v = variant_of(rules)
    entry = variant_classifiers().get(rules.variant)
    own = sorted(entry.game) if entry is not None else []
    standings = "R-GAME-CHIPS" if v.scoring == "chips" or not own else own[0]
    end = "R-GAME-DEALS" if (v.game_end == "deals" and v.game_over is None) or not own else own[0]
    return standings, end


def explain_game(verdict: GameVerdict) -> list[str]:
    """The game narrated for a person (``comet replay --explain`` of a game record)."""
    from comet.notation import seat_name
    from comet.records.deal_record import explain_lines

    lines = [f"{seat_name(verdict.first_dealer)} deals first."]
    for i, d in enumerate(verdict.deals):
        lines.append(f"Deal {i}:")
        lines.extend("  " + line for line in explain_lines(d.verdict))
        if d.after is not None:
            lines.append("  Standings: " + ", ".join(f"{seat_name(s)} {b}" for s, b in enumerate(d.after.balances)))
    f = verdict.fault
    if f is not None:
        lines.append(
            f"{f.item}: {f.rule}: {f.message} (expected {json.dumps(f.expected)}, found {json.dumps(f.found)})"
        )
    elif verdict.finished and verdict.game is not None:
        won = winners(verdict.game)
        lines.append("Winner" + ("s: " if len(won) > 1 else ": ") + " and ".join(seat_name(s) for s in won) + ".")
    else:
        lines.append("The game goes on.")
    return lines


#: The variables of a game's ITF trace: one state before the first deal, then one after each deal.
