"""Issue 17, item 4: witnesses of readings that part only where a hand is emptied, proved smallest by
construction (``comet.diverge.going_out``): RUL-OPERA (R-OPERA-FIRST-TURN, R-OPERA-DOUBLE, R-OPERA-DRAW)
and RUL-COMMIT-H-STAKE (R-COMMIT-H-POOL).

The argument's premises are checked on played deals, and each check is shown to fail on a planted bug:
- the readings part nowhere but at the first player's going out before any pass (the Opera), or at the
  end of a deal with a winner (the stake);
- no action puts down more than ``most_in_a_play`` cards, several only of one rank (R-FOUR-OF-A-KIND), and
  the deal's first action no more than ``first_play_most`` (RUL-QUARTET-LEAD);
- the floor of ``standard/opera=true`` is what Z3 proved over every deal (``comet_proofs.smallest``).
"""

from __future__ import annotations

import itertools
import random

import pytest
from comet import engine
from comet.cards import rank_of
from comet.diverge import going_out
from comet.diverge.deal_search import as_b
from comet.diverge.labels import claimed_difference
from comet.diverge.lockstep import legal_split, step_both
from comet.diverge.pairs import Pair, pairs_for
from comet.diverge.records import Witness, cards_played
from comet.diverge.size_proof import prove
from comet.diverge.store import load, proof_of, witness_of
from comet.state import DealState, Payment

#: a floor's Z3 proof is checked (the bare install's run leaves this module out)
NEEDS_EXTRAS = ("proofs",)

ENTRIES = load()

#: every pair the argument covers with a witness built (the Opera's rulings where the Opera is on)
PAIRS: tuple[tuple[str, str], ...] = (
    ("opera", "standard"),
    ("opera", "opera"),
    ("opera", "two_player"),
    ("opera", "old_comet"),
    ("opera_caught", "opera"),
    ("opera_draw", "opera"),
    ("opera_comet_bonus", "opera"),
    ("opera_stack", "opera"),
    ("comet_bonus_last", "standard"),
    ("comet_bonus_last", "opera"),
    ("old_bonus_last", "old_comet"),
    ("old_manille_last", "old_comet"),
    ("old_caught", "old_comet"),
    ("old_caught_double", "old_comet"),
    ("old_caught_nine", "old_comet"),
    ("old_court_points", "old_comet"),
    ("commit_stake", "commit_hoyle"),
    ("commit_king_payer", "commit_hoyle"),
    ("commit_comet_out", "commit_cats"),
    ("red_nines_out", "red_nines"),
    ("red_nines_many", "red_nines"),
)


def _pair(field: str, preset_name: str) -> Pair:
    return next(iter(pairs_for(field, [preset_name])))


def parted_elsewhere(pair: Pair, seeds: range) -> list[str]:
    """Deals played in lockstep (random choices, the wild card kept for last where it can be) whose
    readings part somewhere the argument says they cannot: anywhere but at a play that empties a hand
    (by the wild card alone, for ``Where.wild_last``).  The premise: none."""
    bad: list[str] = []
    counts = engine.player_counts(pair.a)
    where = going_out.WHERE[pair.field]
    for seed in seeds:
        n = counts[seed % len(counts)]
        sa = engine.shuffled_deal(pair.a, n, seed % n, seed)
        sb = as_b(pair, sa)
        rng = random.Random(seed)
        while not sa.terminal:
            if legal_split(sa, sb) is not None:
                bad.append(f"seed {seed}: the legal actions differ")
                break
            legal = engine.legal_actions(sa)
            tame = [a for a in legal if not a.as_rank] if rng.random() < 0.8 else []
            action = rng.choice(tame or legal)
            before = sa
            sa, sb, kind = step_both(sa, sb, action)
            if kind is not None:
                seat = before.to_move
                emptied = bool(before.hands[seat]) and not sa.hands[seat]
                wild = len(action.cards) == 1 and action.cards[0] in before.wild
                if not emptied or (where.wild_last and not wild):
                    bad.append(f"seed {seed}: parted at step {before.steps} on '{action}' ({kind})")
                break
    return bad


@pytest.mark.parametrize("field,preset_name", PAIRS)
def test_the_readings_part_only_where_a_hand_is_emptied(field: str, preset_name: str) -> None:
    assert parted_elsewhere(_pair(field, preset_name), range(40)) == []


def test_planted_bonus_on_every_comet_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the Comet's bonus multiplied on every play of it under comet_bonus_last = multiplied, not only
    as the last card (R-COMET-BONUS); the same check sees the readings part before a hand is emptied."""
    real = engine.comet_bonus

    def every_play(state: DealState, seat: int, last_card: bool, as_rank: int) -> tuple[Payment, ...]:
        return real(state, seat, True, as_rank)

    monkeypatch.setattr(engine, "comet_bonus", every_play)
    assert parted_elsewhere(_pair("comet_bonus_last", "standard"), range(40)) != []


def test_the_check_sees_a_ruling_read_during_play() -> None:
    """The same check on a Commit (000) ruling read during play (RUL-COMMIT-H-REST: which cards stop a run)
    reports it: it is not a ruling read only in the settlement."""
    rest = _pair("commit_rest", "commit_hoyle")
    pair = Pair("commit_hoyle", "commit_stake", rest.a, rest.b)
    assert parted_elsewhere(pair, range(40)) != []


# --------------------------------------------------------------------- the most cards one action puts down


def overfull_plays(pairs: list[Pair], seeds: range) -> list[str]:
    """Actions on deals played under each pair's rule set A that put down more cards than
    ``most_in_a_play`` claims, several cards of more than one rank, or a first action of more than
    ``first_play_most``, and plays after which another player is to move (R-TURN-END: the turn passes
    only on a pass).  The premise: none."""
    bad: list[str] = []
    for pair, seed in itertools.product(pairs, seeds):
        counts = engine.player_counts(pair.a)
        n = counts[seed % len(counts)]
        s = engine.shuffled_deal(pair.a, n, 0, seed)
        most, lead = going_out.most_in_a_play(pair, n), going_out.first_play_most(pair, n)
        assert most is not None and lead is not None, pair.key
        rng = random.Random(seed)
        first = True
        while not s.terminal:
            legal = engine.legal_actions(s)
            for a in legal:
                if len(a.cards) > (lead if first else most):
                    bad.append(f"{pair.key} seed {seed}: '{a}' puts down {len(a.cards)}")
                if len({rank_of(c) for c in a.cards}) > 1:
                    bad.append(f"{pair.key} seed {seed}: '{a}' mixes ranks")
            # mostly the plays of most cards, so the largest groups are reached
            widest = max(len(a.cards) for a in legal)
            wide = [a for a in legal if len(a.cards) == widest]
            action = rng.choice(wide) if rng.random() < 0.7 else rng.choice(legal)
            after = engine.apply(s, action)
            if action.cards and not after.terminal and after.to_move != s.to_move:
                bad.append(f"{pair.key} seed {seed}: the turn passed on '{action}'")  # R-TURN-END
            s, first = after, False
    return bad


def test_no_action_puts_down_more_than_the_bound() -> None:
    assert overfull_plays([_pair(f, p) for f, p in PAIRS], range(30)) == []


def test_planted_one_card_claims_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the standard game claimed to be played one card at a time (its sets of four, or of the three
    natural 9s, break the claim), and Red Nines' first play claimed a single card (R-RED9-FIRST-PLAY lets it
    be a group): the check sees both."""
    monkeypatch.setattr(going_out, "most_in_a_play", lambda pair, players: 1)
    assert overfull_plays([_pair("opera", "standard")], range(30)) != []
    monkeypatch.setattr(going_out, "first_play_most", lambda pair, players: 1)
    assert overfull_plays([_pair("red_nines_many", "red_nines")], range(10)) != []
    monkeypatch.undo()
    nines = next(iter(pairs_for("red_nines_king", ["red_nines"])))
    assert going_out.most_in_a_play(nines, 4) is None  # nothing claimed where the family's own actions rule


# --------------------------------------------------------------------- the floor and the built witnesses


@pytest.mark.parametrize("field,preset_name", PAIRS)
def test_the_built_witness_is_at_the_floor_and_replays(field: str, preset_name: str) -> None:
    pair = _pair(field, preset_name)
    w = going_out.going_out_witness(pair)
    assert w is not None
    at = going_out.floor(pair)
    assert at is not None
    m, n = at
    assert (len(w.actions), w.players, cards_played(w)) == (m, n, going_out.hand_size(pair.a, n))
    assert claimed_difference(pair, w) == (m - 1, w.kind, w.detail)
    proof = going_out.going_out_proof(pair, w)
    assert proof is not None and proof.proved and proof.over == ("actions", "players", "cards")


def test_floors_stated() -> None:
    """Five players hold 9 cards (two players 18): lead and two sets of four (R-FOUR-OF-A-KIND); with the
    wild card last, four players' 10 cards: a lead, two sets of four and the wild card; Commit at eight
    players holds 6 cards, played one at a time."""
    assert going_out.floor(_pair("opera", "standard")) == (3, 5)
    assert going_out.floor(_pair("opera", "old_comet")) == (3, 5)
    assert going_out.floor(_pair("opera", "two_player")) == (6, 2)
    assert going_out.floor(_pair("commit_stake", "commit_hoyle")) == (6, 8)
    assert going_out.floor(_pair("commit_king_payer", "commit_hoyle")) == (6, 8)
    assert going_out.floor(_pair("comet_bonus_last", "standard")) == (4, 4)
    assert going_out.floor(_pair("old_manille_last", "old_comet")) == (4, 4)
    assert going_out.floor(_pair("commit_comet_out", "commit_cats")) == (6, 8)
    # Red Nines: 13 cards at every count, the first play every natural card of a rank (8 at eight players)
    assert going_out.floor(_pair("red_nines_many", "red_nines")) == (6, 8)


def test_the_floor_agrees_with_z3() -> None:
    """standard/opera=true is in the standard encoding, and Z3 proved its witness smallest over every deal:
    the same size as the floor argued here."""
    e = ENTRIES["standard/opera=true"]
    proof, w = proof_of(e), witness_of(e)
    assert proof is not None and proof.method == "z3" and proof.proved and w is not None
    pair = _pair("opera", "standard")
    at = going_out.floor(pair)
    assert at is not None
    m, n = at
    assert (len(w.actions), w.players, cards_played(w)) == (m, n, going_out.hand_size(pair.a, n))


def test_a_witness_above_the_floor_is_not_claimed() -> None:
    pair = _pair("opera", "old_comet")
    w = going_out.going_out_witness(pair)
    assert w is not None
    longer = Witness("deal", w.kind, w.detail, w.players, actions=(*w.actions, w.actions[-1]))
    assert going_out.going_out_proof(pair, longer) is None
    assert going_out.going_out_proof(_pair("comet_lead", "standard"), w) is None  # not a pair it argues about


def test_planted_lower_floor_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: a floor one action lower than the argument gives; no witness is built at it, so nothing is
    claimed (the sampled witness is kept, not proved)."""
    pair = _pair("opera", "old_comet")
    real = going_out.fewest_actions
    monkeypatch.setattr(going_out, "fewest_actions", lambda p, n: (real(p, n) or 1) - 1)
    assert going_out.going_out_witness(pair) is None
    kept, proof = prove(pair, None, None)
    assert kept is None and not proof.proved


@pytest.mark.parametrize("field,preset_name", PAIRS[1:])
def test_stored_witnesses_are_the_built_ones(field: str, preset_name: str) -> None:
    pair = _pair(field, preset_name)
    e = ENTRIES[pair.key]
    proof, w = proof_of(e), witness_of(e)
    built = going_out.going_out_witness(pair)
    assert proof is not None and proof.method == "construction" and proof.proved, proof
    assert proof.over == ("actions", "players", "cards")
    assert w is not None and built is not None and w.actions == built.actions and w.hands == built.hands
