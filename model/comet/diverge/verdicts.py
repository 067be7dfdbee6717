"""What a ruling changes, in one sentence a reader can trust: three answers per player, each from the figures.

``answer(paired, ...)`` reads the integer sums of ``comet.diverge.measure.Paired`` and gives

- *how often*: the share of deals where the case arises (the readings part) and where the result changes;
- *who gains*: per seat the change of its mean result and of its win rate, oriented so that positive is good
  for that seat (a penalty-points game, ``lower_wins``, negates its points and says "penalty");
- *how much, where it arises*: the mean swing (chips or points that end up with another seat) over the deals
  where the case arises;

and a verdict phrase from a small vocabulary (``comet.diverge.glossary``): "changes who gains" only when a
seat's mean result or win rate moves beyond its interval, "changes deals but no seat gains measurably" when
deals change and no seat's does, "no effect", "never arises", "zero by design", and for rulings whose readings
allow identical play and differ only in payment, "exact effect" (``comet.diverge.exact``: the same actions
replayed under both readings, the difference read off each deal).

One interval per figure: the simultaneous 95 % interval of the answer (Bonferroni over every figure the answer
looks at, ``z_of``), used by the verdict, the tables and the plots alike.  A quantity that cannot be negative
(the swing) is clipped at zero; shares use the Wilson interval, which stays within [0, 1].
"""

from __future__ import annotations

from dataclasses import dataclass

from comet.diverge.glossary import (
    DEALT_NO_GAIN,
    EXACT,
    GAINS,
    GAME_CHANGES,
    GAME_NO_EFFECT,
    GAME_NONE,
    NEVER_ARISES,
    NO_EFFECT,
    NO_GAIN,
    NOT_MEASURED,
    ZERO_BY_DESIGN,
)
from comet.diverge.measure import DEALT, OPTIONS, PAY, PLAY, GamePaired, Paired
from comet.diverge.stats import Estimate, bonferroni_z, mean_estimate, percent, share_text, zero_bound

#: (field, reading B, player) -> why that player never meets the ruling's choice (its zero is by design)
DESIGN_ZEROS: dict[tuple[str, str, str], str] = {
    (field, value, player): "it never passes or stops while it can play"
    for field, value in (
        ("stuck_restart", "may"),
        ("may_stop_early", "true"),
        ("new_run", "may"),
        ("cats_new_run", "may"),
    )
    for player in ("greedy", "hoarder")
}


def num(x: float) -> str:
    """A non-negative figure with three decimals, or three significant digits below 0.01 (never ``0.000`` for
    a figure that is not zero)."""
    if x == 0 or x >= 0.01:
        return f"{x:.3f}"
    return f"{x:.3g}"


def position_name(i: int, players: int) -> str:
    """``dealer`` for the last position, else ``1st``, ``2nd``... from the dealer's left."""
    if i == players - 1:
        return "dealer"
    return f"{i + 1}{'st' if i == 0 else 'nd' if i == 1 else 'rd' if i == 2 else 'th'}"


def family_size(p: Paired) -> int:
    """How many figures an answer looks at: result and win rate per seat, deal length, and the swing unless
    the cards dealt differ (then deal-by-deal swings compare two different deals)."""
    return 2 * p.players + 1 + (0 if p.classes[DEALT] else 1)


def z_of(p: Paired, together: int = 1) -> float:
    """The one ``z`` of every interval shown for ``p``: simultaneous 95 % over the answer's figures, times
    ``together`` answers judged as one family (the placebo check's)."""
    return bonferroni_z(max(1, family_size(p) * together))


def arose(p: Paired) -> int:
    """Deals where the case arises: the readings offer different options or pay the same play differently
    (every deal where the cards dealt differ)."""
    c = p.classes
    return c[PAY] + c[OPTIONS] + c[PLAY] + c[DEALT]


def nonnegative(e: Estimate) -> Estimate:
    """``e`` with its interval clipped at zero (for a quantity that cannot be negative)."""
    return Estimate(e.value, max(0.0, e.low), max(0.0, e.high), e.n)


@dataclass(frozen=True, slots=True)
class Scale:
    """How a game's result reads: ``unit`` chips or points; ``lower_wins`` for penalty points."""

    unit: str = "chips"
    lower_wins: bool = False

    @property
    def noun(self) -> str:
        return "penalty points" if self.lower_wins else self.unit

    def oriented(self, e: Estimate) -> Estimate:
        """``e`` (a change in raw result) turned so that positive is good for the seat."""
        if not self.lower_wins:
            return e
        return Estimate(-e.value, -e.high, -e.low, e.n)

    def seat_text(self, name: str, raw: Estimate) -> str:
        """One seat's change in the reader's orientation: ``2nd seat scores 1.13 more penalty points per deal
        (0.95 to 1.31) = worse``, ``dealer gains 0.52 chips per deal (0.31 to 0.73)``."""
        lo, hi = sorted((abs(raw.low), abs(raw.high)))
        span = f"({num(lo)} to {num(hi)})"
        size = num(abs(raw.value))
        good = self.oriented(raw).value > 0
        if self.unit == "chips":
            return f"{name} {'gains' if good else 'loses'} {size} chips per deal {span}"
        more = "more" if raw.value > 0 else "fewer"
        return f"{name} scores {size} {more} {self.noun} per deal {span} = {'better' if good else 'worse'}"


@dataclass(frozen=True, slots=True)
class ExactEffect:
    """A payment-only ruling measured exactly (``comet.diverge.exact``): over ``deals`` deals played under A and
    the same actions replayed under B, ``arose`` deals paid differently, and how often each change of the
    winner's result (B − A) occurred in them."""

    deals: int
    arose: int
    #: ((B − A for the deal's winner, B − A summed over the other seats), deals), most frequent first
    changes: tuple[tuple[tuple[int, int], int], ...]
    players: int


@dataclass(frozen=True, slots=True)
class Answer:
    """One player's answer: the verdict phrase, the one-sentence answer, and its three parts."""

    phrase: str
    sentence: str
    often: str
    who: str
    much: str
    sure: str

    @property
    def gains(self) -> bool:
        return self.phrase == GAINS


def _how_often(p: Paired, placebo: bool) -> str:
    n = p.deals
    if p.classes[DEALT]:
        return (
            f"other cards are dealt in {share_text(p.classes[DEALT], n, 'deals')}"
            if not placebo
            else ("the readings deal other cards, so deals are not compared one by one")
        )
    return f"arises in {share_text(arose(p), n, 'deals')}; the result changes in {share_text(p.changed, n)}"


def seat_estimates(p: Paired, z: float) -> tuple[tuple[Estimate, ...], tuple[Estimate, ...]]:
    """Per seat: the change of mean result and of win rate (B − A, raw orientation), at ``z``."""
    n = p.deals
    chips = tuple(mean_estimate(n, p.chips_d[i], p.chips_d2[i], z) for i in range(p.players))
    wins = tuple(mean_estimate(n, p.wins_d[i], p.wins_d2[i], z) for i in range(p.players))
    return chips, wins


def swing_where_arises(p: Paired, z: float) -> Estimate:
    """The mean swing over the deals where the case arises (zero in every other deal), clipped at zero."""
    return nonnegative(mean_estimate(arose(p), p.transfer, p.transfer2, z))


def answer(
    p: Paired,
    scale: Scale = Scale(),
    together: int = 1,
    placebo: bool = False,
    design: str = "",
    exact: ExactEffect | None = None,
) -> Answer:
    """The answer for one player's paired deals (see the module note).  ``together``: answers judged as one
    family; ``placebo``: a placebo reading (no changed-deal share that only says "other cards"); ``design``:
    why this player never meets the choice, if it never does by design (``DESIGN_ZEROS``); ``exact``: the
    payment-only ruling's exact effect, which then is the answer.  Its phrase is checked against the glossary."""
    return check_phrase(_answer(p, scale, together, placebo, design, exact))


def _answer(
    p: Paired,
    scale: Scale = Scale(),
    together: int = 1,
    placebo: bool = False,
    design: str = "",
    exact: ExactEffect | None = None,
) -> Answer:
    n = p.deals
    if n == 0:
        return Answer(NOT_MEASURED, NOT_MEASURED, "", "", "", "")
    if exact is not None and exact.arose and arose(p):
        return exact_answer(exact, scale, f"{percent(arose(p) / n)} of this player's deals")
    # no deal's result changed: the play may have parted (another card, another pass) without moving a chip
    if p.changed == 0 and not p.classes[DEALT]:
        bound = f"0 of {n:,} deals change (at most {percent(zero_bound(n))} would)"
        if design:
            return Answer(ZERO_BY_DESIGN, f"{ZERO_BY_DESIGN}: {design}", bound, "", "", "certain")
        if arose(p) == 0:
            s = f"{NEVER_ARISES}: 0 of {n:,} deals (at most {percent(zero_bound(n))})"
            return Answer(NEVER_ARISES, s, s.split(": ", 1)[1], "", "", "certain")
        often = _how_often(p, placebo)
        return Answer(NO_EFFECT, f"{NO_EFFECT}: {often}", often, "", "", "certain")
    z = z_of(p, together)
    chips, wins = seat_estimates(p, z)
    names = [position_name(i, p.players) for i in range(p.players)]
    # the seat that gains most first (in the reader's orientation), the one that loses most last
    order = sorted(range(p.players), key=lambda i: -scale.oriented(chips[i]).value)
    moved = [scale.seat_text(names[i], chips[i]) for i in order if chips[i].excludes_zero]
    won = [
        f"{names[i]} wins {abs(100 * x.value):.2f} percentage points {'more' if x.value > 0 else 'less'} often"
        for i, x in enumerate(wins)
        if x.excludes_zero
    ]
    often = _how_often(p, placebo)
    sure = f"simultaneous 95 % intervals over {n:,} paired deals"
    swing = swing_where_arises(p, z) if not p.classes[DEALT] else None
    much = (
        f"where it arises, {swing.value:.3f} {scale.noun} per deal end up with another seat "
        f"({swing.low:.3f} to {swing.high:.3f})"
        if swing is not None and arose(p)
        else ""
    )
    if moved or won:
        who = "; ".join(moved + won)
        head = moved[0] if moved else won[0]
        return Answer(
            GAINS, f"{GAINS}: {head}" + ("" if placebo or p.classes[DEALT] else f"; {short(p)}"), often, who, much, sure
        )
    chip_bound = max(x.bound for x in chips)
    win_bound = max(x.bound for x in wins)
    who = (
        f"every seat's mean {scale.noun} within ±{chip_bound:.3f} per deal and its win rate within "
        f"±{100 * win_bound:.2f} percentage points"
    )
    if p.classes[DEALT]:
        return Answer(DEALT_NO_GAIN, f"{DEALT_NO_GAIN}: {who}", often, who, much, sure)
    return Answer(NO_GAIN, f"{NO_GAIN}: {short(p)}; {who}", often, who, much, sure)


def short(p: Paired) -> str:
    """``arises in 1.20 % of deals, changes 0.80 %``: the two shares alone."""
    return f"arises in {percent(arose(p) / p.deals)} of deals, changes {percent(p.changed / p.deals)}"


#: the most amounts an exact answer lists one by one (more: their range and mean)
MAX_AMOUNTS = 3


def _amount(change: int, noun: str) -> str:
    """``4 fewer chips``, ``1 more point`` (one of a plural noun is said in the singular)."""
    if not change:
        return f"the same {noun}"
    counted = noun.removesuffix("s") if abs(change) == 1 else noun
    return f"{abs(change)} {'more' if change > 0 else 'fewer'} {counted}"


def _penalty_side(change: int, whom: str, scale: Scale) -> str:
    """`` = worse for them`` / `` = better for them``: a change of penalty points in the reader's orientation
    (more penalty points are worse); nothing in a game where more is better."""
    if not scale.lower_wins or not change:
        return ""
    return f" = {'worse' if change > 0 else 'better'} for {whom}"


def _outcome(own: int, others: int, scale: Scale, exactly: str) -> str:
    """One deal's exact change: the winner's, else the other seats' together (a penalty-points game says
    whether it is better or worse for them)."""
    if own:
        verb = "receives" if scale.unit == "chips" else "scores"
        return f"the winner {verb} {exactly}{_amount(own, scale.noun)}{_penalty_side(own, 'the winner', scale)}"
    if others:
        verb = "receive" if scale.unit == "chips" else "score"
        side = _penalty_side(others, "them", scale)
        return f"the other seats together {verb} {exactly}{_amount(others, scale.noun)}{side}"
    return "nobody's result changes"


def exact_answer(x: ExactEffect, scale: Scale, share: str = "") -> Answer:
    """The answer of a payment-only ruling: how often it arises (``share``: the player's share of deals where it
    arises; default the replayed deals'), and the exact change of each deal where it does (the winner's, or the
    other seats' where the winner's is unchanged), with how often each occurs among those deals."""
    share = share or percent(x.arose / x.deals) + " of the replayed deals"
    if len(x.changes) <= MAX_AMOUNTS:
        parts = [
            _outcome(own, others, scale, "exactly ")
            + (f" ({percent(count / x.arose)} of those deals)" if len(x.changes) > 1 else "")
            for (own, others), count in x.changes
        ]
        subject = parts[0].split(" exactly ")[0] + " exactly "
        if all(p.startswith(subject) for p in parts):  # one subject: "the winner receives exactly 4 … or 12 …"
            who = "under B " + subject + " or ".join(p.removeprefix(subject) for p in parts)
        else:
            who = "under B " + "; or ".join(parts)
    else:
        # the amount depends on the deal (e.g. the cards left in hand): its range and mean, each deal exact
        winner = all(own for (own, _), _ in x.changes)
        sizes = [own if winner else others for (own, others), _ in x.changes]
        mean = sum((own if winner else others) * k for (own, others), k in x.changes) / x.arose
        lo, hi = min(sizes), max(sizes)
        word = "more" if lo > 0 else "fewer" if hi < 0 else "more or fewer"
        whom = "the winner" if winner else "the other seats together"
        verb = ("receives" if winner else "receive") if scale.unit == "chips" else ("scores" if winner else "score")
        who = (
            f"under B {whom} {verb} {min(abs(lo), abs(hi))} to {max(abs(lo), abs(hi))} {word} {scale.noun} "
            f"(mean {abs(mean):.1f}; each deal's amount fixed by its cards)"
        )
        if lo > 0 or hi < 0:
            who += _penalty_side(lo, "the winner" if winner else "them", scale)
    often = f"arises in {share}"
    sentence = f"{EXACT}: where it arises ({share}), {who}"
    sure = f"exact (the same actions replayed under both readings, {x.deals:,} deals)"
    return Answer(EXACT, sentence, often, who, "", sure)


def game_answer(g: GamePaired) -> Answer:
    """The answer of a ruling that acts only between deals, from one player's paired whole games: the share of
    games whose winners change, and the paired change of deals per game and of the final spread (best result
    minus worst), each with its 95 % interval.  "changes whole games" when a winner changes or either figure
    moves beyond its interval; paired games compare no seat with itself, so no seat is said to gain."""
    return check_phrase(_game_answer(g))


def _game_answer(g: GamePaired) -> Answer:
    if g.played == 0:
        refused = f"{g.games:,} games, refused under A {g.refused_a:,}, under B {g.refused_b:,}"
        return Answer(GAME_NONE, GAME_NONE, refused if g.games else "", "", "", "")
    w = share_text(g.winners_changed, g.played)
    dl = mean_estimate(g.played, g.length_d, g.length_d2)
    ds = mean_estimate(g.played, g.spread_d, g.spread_d2)
    often = f"winners change in {w}"
    sure = f"95 % intervals over {g.played:,} paired games"
    if g.winners_changed == 0 and not dl.excludes_zero and not ds.excludes_zero:
        return Answer(GAME_NO_EFFECT, f"{GAME_NO_EFFECT}: {often}", often, "", "", sure)
    much = f"deals per game {dl.text(2)}; final spread {ds.text(2)}"
    return Answer(GAME_CHANGES, f"{GAME_CHANGES}: {often}; {much}", often, "", much, sure)


def check_phrase(a: Answer) -> Answer:
    """``a``, after checking that its sentence opens with a phrase the glossary defines (ValueError naming the
    phrase otherwise): the report never says what the glossary does not define."""
    from comet.diverge.glossary import GLOSSARY

    if a.phrase not in GLOSSARY or not a.sentence.startswith(a.phrase):
        raise ValueError(f"verdict phrase {a.phrase!r} ({a.sentence!r}) is not defined in comet.diverge.glossary")
    return a


def payment_only(deals: dict[str, Paired]) -> bool:
    """Whether the measured deals suggest a payment-only ruling: some deal is paid differently, and no deal
    offers other options, plays otherwise or is dealt otherwise, for any player whose choices do not weigh
    payments (the search player ``pimc`` does, so its play may part where only payments differ).  A
    suggestion only: ``comet.diverge.exact`` replays the deals and refuses where the play can part."""
    ps = [p for pol, p in deals.items() if p.deals and pol != "pimc"]
    return (
        bool(ps)
        and any(p.classes[PAY] for p in ps)
        and all(p.classes[OPTIONS] + p.classes[PLAY] + p.classes[DEALT] == 0 for p in ps)
    )
