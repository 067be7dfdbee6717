"""Issue 21's walk-through, tried: a new game family added from one folder, with no shared module edited.

The toy game ("Comet in one pack", invented for this test) is the standard play with only the black
pack and a Comet worth a fixed 5 chips that never rises.  Its folder holds the three files a family
needs (``__init__.py``, ``rules.py`` with its ``Variant``, ``check.py`` with its independent
recomputation); the test puts the folder on ``comet.games``' search path, as a plug-in would be, and
then plays, fuzzes and checks it through the same engine, checker and fuzzer as every preset.
The folder also declares the ruling fields the game reads and its preset, so ``comet.preset("toy")``
finds it and the rulings that apply to it are derived from its declaration alone.
Its proofs folder (``comet_proofs/games/toy/``: ``__init__.py``, ``encoding.py``, ``classes.py``) goes on
``comet_proofs.games``' search path the same way: the registry finds its encoding, which the same
obligations as every preset's prove, and its behaviour classes, which the refinement check witnesses;
``comet vectors --preset toy`` writes its conformance vectors.
"""

from __future__ import annotations

import random
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from comet import engine
from comet.checks import check_of
from comet.checks.coverage import all_rule_ids
from comet.checks.play import check_game, play_checked
from comet.fuzz import check_deal, pick_policy
from comet.policy import random_policy
from comet.presets import PRESETS, preset
from comet.ruleset import Ruleset
from comet.variant import REGISTRY, applies, families_reading, variant_of

RULES = '''
    """The toy game: the standard play with the black pack only and a Comet worth a fixed 5."""

    from comet.cards import black_pack
    from comet.games.opera.rules import OPERA
    from comet.ruleset import (
        CHIP_RULINGS,
        EVERY_GAME_RULINGS,
        FIXED_LENGTH_RULINGS,
        STANDARD_PLAY_RULINGS,
        Ruleset,
    )
    from comet.variant import Preset, Variant, register

    TOY = register(
        Variant(
            name="toy",
            player_counts=(3, 4),
            comet_value=5,
            comet_escalates=False,
            packs=lambda rules, players: (black_pack(),),
            options=(OPERA,),
            rulings=(*EVERY_GAME_RULINGS, *STANDARD_PLAY_RULINGS, *CHIP_RULINGS, *FIXED_LENGTH_RULINGS),
            presets=(Preset("toy", Ruleset(variant="toy"), "Comet in one pack, a Comet worth 5", ("test",)),),
        )
    )
'''
CHECK = '''
    """The toy game's recomputation: the standard table, the Comet's bonus, a Comet that stays at 5."""

    from comet.checks.game import chip_economy, chip_game_end
    from comet.checks.recompute import chips_only
    from comet.checks.registry import GameCheck, register_check
    from comet.games.standard.check import standard_settlement, standard_step

    CHECK = register_check(
        "toy",
        GameCheck(
            settlement=chips_only(standard_settlement),
            step=standard_step,
            economy=lambda before, start, final, after: chip_economy(before, final, after, 5, "Comet"),
            end=chip_game_end,
        ),
    )
'''
INIT = '''
    """The toy game family (a test's plug-in)."""

    from comet.games.toy import check, rules

    __all__ = ["check", "rules"]
'''

TOY = Ruleset(variant="toy")  # type: ignore[arg-type]


@pytest.fixture()
def toy_folder(tmp_path: Path) -> Iterator[Path]:
    """The toy game's folder, on ``comet.games``' search path for the test's duration."""
    import comet.games

    folder = tmp_path / "toy"
    folder.mkdir()
    for name, text in (("__init__.py", INIT), ("rules.py", RULES), ("check.py", CHECK)):
        (folder / name).write_text(textwrap.dedent(text))
    comet.games.__path__.append(str(tmp_path))
    try:
        yield folder
    finally:
        comet.games.__path__.remove(str(tmp_path))
        for mod in [m for m in sys.modules if m == "comet.games.toy" or m.startswith("comet.games.toy.")]:
            del sys.modules[mod]
        REGISTRY.pop("toy", None)
        PRESETS.pop("toy", None)
        from comet.checks.registry import CHECKS

        CHECKS.pop("toy", None)


ENCODING = '''
    """The toy game's encoding: the standard game's for three or four players.  RUL-COMET-BONUS-LAST and
    RUL-DEAL-SIZES are not the toy game's rulings (it plays their default readings), so neither is a Boolean."""

    import z3
    from comet_proofs.games.standard.encoding import StandardEncoding
    from comet_proofs.symbolic import NINE, PLAY_RULINGS, Readings, SymAction, SymState


    class ToyEncoding(StandardEncoding):
        name = "toy"
        player_counts = (3, 4)
        rulings = tuple(r for r in PLAY_RULINGS if r[0] != "comet_bonus_last")
        unquantified = (
            "deal_order", "first_dealer_tie", "first_dealer_wild", "insolvency", "starting_chips", "deal_count", "game_tie",
            "opera_draw", "opera_stack",
        )

        def bonus_amount(self, s: SymState, a: SymAction, out: z3.BoolRef, rd: Readings) -> z3.ArithRef:
            """R-COMET-BONUS, R-SETTLE-COMET-LAST: the Comet's bonus, multiplied when it is the last card."""
            cv = s.comet_value
            return z3.If(out, z3.If(a.rank == NINE, 4 * cv, 2 * cv), cv)


    ENCODING = ToyEncoding
'''
CLASSES = '''
    """The toy game's behaviour classes: the standard game's but the escalated Comet's (the toy's never rises)."""

    from comet_proofs.catalogue import BehaviourClass
    from comet_proofs.games.standard import classes as standard

    CLASSES: tuple[BehaviourClass, ...] = tuple(c for c in standard.CLASSES if c not in standard.ESCALATED)
'''
PROOFS_INIT = '''
    """The toy game for the proofs (a test's plug-in)."""

    from comet_proofs.games.toy import classes, encoding

    __all__ = ["classes", "encoding"]
'''


@pytest.fixture()
def toy_proofs(toy_folder: Path) -> Iterator[Path]:
    """The toy game's proofs folder, on ``comet_proofs.games``' search path for the test's duration."""
    import comet_proofs.games
    from comet_proofs.registry import ENCODINGS

    root = toy_folder.parent / "proofs"
    folder = root / "toy"
    folder.mkdir(parents=True)
    for name, text in (("__init__.py", PROOFS_INIT), ("encoding.py", ENCODING), ("classes.py", CLASSES)):
        (folder / name).write_text(textwrap.dedent(text))
    comet_proofs.games.__path__.append(str(root))
    try:
        yield folder
    finally:
        comet_proofs.games.__path__.remove(str(root))
        for mod in [m for m in sys.modules if m == "comet_proofs.games.toy" or m.startswith("comet_proofs.games.toy.")]:
            del sys.modules[mod]
        ENCODINGS.pop("toy", None)


def test_the_folder_is_found_and_plays_under_the_one_checker(toy_folder: Path) -> None:
    """R-PLAYERS, R-DEAL-SIZES, R-COMET-BONUS: the registry finds the folder by the ruleset's name; deals are
    dealt from the black pack alone and the Comet's bonus is 5; every deal passes the one checker."""
    assert variant_of(TOY).comet_value == 5 and check_of("toy") is not None
    assert engine.player_counts(TOY) == (3, 4)
    for seed in range(30):
        start = engine.shuffled_deal(TOY, 3 + seed % 2, seed % 3, seed)
        assert start.pack == "black" and start.comet_value == 5
        final, _, problems = play_checked(start, random_policy(random.Random(seed)))
        assert problems == [] and final.terminal


def test_the_folder_declares_its_rulings_and_its_preset(toy_folder: Path) -> None:
    """R-PACKS, RUL-PACKS: the preset and the rulings that apply come from the toy folder alone: a reading of a
    field the toy game does not declare (the packs' rotation; it has one pack) is refused, one it declares is taken,
    and the shared "which families read this field" includes the toy game."""
    assert preset("toy").rules == TOY and list(PRESETS)[-1] == "toy"
    assert applies("comet_lead", TOY.variant) and applies("opera", TOY.variant) and not applies("packs", TOY.variant)
    assert "toy" in families_reading("comet_lead") and "toy" not in families_reading("packs")
    assert TOY.with_overrides({"comet_lead": "any_rank"}).comet_lead == "any_rank"
    with pytest.raises(ValueError, match=r"ruling 'packs' \(RUL-PACKS\) does not apply to the toy game"):
        TOY.with_overrides({"packs": "black_only"})


def test_whole_games_and_the_fuzzer_run_it(toy_folder: Path) -> None:
    """R-GAME-DEALS, R-GAME-WINNER: whole games pass the checker's game invariants, and the fuzzer's deal
    check (every invariant after every step, rejections probed) finds nothing."""
    for seed in range(4):
        _, problems = check_game(TOY, 3, seed, deals=3)
        assert problems == []
    rng = random.Random(1)
    for seed in range(20):
        start = engine.shuffled_deal(TOY, 4, 0, seed)
        out = check_deal(start, pick_policy(rng), all_rule_ids(), rng, probes=2)
        assert out.failure == "" and not out.settlement_skipped


def test_a_planted_bug_in_the_toy_game_is_caught_by_its_own_check(toy_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R-COMET-BONUS: a toy engine that pays the Comet's bonus twice is caught by the toy folder's
    independent recomputation, with the amounts."""
    v = variant_of(TOY)
    monkeypatch.setitem(
        REGISTRY,
        "toy",
        replace(v, play_payments=lambda s, seat, a, out: engine.comet_bonus(s, seat, out, a.as_rank) * 2),
    )
    problems: list[str] = []
    for seed in range(40):
        start = engine.shuffled_deal(TOY, 3, 0, seed)
        _, _, problems = play_checked(start, random_policy(random.Random(seed)))
        if problems:
            break
    assert problems and "the Comet's bonus recomputed is" in problems[0]


def test_the_proofs_find_the_toy_encoding_and_prove_it(toy_proofs: Path) -> None:
    """R-END-OUT, R-COMET-BONUS, R-SETTLE-CAUGHT: the registry finds the toy folder's encoding and classes; every
    ruling that applies to the toy game is accounted for; the obligations are the standard game's, every one
    proved; fresh deals are initial states; every behaviour class has a witness on which the model agrees."""
    from comet_proofs.crosscheck import coverage_problems, crosscheck, sample_states
    from comet_proofs.dealt import check_dealt
    from comet_proofs.proofs import plan, run_all
    from comet_proofs.refine import classes_for, refine
    from comet_proofs.registry import encoding_for

    enc = encoding_for("toy")
    assert type(enc).__module__ == "comet_proofs.games.toy.encoding" and classes_for("toy")
    assert coverage_problems("toy", enc) == []
    results = run_all("toy", [3])
    assert [r.name for r in results] == [o.name for o in plan("standard", [3])]
    assert all(r.proved for r in results), [(r.name, r.counterexample) for r in results if not r.proved]
    assert check_dealt("toy").problems == ()
    assert crosscheck(enc, sample_states([3, 4], 2, 0, preset="toy")).ok
    found = refine("toy", players=(3,), random_deals=0)
    assert found.ok and found.covered == len(found.classes), found.failures()


def test_a_planted_bug_in_the_toy_encoding_fails_a_proof_readably(toy_proofs: Path) -> None:
    """R-SETTLE-CAUGHT: a toy encoding that forgets the doubling for a loser caught with the Comet fails the
    caught obligation, and the counterexample shows the readings, the payments and the finished deal."""
    import z3
    from comet_proofs.proofs import prove
    from comet_proofs.registry import encoding_for
    from comet_proofs.symbolic import Readings, SymState
    from comet_proofs.terms import scaled

    toy = type(encoding_for("toy"))

    class ForgetsCaught(toy):  # type: ignore[valid-type,misc]
        def settlement_amount(self, s: SymState, seat: int, rd: Readings) -> z3.ArithRef:
            points = scaled(self.hand_points(s, seat), self.out_multiplier(s, rd))
            return z3.If(z3.Or(s.winner < 0, s.winner == seat), 0, points)

    (caught,) = prove(ForgetsCaught(), 3, only=("caught",))
    assert not caught.proved and caught.counterexample is not None
    text = caught.counterexample
    assert "a loser pays double without holding the Comet, or not double holding it: pays" in text
    assert "readings:" in text and "state:" in text and "WINNER" in text


def test_comet_vectors_writes_the_toy_preset(toy_folder: Path, tmp_path: Path) -> None:
    """R-REC-FAULTS, R-GAME-DEALS: ``comet vectors --preset toy`` writes the toy game's replay, trace, golden,
    illegal, malformed and game vectors, each listed in the index with its digest, and each replay case
    replays to its expected output."""
    import hashlib
    import json

    from comet.cli import main
    from comet.records.deal_record import parse_record, replay_record

    out = tmp_path / "vectors"
    assert main(["vectors", "--preset", "toy", str(out)]) == 0
    index = json.loads((out / "index.json").read_text())
    assert index["presets"] == ["toy"]
    files = [f for f in index["files"] if f["preset"] == "toy"]
    assert {f["kind"] for f in files} >= {"replay", "trace", "golden", "illegal", "malformed", "game"}
    assert any(f["reading"] == "game_tie=extra_round" for f in files)
    for f in files:
        assert hashlib.sha256((out / f["path"]).read_bytes()).hexdigest() == f["sha256"]
    for f in [f for f in files if f["kind"] == "replay"][:5]:
        case = json.loads((out / f["path"]).read_text())
        assert replay_record(parse_record(case["record"])).to_json() == case["expected"]
