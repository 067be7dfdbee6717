"""Writing game records: a seeded game played and written down (``record_game``), its ITF trace
(``game_trace``), and the text written to a file or stdout."""

from __future__ import annotations

from comet.engine import packs_in_rotation
from comet.errors import RecordError
from comet.game import Draw, game_over, new_game, pack_index, play_game, seats_in_play, winners
from comet.policy import Policy, simple_policy
from comet.presets import preset
from comet.records.deal_record import JsonObject, record_from_state
from comet.records.game_record import DealEntry, GameRecord
from comet.records.game_replay import replay_game
from comet.ruleset import Ruleset
from comet.state import Action, DealState, GameState


def record_game(
    rules: Ruleset,
    variant: str,
    players: int,
    deals: int | None,
    seed: int,
    policy: Policy = simple_policy,
) -> GameRecord:
    """Play a seeded game with ``comet.game.play_game`` and write down everything a game record holds."""
    draws: list[Draw] = []
    entries: list[DealEntry] = []
    dealers: list[int] = []

    def on_deal(start: DealState, actions: tuple[Action, ...], game: GameState) -> None:
        dealers.append(start.dealer)  # the first deal is dealt to every seat, so its seats are the game's
        entries.append(
            DealEntry(record_from_state(start, variant, actions), None, game.balances, game.comet_values, game.deals)
        )

    game = play_game(rules, players, deals, seed, policy, on_deal, draws.append)
    first_dealer = dealers[0] if dealers else game.dealer
    diff = rules.differences(preset(variant).rules)
    rulings = tuple(sorted((k, v) for k, v in diff.items() if isinstance(v, bool | int | str)))
    length = new_game(rules, players, deals, 0).deals
    return GameRecord(
        variant,
        rulings,
        players,
        length,
        draws[0] if draws else None,
        first_dealer,
        tuple(entries),
        game.balances,
        winners(game),
        True,
    )


GAME_ITF_VARS = (
    "mbt::actionTaken",
    "deal_index",
    "dealer",
    "pack",
    "standings",
    "comet_values",
    "length",
    "finished",
    "winners",
    "net",
)


def game_trace(rec: GameRecord, source: str) -> JsonObject:
    """The ITF trace of a legal game record (written by itf-py): the game before its first deal, then the
    standings and carried values after each deal; ``#meta.record`` holds the game record."""
    from itf_py import State, Trace, trace_to_json

    verdict = replay_game(rec)
    if verdict.fault is not None:
        raise ValueError(f"the game record is not legal: {verdict.fault.item}: {verdict.fault.rule}")
    rules = rec.ruleset()
    game = new_game(rules, rec.players, rec.length, rec.first_dealer)

    def values(g: GameState, taken: str, net: tuple[int, ...]) -> dict[str, object]:
        over = game_over(g)
        packs = packs_in_rotation(rules, len(seats_in_play(g)))
        return {
            "mbt::actionTaken": taken,
            "deal_index": g.deal_index,
            "dealer": g.dealer,
            "pack": packs[pack_index(g)].name,
            "standings": list(g.balances),
            "comet_values": list(g.comet_values),
            "length": g.deals,
            "finished": over,
            "winners": list(winners(g)) if over else [],
            "net": list(net),
        }

    states = [State({"index": 0}, values(game, "init", (0,) * rec.players))]
    for i, d in enumerate(verdict.deals, 1):
        if d.after is None:
            break
        states.append(State({"index": i}, values(d.after, "deal", d.after.history[-1])))
    meta = {
        "format": "ITF",
        "format-description": "https://apalache-mc.org/docs/adr/015adr-trace.html",
        "source": source,
        "description": f"a {rec.variant} game of {len(rec.deals)} deals",
        "record": rec.to_json(),
    }
    out: JsonObject = trace_to_json(Trace(meta=meta, params=[], vars=list(GAME_ITF_VARS), states=states, loop=None))
    return out


def write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` ('-': stdout); RecordError kind ``io`` if it cannot be written."""
    import sys

    if path == "-":
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise RecordError("io", f"cannot write {path}: {e}") from None
