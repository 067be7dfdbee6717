"""Z3 helpers the encodings and the checks share: a symbolic index into a row (``at``, ``rank_at``), a
product kept linear (``scaled``), and walking a formula's terms (``subterms``, ``is_variable``,
``nonlinear_products``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import z3


def at(seq: Sequence[z3.ExprRef], index: z3.ArithRef) -> z3.ExprRef:
    """``seq[index]`` for a symbolic index known to be in range (an If-chain)."""
    out = seq[-1]
    for i in range(len(seq) - 2, -1, -1):
        out = z3.If(index == i, seq[i], out)
    return out


def scaled(x: z3.ArithRef, factor: z3.ArithRef | int) -> z3.ArithRef:
    """``x * factor`` as linear arithmetic.  A rule's multiplier (x2 caught, x4 after the Comet as a 9, a
    first-turn x2, ...) is built from integer constants by ``If``, ``+``, ``-`` and ``*``, so the product is
    pushed into its branches: ``x * If(c, 2, 4)`` becomes ``If(c, 2*x, 4*x)``.  A product of two
    symbolic terms makes Z3 reason about non-linear integer arithmetic, where it can search without end
    (a settlement zero-sum with a first-turn doubling timed out at 120 s; linear, it proves at once).  ValueError for a
    factor with a free variable in it (that product is non-linear whatever one does)."""
    if isinstance(factor, int):
        return x if factor == 1 else z3.IntVal(0) if factor == 0 else factor * x
    if z3.is_int_value(factor):
        return scaled(x, factor.as_long())
    if z3.is_app_of(factor, z3.Z3_OP_ITE):
        return z3.If(factor.arg(0), scaled(x, factor.arg(1)), scaled(x, factor.arg(2)))
    args = [factor.arg(i) for i in range(factor.num_args())]
    if z3.is_add(factor):
        return z3.Sum(*[scaled(x, f) for f in args])
    if z3.is_sub(factor):
        return scaled(x, args[0]) - z3.Sum(*[scaled(x, f) for f in args[1:]])
    if z3.is_app_of(factor, z3.Z3_OP_UMINUS):
        return -scaled(x, args[0])
    if z3.is_mul(factor):
        out = x
        for f in args:
            out = scaled(out, f)
        return out
    raise ValueError(f"not a constant factor (a product with it is non-linear): {factor}")


def indicator(x: z3.ArithRef, value: z3.ArithRef) -> z3.ArithRef:
    """``If(x == value, 1, 0)``, the same term (Z3's terms are hash-consed), built by Z3's C API directly: the
    card-level encodings build one per card and place for every state (51 x 11 at 8 players), and through
    the Python operators that was 37 ms a state against 5 ms (2026-12-02)."""
    ctx = x.ctx
    ref = ctx.ref()
    one, zero = z3.IntVal(1, ctx), z3.IntVal(0, ctx)
    # wrapped at once, so the equation is referenced (a term no wrapper holds may be freed by the next call)
    test = z3.BoolRef(z3.Z3_mk_eq(ref, x.as_ast(), value.as_ast()), ctx)
    return z3.ArithRef(z3.Z3_mk_ite(ref, test.as_ast(), one.as_ast(), zero.as_ast()), ctx)


def substituted(term: z3.ExprRef, froms: Sequence[z3.ExprRef], tos: Sequence[z3.ExprRef]) -> z3.ExprRef:
    """``z3.substitute(term, *zip(froms, tos))``, the same term, through Z3's C API in one call: the Python
    function checks every pair's sorts in Python first (Z3 checks them too, and raises on a mismatch), a
    third of the refinement check's substitutions (2026-12-02)."""
    if len(froms) != len(tos):
        raise ValueError(f"{len(froms)} terms to replace, {len(tos)} replacements")
    ctx = term.ctx
    n = len(froms)
    old, new = (z3.Ast * n)(), (z3.Ast * n)()
    for i in range(n):
        old[i], new[i] = froms[i].as_ast(), tos[i].as_ast()
    return z3.z3._to_expr_ref(z3.Z3_substitute(ctx.ref(), term.as_ast(), n, old, new), ctx)


def all_equal(xs: Sequence[z3.ExprRef], ys: Sequence[z3.ExprRef]) -> z3.BoolRef:
    """``And([x == y for x, y in zip(xs, ys)])``, the same term, built through Z3's C API (each equation
    wrapped at once, so it stays referenced): the Python operators coerce and check the sorts of every pair,
    most of the cost of the refinement check's blocking clauses (2026-12-02)."""
    if len(xs) != len(ys):
        raise ValueError(f"{len(xs)} terms against {len(ys)}")
    ctx = xs[0].ctx if xs else z3.main_ctx()
    ref = ctx.ref()
    eqs = [z3.BoolRef(z3.Z3_mk_eq(ref, x.as_ast(), y.as_ast()), ctx) for x, y in zip(xs, ys, strict=True)]
    args = (z3.Ast * len(eqs))()
    for i, e in enumerate(eqs):
        args[i] = e.as_ast()
    return z3.BoolRef(z3.Z3_mk_and(ref, len(eqs), args), ctx)


class Numerals:
    """Z3 constants by value (integers, and the two Booleans), each built once: ``z3.IntVal`` costs a
    Python round of checks per call, and the refinement check puts a state's values into formulas hundreds
    of times per state."""

    def __init__(self, ctx: z3.Context | None = None) -> None:
        self.ctx = ctx or z3.main_ctx()
        self.ints: dict[int, z3.IntNumRef] = {}
        self.bools = (z3.BoolVal(False, self.ctx), z3.BoolVal(True, self.ctx))

    def of(self, value: int | bool, boolean: bool) -> z3.ExprRef:
        """``value`` as a Boolean constant (``boolean``) or an integer one."""
        if boolean:
            return self.bools[bool(value)]
        key = int(value)
        got = self.ints.get(key)
        if got is None:
            got = self.ints[key] = z3.IntVal(key, self.ctx)
        return got


def subterms(terms: Sequence[z3.ExprRef]) -> Iterator[z3.ExprRef]:
    """Every term under ``terms``, each shared term once (by Z3 id)."""
    seen: set[int] = set()
    todo = list(terms)
    while todo:
        e = todo.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        yield e
        todo.extend(e.children())


def is_variable(term: z3.ExprRef) -> bool:
    """An uninterpreted constant (a state field, an action's kind, a reading), not a term built from them."""
    return bool(z3.is_const(term)) and term.decl().kind() == z3.Z3_OP_UNINTERPRETED


def nonlinear_products(formulas: Sequence[z3.ExprRef]) -> list[str]:
    """The products of two or more symbolic terms in ``formulas``: the encodings keep this list empty
    (``scaled``)."""
    return [
        " ".join(str(e).split())
        for e in subterms(formulas)
        if z3.is_mul(e) and sum(1 for c in e.children() if not z3.is_int_value(c)) >= 2
    ]


def rank_at(row: Sequence[z3.ArithRef], rank: z3.ArithRef, ranks: tuple[int, ...]) -> z3.ArithRef:
    """``row`` is indexed by ``ranks``; the entry for a symbolic rank in ``ranks``."""
    out: z3.ArithRef = row[-1]
    for i in range(len(ranks) - 2, -1, -1):
        out = z3.If(rank == ranks[i], row[i], out)
    return out
