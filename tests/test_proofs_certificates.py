"""Stored Z3 models (comet_proofs.certificates, spec/proofs.md "Certificates"): ``comet verify`` checks a stored
witness or optimum instead of searching for it, falls back to the search (and says so) when it no longer fits,
gets the same verdicts and tables as the search, and the committed files are current for every preset."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
import z3
from comet import engine
from comet.presets import PRESETS
from comet.state import DealState, Payment
from comet_proofs import certificates, certify
from comet_proofs.bounds import bounds, maxima, typical_players
from comet_proofs.certificates import UPDATE, Certificates, StoredOptimum, StoredWitness, fits, model_of
from comet_proofs.refine import RefineResult, refine

CLASS = "pass, the turn goes on to the next seat"


def table(result: RefineResult) -> tuple[object, ...]:
    """What the verdict and the table row of a refinement check are made of."""
    per_class = tuple((c.name, len(c.witnesses), c.missing, c.mismatches) for c in result.classes)
    return (result.covered, result.witnesses, result.random_states, result.ok, tuple(result.failures()), per_class)


def test_a_model_is_a_certificate_only_if_every_formula_is_true_on_it() -> None:
    x, b = z3.Int("x"), z3.Bool("b")
    assert fits(model_of({"x": 3, "b": True}), [x > 2, b])
    assert not fits(model_of({"x": 3}), [x > 2, b])  # b not stored: false
    assert not fits(model_of({"x": 1, "b": True}), [x > 2, b])
    assert fits(model_of({}), [x == 0])  # a constant not stored is 0


def test_a_stored_optimum_is_used_only_when_attained_and_proved() -> None:
    """The value of a current certificate is returned as it is; one whose model does not attain it, or whose
    value is not the optimum (a model attains it, but Z3 finds a larger one), is stale: the optimum is
    searched afresh (``Optimize``) and a note names the command that refreshes the files."""
    x, y = z3.Int("x"), z3.Int("y")
    constraints = [x >= 0, y >= 0, x + y <= 7, x <= 3]
    good = StoredOptimum((3, 7), ({"x": 3}, {"y": 7}))
    certs = Certificates("toy", optima={"k": good})
    assert maxima(certs, "k", constraints, [x, x + y]) == [3, 7]
    assert certs.used == 1 and not certs.notes
    for tampered, why in (
        (StoredOptimum((3, 6), ({"x": 3}, {"y": 7})), "no longer attains"),
        (StoredOptimum((2, 7), ({"x": 2}, {"y": 7})), "the optimum is larger now"),
    ):
        certs = Certificates("toy", optima={"k": tampered})
        assert maxima(certs, "k", constraints, [x, x + y]) == [3, 7]
        assert certs.used == 0
        assert len(certs.notes) == 1 and why in certs.notes[0] and UPDATE in certs.notes[0], certs.notes


def test_a_tampered_witness_is_detected_and_the_search_used() -> None:
    """A stored witness whose model no longer satisfies ``Inv ∧ T ∧ guard`` (here: a seat given a card
    count no hand can have) is not used: the class is witnessed by Z3's search as without certificates,
    with the same verdict, and the note says the certificate is stale and how to refresh it."""
    stored = Certificates.stored("two_player")
    key = next(k for k in stored.witnesses if k.startswith(CLASS + " |"))
    good = stored.witnesses[key]
    bad = StoredWitness(good.players, good.free, {**good.values, "s.hand0.5": 99})
    tampered = replace(stored, witnesses={**stored.witnesses, key: bad}, notes=[])
    only = (CLASS,)
    searched = refine("two_player", random_deals=0, only=only, certificates=Certificates.searching("two_player"))
    checked = refine("two_player", random_deals=0, only=only, certificates=tampered)
    assert checked.ok and table(checked) == table(searched)
    assert checked.certified < checked.witnesses
    assert any(key in n and "stale" in n and UPDATE in n for n in checked.certificate_notes), checked.certificate_notes
    assert not searched.certificate_notes


def test_a_missing_certificate_is_searched_and_said() -> None:
    empty = Certificates("two_player")
    result = refine("two_player", random_deals=0, only=(CLASS,), certificates=empty)
    assert result.ok and result.certified == 0
    assert result.certificate_notes and all("missing" in n for n in result.certificate_notes)


def test_with_current_certificates_the_verdicts_and_tables_are_the_searchs() -> None:
    """The refinement check and the bounds on the committed certificates: the same classes covered,
    witnesses, verdicts and failures, and the same bounds, as searching every answer afresh; every witness
    and every optimum not marked for searching comes from a certificate."""
    preset = "two_player"
    searched = refine(preset, certificates=Certificates.searching(preset))
    checked = refine(preset)
    assert table(checked) == table(searched)
    assert checked.certified == checked.witnesses and not checked.certificate_notes
    for name in ("two_player", "opera"):
        n = typical_players(name)
        fresh = bounds(name, players=(n,), deals=20, certificates=Certificates.searching(name))
        stored = Certificates.stored(name)
        got = bounds(name, players=(n,), deals=20, certificates=stored)
        assert got == fresh, name
        assert stored.used == sum(1 for o in stored.optima.values() if not o.search) and not stored.notes


def test_a_planted_bug_in_the_model_is_caught_on_a_certified_witness(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-SETTLE-COMET-LAST: the certificate replaces the search for the state only; the model is compared
    with the encoding on it as before, so a settlement planted x3 instead of x4 after going out on the
    Comet as a 9 is caught on the stored witnesses."""
    real = engine.settlement

    def settlement(state: DealState) -> tuple[Payment, ...]:
        pays = real(state)
        if state.out_wild_as != 9:
            return pays
        return tuple(Payment(p.payer, p.payee, p.amount * 3 // 4, p.rule) for p in pays)

    monkeypatch.setattr(engine, "settlement", settlement)
    result = refine("standard", random_deals=0, only=("the Comet played last as a 9",))
    assert result.witnesses and result.certified == result.witnesses and not result.certificate_notes
    assert not result.ok and "the model's payments differ from the encoding's" in "\n".join(result.failures())


def test_the_committed_certificates_are_current_for_every_preset() -> None:
    """Every witness and optimum ``comet verify`` asks for has a stored certificate that still fits the
    encoding (else verify searches it afresh and is slower): refresh them with the command in the message."""
    notes = certify.check(sorted(PRESETS))
    assert not notes, f"stale certificates: run `{UPDATE}` and commit proofs/comet_proofs/certified/\n" + "\n".join(
        notes
    )


def test_the_files_are_versioned_and_name_their_command() -> None:
    for name in sorted(PRESETS):
        data = json.loads((certificates.FOLDER / f"{name}.json").read_text(encoding="utf-8"))
        assert data["format"] == certificates.FORMAT and data["preset"] == name and data["command"] == UPDATE
