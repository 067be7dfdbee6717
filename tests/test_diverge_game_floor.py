"""Issue 17, item 4: the premises behind the game witnesses' size bounds and the inert starting chips.

- ``game_search.game_floor``: in a game to a target a game asked for one deal is the same under either reading
  of RUL-2P-END and RUL-COMMIT-C-TARGET (R-2P-GAME, R-COMMIT-C-GAME); in Commit (000) a seat pays at most
  ``most_paid_in_a_deal`` chips in a deal (R-COMMIT-H-POOL, R-COMMIT-H-CAUGHT, R-COMMIT-H-KINGS-HELD,
  R-COMMIT-H-KING-PAID, R-COMMIT-H-NINE-PAID), so RUL-INSOLVENCY needs several deals to matter.
- ``witness.argued_inert``: RUL-STARTING-CHIPS cannot matter under RUL-INSOLVENCY = debt (R-GAME-CHIPS,
  R-GAME-WINNER).
- ``game_search.game_witness`` keeps the smallest game it found when its time runs out, and a stored witness
  when no smaller game differs.
Each premise check is shown to fail on a planted bug.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from comet import game as game_mod
from comet.diverge import game_search
from comet.diverge import witness as wmod
from comet.diverge.game_search import game_difference, game_floor, game_points, game_proof, game_witness
from comet.diverge.labels import claimed_difference
from comet.diverge.pairs import Pair, all_pairs, pairs_for
from comet.diverge.policies import make_policy
from comet.diverge.records import Bound, Witness
from comet.diverge.store import load, pair_for, proof_of, witness_of
from comet.game import deal_payments, first_dealer_draw, new_game, next_deal, play_deal
from comet.games.commit_hoyle import rules as hoyle
from comet.policy import Policy
from comet.presets import preset
from comet.records.deal_record import parse_record
from comet.ruleset import Ruleset
from comet.state import DealState, GameState

ENTRIES = load()


def _pair(field: str, preset_name: str, value: str) -> Pair:
    return next(p for p in pairs_for(field, [preset_name]) if str(p.value_b).lower() == value)


# --------------------------------------------------------------------- one deal ends a game to a target


def one_deal_differences(pair: Pair, seeds: range) -> list[tuple[int, str]]:
    """Seeded games asked for one deal that differ under the pair's readings (the premise: none)."""
    return [
        (seed, policy)
        for seed in seeds
        for policy in ("simple", "hoarder")
        if game_difference(pair, 2, 1, seed, policy) is not None
    ]


@pytest.mark.parametrize("field,preset_name,value", [("two_player_end", "two_player", "equal_deals")])
def test_a_game_of_one_deal_ends_after_it_under_either_reading(field: str, preset_name: str, value: str) -> None:
    """R-2P-GAME: seed 13 (simple) reaches 121 in its first deal, and asked for one deal the game is the
    same under both readings; asked for two, equal_deals plays a second deal (the stored witness)."""
    pair = _pair(field, preset_name, value)
    assert one_deal_differences(pair, range(20)) == []
    assert game_points(pair.a, 2, None, 13, "simple")[-1] == ("deals played", 1)
    assert game_difference(pair, 2, 2, 13, "simple") is not None


def test_planted_end_check_before_the_deals_asked_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: a game that asks the variant's end (first to 121, after equal deals) before the deals asked
    lets a one-deal game go on under equal_deals, and the premise check sees it."""
    from comet.variant import variant_of

    def target_first(game: GameState) -> bool:
        hook = variant_of(game.rules).game_over
        if hook is not None and max(game.balances) >= 121:
            return hook(game)
        return game.deal_index >= game.deals

    monkeypatch.setattr(game_mod, "game_over", target_first)
    assert one_deal_differences(_pair("two_player_end", "two_player", "equal_deals"), range(20)) != []


# --------------------------------------------------------------------- the most a seat pays in Commit (000)


def overpaid(rules: Ruleset, players: int, seeds: range, bound: int) -> list[tuple[int, int, str]]:
    """(paid, seed, policy) of seeded deals of Commit (000) in which a seat pays more than ``bound`` chips."""
    out = []
    for seed, policy in itertools.product(seeds, ("hoarder", "random", "simple")):
        rng = random.Random(seed)
        _, dealer = first_dealer_draw(rules, players, rng)
        game = new_game(rules, players, players, dealer)
        pol: Policy = make_policy(policy, seed)
        final, _ = play_deal(next_deal(game, rng.getrandbits(64)), pol, game)
        paid = [0] * players
        for p in deal_payments(final):
            paid[p.payer] += p.amount
        if max(paid) > bound:
            out.append((max(paid), seed, policy))
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_no_seat_pays_more_than_the_bound_in_a_commit_deal(players: int) -> None:
    rules = preset("commit_hoyle").rules
    assert hoyle.most_paid_in_a_deal(rules, players) == 6 * players - 5
    assert overpaid(rules, players, range(60), hoyle.most_paid_in_a_deal(rules, players)) == []


def test_planted_dearer_kings_break_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: Kings costing 3 chips each (the bound computed for 1) are caught by the same check."""
    rules = preset("commit_hoyle").rules
    bound = hoyle.most_paid_in_a_deal(rules, 2)
    monkeypatch.setattr(hoyle, "KING_CHIPS", 3)
    assert overpaid(rules, 2, range(60), bound) != []


def test_insolvency_floor_is_stated_and_the_stored_witness_is_at_it() -> None:
    """RUL-INSOLVENCY in Commit (000): no game of fewer than 4 deals can differ (4 players: 19 chips a deal at
    most, 51 needed); the stored witness is a game built at that floor (``diverge.game_build``, tested in
    tests/test_diverge_game_build.py) and is claimed smallest in deals, then players."""
    pair = _pair("insolvency", "commit_hoyle", "pay_what_you_have")
    floor = game_floor(pair)
    assert floor is not None and floor[0] == (4, 4)
    e = ENTRIES[pair.key]
    w = witness_of(e)
    proof = proof_of(e)
    assert w is not None and (w.game_deals, w.players) == (4, 4) and w.game_record
    assert proof is not None and proof.proved and proof.over == ("deals", "players")


# --------------------------------------------------------------------- the starting chips under debt


CHIP_PRESETS = ("standard", "opera", "old_comet", "commit_hoyle")


def starting_chips_differences(insolvency: str, chips: tuple[int, ...]) -> list[tuple[str, int, int]]:
    """Seeded two-deal games of each chips preset whose course (``game_points``) differs between starting
    chips 50 and any of ``chips``, under ``insolvency`` (the premise of ``argued_inert``: none under debt)."""
    out = []
    for name in CHIP_PRESETS:
        base = preset(name).rules.with_overrides({"insolvency": insolvency, "starting_chips": 50})
        for seed, players, other in itertools.product(range(4), (2, 4), chips):
            rules = base.with_overrides({"starting_chips": other})
            if game_points(base, players, players, seed, "random") != game_points(
                rules, players, players, seed, "random"
            ):
                out.append((name, seed, other))
    return out


def test_starting_chips_change_no_game_under_debt() -> None:
    assert starting_chips_differences("debt", (0, 1, 100)) == []


def test_the_same_check_sees_the_starting_chips_when_payments_are_cut() -> None:
    """The check can fail: with pay_what_you_have and 1 starting chip, payments are cut."""
    assert starting_chips_differences("pay_what_you_have", (1,)) != []


def test_starting_chips_are_inert_by_argument_and_say_what_they_need() -> None:
    pair = _pair("starting_chips", "commit_hoyle", "100")
    argued = wmod.argued_inert(pair)
    assert argued is not None and argued[:2] == ("insolvency", "pay_what_you_have")
    proof = proof_of(ENTRIES[pair.key])
    assert proof is not None and proof.method == "inert" and proof.needs == "insolvency = pay_what_you_have"
    # planted: the same field under pay_what_you_have is not argued inert
    cut = Pair(
        pair.preset, pair.field, *(r.with_overrides({"insolvency": "pay_what_you_have"}) for r in (pair.a, pair.b))
    )
    assert wmod.argued_inert(cut) is None


# --------------------------------------------------------------------- the game search keeps what it found


def test_the_game_search_keeps_its_best_when_time_runs_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-GAME-WINNER (RUL-GAME-TIE): the clock runs out just after a tied game is found, while the search
    looks for one differing earlier; the tied game is kept (it was dropped before)."""
    pair = _pair("game_tie", "standard", "extra_round")
    clock = {"now": 0.0}
    real = game_search.game_difference

    def spy(
        p: Pair, players: int, deals: int | None, seed: int, policy: str, record: str = ""
    ) -> tuple[int, str] | None:
        diff = real(p, players, deals, seed, policy, record)
        if diff is not None:
            clock["now"] = 100.0
        return diff

    monkeypatch.setattr(game_search, "game_difference", spy)
    monkeypatch.setattr("comet.diverge.game_search.time.monotonic", lambda: clock["now"])
    w, _ = game_witness(pair, Bound(game_seeds=6, max_game_deals=2), deadline=50.0)
    assert w is not None and (w.game_deals, w.players) == (2, 2)
    assert game_proof(pair, w).proved


def test_a_stored_game_witness_is_kept_unless_a_smaller_game_differs() -> None:
    pair = _pair("insolvency", "commit_hoyle", "pay_what_you_have")
    # the seeded game stored before the built one (seed 43, random policy, 5 deals, 5 players)
    known = Witness("game", "game", "", 5, game_seed=43, game_deals=5, game_policy="random")
    assert claimed_difference(pair, known)[1] == "game"
    w, tried = game_witness(pair, Bound(game_seeds=1, max_game_deals=4), known=known)
    assert w == known and tried > 1  # the replay of known, and the smaller games
    # at the smallest game the pair allows nothing is smaller: kept without a game played
    tie = _pair("game_tie", "standard", "extra_round")
    stored = wmod.stored_game(tie)
    assert stored is not None and game_witness(tie, Bound(), known=stored) == (stored, 1)  # its replay
    assert pair_for(ENTRIES[tie.key]) == tie


# --------------------------------------------------------------------- escalation where the Comet never rises


def escalation_differences(base: Ruleset) -> list[tuple[str, int, int]]:
    """Seeded games of Old Comet whose course differs between ``base`` and ``base`` with another reading of
    RUL-ESCALATION-TRIGGER or RUL-ESCALATION-RESET (the premise of ``argued_inert``: none while the Comet's
    value never rises)."""
    out = []
    for field, value in (("escalate_on", "not_played"), ("comet_reset", "same_deal")):
        other = base.with_overrides({field: value})
        for seed, players in itertools.product(range(4), (2, 3)):
            if game_points(base, players, 2 * players, seed, "simple") != game_points(
                other, players, 2 * players, seed, "simple"
            ):
                out.append((field, seed, players))
    return out


def test_escalation_rulings_change_no_old_comet_game_without_escalation() -> None:
    """R-COMET-ESCALATE, R-OLD-MANILLE-PLAY: the manille's 10 is flat (RUL-OLD-ESCALATION = none), so the
    escalation rulings change no game; with plus_two the same check sees them."""
    old = preset("old_comet").rules
    assert escalation_differences(old) == []
    assert escalation_differences(old.with_overrides({"old_escalation": "plus_two"})) != []
    pair = _pair("escalate_on", "old_comet", "not_played")
    assert wmod.argued_inert(pair) == (
        "old_escalation",
        "plus_two",
        "the Comet's value never rises under the preset's readings, and the escalation rulings are read only to "
        "raise it, so every game is the same",
    )
    proof = proof_of(ENTRIES[pair.key])
    assert proof is not None and proof.method == "inert" and proof.needs == "old_escalation = plus_two"
    # where the Comet's value rises (the standard game) the same field is not argued inert
    assert wmod.argued_inert(_pair("escalate_on", "standard", "not_played")) is None


# --------------------------------------------------------------------- the Opera's rulings with the Opera off

#: Opera deals built for the witnesses (the first player goes out in the first turn; ``needs`` stores what
#: they show): (preset, the field they part under opera = true, the record without its rulings).
OPERA_DEALS: tuple[tuple[str, str, str], ...] = (
    (
        "two_player",
        "opera_draw",
        '{"format": 2, "variant": "two_player", "players": 2, "dealer": 0, "comet_value": 0, "hands": [["2C", "2S", "3C", "3S", "4C", "4S", "5C", "5S", "6C", "6S", "7C", "7S", "8S", "9S", "10S", "JS", "QS", "KS"], ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "10S", "JC", "JC", "QC", "QC", "QS", "KC", "KC", "KS"]], "dead": ["2S", "3S", "4S", "5S", "6S", "7S", "8C", "8S", "9D", "9S", "10C", "JS"], "actions": ["play 2C", "play 3C", "play 4C", "play 5C", "play 6C", "play 7C", "play 8C", "play 9C", "play 10C", "play JC", "play QC", "play KC", "play 10S", "play JC", "play QC", "play KC", "play QS", "play KS"]}',
    ),
    (
        "two_player",
        "opera_stack",
        '{"format": 2, "variant": "two_player", "players": 2, "dealer": 0, "comet_value": 0, "hands": [["2C", "2S", "3S", "3S", "4C", "4S", "4S", "5S", "6S", "8C", "8S", "10S", "JS", "QC", "QC", "QS", "KC", "KS"], ["2C", "3C", "4C", "5C", "6C", "7C", "7S", "8C", "8S", "9C", "9D", "9S", "10C", "10S", "JC", "JS", "QS", "KS"]], "dead": ["2S", "3C", "5C", "5S", "6C", "6S", "7C", "7S", "9S", "10C", "JC", "KC"], "actions": ["play 2C", "play 3C", "play 4C", "play 5C", "play 6C", "play 7C", "play 8C", "play 9C", "play 10C", "play JC", "play QS", "play KS", "play 7S", "play 8S", "play 9S", "play 10S", "play JS", "play 9D as Q"]}',
    ),
    (
        "old_comet",
        "old_opera_caught",
        '{"format": 2, "variant": "old_comet", "players": 5, "dealer": 0, "comet_value": 10, "hands": [["AD", "AH", "AS", "4S", "7H", "8H", "9D", "JC", "QC"], ["5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"], ["2H", "3H", "4C", "4H", "5C", "6H", "9C", "10C", "QD"], ["3C", "3D", "4D", "5H", "8D", "9H", "10D", "10H", "KC"], ["2S", "3S", "6C", "6D", "7C", "7D", "8C", "QH", "KH"]], "dead": ["AC", "2C", "2D", "5D", "JD", "JH", "KD"], "actions": ["play 5S", "play 6S", "play 7S", "play 8S", "play 9S", "play 10S", "play JS", "play QS", "play KS"]}',
    ),
)


def opera_leaks(opera: bool) -> list[str]:
    """The Opera deals on which some reading of an Opera ruling the preset reads changes what happens, with
    ``opera`` as given (the premise of ``argued_inert``: none while the Opera is off)."""
    out = []
    for name, _, text in OPERA_DEALS:
        rec = parse_record(json.loads(text))
        for p in all_pairs([name]):
            if p.field not in wmod.OPERA_RULINGS:
                continue
            a = p.a.with_overrides({"opera": opera})
            pair = Pair(name, p.field, a, a.with_overrides({p.field: p.value_b}))
            w = Witness(
                "deal", "", "", rec.players, rec.dealer, "", rec.comet_value or 0, rec.hands, rec.dead, rec.actions
            )
            try:
                claimed_difference(pair, w)
            except ValueError:
                continue
            out.append(p.key)
    return out


def test_opera_rulings_change_no_deal_while_the_opera_is_off() -> None:
    """R-OPERA-FIRST-TURN, R-OPERA-DRAW, R-OPERA-DOUBLE: on deals where the first player goes out in the first
    turn, no reading of an Opera ruling changes anything with opera off; with it on, each deal parts the
    readings it was built for."""
    assert opera_leaks(False) == []
    on = opera_leaks(True)
    assert {f"{name}/{field}" for name, field, _ in OPERA_DEALS} <= {k.split("=")[0] for k in on}, on


def test_planted_opera_check_ignoring_the_switch_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: an Opera recognised whatever ``opera`` says (R-OPERA-FIRST-TURN without the switch) makes the
    Opera's rulings change the deals with the Opera off, and the premise check sees it."""
    from comet.games.old_comet import rules as old_rules
    from comet.games.opera import rules as opera_rules

    def any_opera(state: DealState) -> bool:
        return not state.drawn and state.winner == opera_rules.first_seat(state) and state.turn == 0

    monkeypatch.setattr(opera_rules, "is_opera", any_opera)
    monkeypatch.setattr(old_rules, "is_opera", any_opera)
    assert opera_leaks(False) != []


def test_opera_rulings_are_inert_by_argument_where_no_encoding_covers_the_opera() -> None:
    for key in ("two_player/opera_draw=never", "old_comet/opera_stack=highest", "old_comet/old_opera_bonus=doubled"):
        pair = pair_for(ENTRIES[key])
        argued = wmod.argued_inert(pair)
        assert argued is not None and argued[:2] == ("opera", "true")
        proof = proof_of(ENTRIES[key])
        assert proof is not None and proof.method == "inert" and proof.needs == "opera = true", key
    on = pair_for(ENTRIES["opera/opera_draw=never"])
    assert wmod.argued_inert(on) is None  # the Opera on: not argued inert (it has a witness)


def test_a_search_afresh_keeps_the_built_opera_witness(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-OPERA-DRAW: ``comet diverge --search`` on an argued-inert pair keeps the stored text naming the built
    witness (a sampled search does not find such hands); planted: a stored text naming none is not kept."""
    from comet.diverge.records import Bound as B

    key = "two_player/opera_draw=never"
    pair = pair_for(ENTRIES[key])
    proof = proof_of(ENTRIES[key])
    assert proof is not None
    assert wmod.needs(pair, B(seconds=1)) == ("opera = true", proof.text)
    bare = {k: dict(e) for k, e in ENTRIES.items()}
    bare[key]["proof"] = {**ENTRIES[key]["proof"], "text": "inert: needs opera = true (no witness)"}  # type: ignore[dict-item]
    monkeypatch.setattr(wmod, "load", lambda: bare)
    got = wmod.needs(pair, B(seeds=1, depth=1, nodes=10, random_playouts=0, seconds=1))
    assert got is not None
    label, text = got
    assert label == "opera = true" and text != proof.text and text.startswith("inert: needs opera = true (")
