"""The refinement check's comparison on one concrete state: the model's legal actions, successors, returns
and points against the encoding's (``compare``), with the step in words where they differ."""

from __future__ import annotations

from collections.abc import Sequence

from comet import engine
from comet.state import Action, DealState, Payment

from comet_proofs.abstraction import describe_deal_state
from comet_proofs.crosscheck import check_state, encoded_successors
from comet_proofs.encoding import Encoding
from comet_proofs.refine_witness import Context, Witness
from comet_proofs.symbolic import AbstractState


def payments_text(pays: Sequence[Payment]) -> str:
    return ", ".join(f"seat {p.payer} pays seat {p.payee} {p.amount} ({p.rule})" for p in pays) or "none"


def check_witness(ctx: Context, w: Witness) -> list[str]:
    """Compare the model with the encoding on the witness state (``compare``)."""
    head = f"{w.preset}: class '{w.cls}' ({w.players} players, "
    head += f"step: {w.action}; readings: " + ", ".join(f"{k}={v}" for k, v in w.readings) + ")"
    return compare(ctx, w.state, head)


def compare(ctx: Context, state: DealState, head: str, invariant: bool = False) -> list[str]:
    """The model against the encoding on ``state``: the successor sets (fast, with the prepared solver;
    on a difference ``check_state`` gives the full report), the step bound, and the returns and points of
    every finished successor (and of ``state`` if it is finished); ``invariant``: also that the state's
    abstraction satisfies every part of ``Inv`` (for states not found by Z3)."""
    enc = ctx.enc
    problems: list[str] = []
    before = enc.abstract(state)
    legal = engine.legal_actions(state)
    # each successor computed once (the model's step may search a whole deal's rest)
    afters = [(act, engine.apply(state, act, legal=legal)) for act in legal]
    abstracts = [enc.abstract(after) for _, after in afters]
    same = ctx.same_successors(before, state.rules, set(abstracts))
    bound, _, _ = ctx.closed(before, state.rules, scores=False)
    broken = ctx.broken_parts(before) if invariant else []
    _, problem = (0, None) if same and not broken and bound == engine.step_bound(state) else check_state(enc, state)
    if problem is not None:
        problems.append(
            f"{head}: the model's successors differ from the encoding's\n{problem}{step_detail(enc, state)}"
        )
    finished: list[tuple[Action | None, DealState, AbstractState]] = [(None, state, before)] if state.terminal else []
    finished += [(act, after, a) for (act, after), a in zip(afters, abstracts, strict=True)]
    for act, after, abstract in finished:
        if not after.terminal:
            continue
        _, enc_returns, enc_points = ctx.closed(abstract, after.rules)
        got_returns, got_points = engine.returns(after), engine.deal_points(after)
        shape = enc.settlement_problems(after)
        if enc_returns != got_returns or enc_points != got_points or shape:
            step = after.payments[len(state.payments) :]
            where = "the finished deal" if act is None else f"after '{act}' the deal is over and"
            problems.append(
                f"{head}: {where} the model's payments differ from the encoding's:\n"
                f"  model returns {got_returns}, encoding returns {enc_returns}; "
                f"model points {got_points}, encoding points {enc_points}\n"
                + "".join(f"  {x}\n" for x in shape)
                + f"  the model's payments for the step: {payments_text(step)}\n"
                f"  the model's settlement: {payments_text(engine.settlement(after))}\n"
                f"state before the step:\n{describe_deal_state(state)}"
            )
    return problems


def step_detail(enc: Encoding, state: DealState) -> str:
    """For each legal action whose successor the encoding forbids: the payments the model made, and the
    chips of the encoding's successors that move the same cards."""
    allowed, _ = encoded_successors(enc, state)
    lines: list[str] = []
    for act in engine.legal_actions(state):
        after = engine.apply(state, act)
        got = enc.abstract(after)
        if got in allowed:
            continue
        same = [
            x for x in allowed if (x.hands, x.played, x.comet, x.extra) == (got.hands, got.played, got.comet, got.extra)
        ]
        theirs = "; ".join(f"chips {x.chips}" for x in same) or "no successor moving the same cards"
        lines.append(
            f"- model '{act}': payments {payments_text(after.payments[len(state.payments) :])}, chips {got.chips}; "
            f"encoding: {theirs}"
        )
    return ("\nper action:\n" + "\n".join(lines)) if lines else ""
