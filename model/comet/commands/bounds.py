"""``comet bounds``: the extremes of every game, proved and reached (package ``comet_proofs``; spec/extremes.md)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

INTRO = """# The extremes of Comet

What a player can quote about one deal of each game: the longest deal, the most one player can pay or
collect at the settlement, lose or win in the whole deal, or score. Each figure is under the preset's own
readings with the Comet at its starting value, and has two halves kept apart:

- **proved**: the optimum Z3 finds over the preset's encoding (spec/proofs.md, "Bounds"): no deal can do more;
- **reached**: the most a shipped deal reaches, replayed by the model whenever this page is checked (the
  deals are ITF traces with their records, under `proofs/comet_proofs/witnesses/`; `comet replay` steps
  through a record).

**Exact** means the two meet: the number is the extreme. Otherwise the gap is stated: the proof's invariant
admits states no deal reaches, or the search has not found the deal (the deals come from Z3's bounded
unrolling of the encoding for the bound-settlement deals, and from `comet bounds --search` for the rest: hill
climbing over deals with a beam search over play, by the model; a heuristic, so a gap is not a proof that
the bound is unreachable).

Written by `comet bounds --page spec/extremes.md`; `tests/test_bounds_extremes.py` checks every number
against the proofs and the replayed deals.
"""

OUTRO = """## Where a gap remains, and why

- **How the exact rows were closed.** A lemma proved inductive for each preset and player count before it is
  used (`bounds.lemmas.run_played`: a run needs rank r only after an r-1 was played, so a deal won on the
  Comet standing for a 9 has an 8 on the pile) removes from the optimum the states in which the losers
  still hold all four 8s; the deals that reach the bounds were then built by hand from the shape of the
  extreme (`bounds/build.py`: the winner moves first and holds only cards of ranks no loser holds, so no
  loser is ever made to play, and goes out on the Comet as a 9; or it plays its whole hand in its first
  turn, with sets, so no loser moves at all) and dealt and played by the model.
- **The longest deal.** A second lemma, proved inductive for each preset and player count before it is used
  (`bounds.lemmas.long_deal`), counts what a deal can have lasted: the actions so far plus the passes that
  can still come before the next play are at most n+1 per card played, less one for each seat that joined
  after the first (a play is followed by at most n passes, its player's "without" and the others' passes,
  after which its player must lead; a seat's first play, but the first seat's, goes on with another seat's
  run, which reached it after fewer than n passes), with the facts it stands on (a lead is the last player's,
  the losers keep a card each). At the end of a deal that gives (n+1)(cards dealt - (n-1)) - n - (n-1):
  102, 131, 178, 237 for 2 to 5 players. The ladder deals (`bounds/build.py`, `ladder`) reach it: every card
  played alone and every run stuck after it, the cards played from the highest rank down, the turn handed to
  the right neighbour n-1 times, each loser keeping one card it is never made to play.
- **The longest deal where stops and kept cards force plays** (standard and the Opera at five players: 232, exact;
  Red Nines at four and five players: 233 and 351 proved, where the count gave 238 and 357). The count is met only if
  every play but the last is one card followed by n passes (n-1 at each of the n-1 hand-overs) and each loser keeps
  one card. Two more lemmas, each proved inductive for the preset and player count before it is used, say why it is
  not met at five players. `bounds.lemmas.long_stops`: a stop played before the deal's last card (a King,
  R-STOP-KING; the Comet, R-COMET-STOP) is followed by no pass, so the count charges it n actions (a stop that ends
  the deal, none). `bounds.stops.forced_runs` adds what R-PLAY-MUST makes of kept cards: a seat that has passed on a
  run holds none of the rank it needs; while some seat holds a natural r+1, each r played went on to an r+1 or a wild
  card or the run needs an r+1 now (summed over the ranks, each wild card counted once); a run needing r+1 was made
  from a hand that held the r; each unless a set was played (its cards put down in one action leave the count n+1
  actions to spare). Read at the step that ends the deal (the state before it still shows who held what): at five
  players a loser keeping a King bars the Queens (each would go on to a stop), the dead hand's three cards and the
  four kept ones cannot hold the four Kings, the Comet and the Queens, and the one Queen that may be played just
  before a last King would need the Jacks before it to have gone on to Queens that are not there: 232, which the
  ladder reaches. Red Nines deals every card, and the facts count no red nine as a stop (RUL-RED9-NINE-STOP =
  continues), though one standing for a King ends the run like any King, its player leading next (R-RED9-RUN): so the
  facts let a red nine take the King a Queen needs at no charge, a loser keeping its natural King, and leave one King
  played early (233, 351). They do not charge the passes a forced run leaves unused (each Queen going on to a red
  nine or a King, each Jack to a Queen still held), nor do they charge a first-play group by its size (one set voids
  them: n+1 actions to spare), so the extreme may well be lower: a lemma charging the forced runs (what the count has
  to spare, plus the seats joined, is at least the r played while an r+1 is held) was proved at four players in 69 s
  of CPU, too slow for the bounds, and with these facts lowered nothing. By hand, not by Z3, the ladder's 222 and 332
  are the extremes: with every natural King played before the last card they are the count less n a King; a natural
  King held to the end makes each Queen played before the last two plays go on to a stop (a King, or a red nine
  standing for one), and the hand-overs to those stops, summed round the table from that King's holder, cost n a
  Queen but one, so each Queen costs about what a King led would; fewer Queens played means Queens kept, which make
  each Jack go on to a Queen in turn, and so down the ranks: more kept cards than the losers have.
- **The Commits' longest deal**: in 000's Commit `long_deal` holds with one more fact, proved with it (a turn the 9D
  has just ended leaves a run open, so its player's pass is on a run, not on a lead; `Inv` alone admits the turn
  ended with nothing open, the step Z3 found breaking the lemma without it): 191, 218 and 237 at three to five
  players (the termination proof's ranking gave 255, 288 and 315). The ladder by suit (`bounds/build.py`,
  `commit_ladder`: each suit played from the top down, so every run is stuck on a card already played or face down;
  the right neighbour takes over n-1 times with the card one above the last one led; each loser keeps an Ace, which
  no run needs) reaches 237 at five players, where the dead hand holds the four Kings, the 7D and the 9D. At three
  and four players (176 and 210 reached) the stops the dead hand cannot take (all five at three players, the whole
  pack dealt; two at four) are led, each followed by no pass, n actions short each. Z3 checks part of it. The
  encoding names its stops (the Kings and the 7D, `stop_cards`), `long_stops` is proved with them, and at three
  players five stops do not fit in the two kept cards and the last: 185 (191 before). A third lemma, proved
  inductive with it (`bounds.stops.suit_runs`), says what R-COMMIT-H-SUIT makes of kept cards: a card whose
  successor in its suit is still in a hand is unplayed, or its run waits for that card now, but for one run at most,
  which a holder of its next card left for the 10D the 9D opened (with the facts the 9D's turn leaves, which `Inv`
  alone does not hold). A loser's kept King then needs its Queen unplayed, and the 7D its 6D, unless that run was
  the one left: 182 proved at three players. The lemma does not charge the passes a forced run leaves unused (a
  Queen held for the winner's last card makes each card below it in its suit go on to the next, one run up the
  suit), so the extreme may well be lower. At four players the bound stays 218 (Z3's finished deal: the dead hand
  holds three Kings; the losers keep the fourth King, its Queen and the 7D, whose 6D's run was left for the 10D; the
  winner's last card is the Jack below that Queen). A built deal comes nearer (`bounds/build.py`, `commit_keepers`):
  the losers keep the diamonds from the 10D up, which no run asks for (the 10D follows only the 9D, which its own
  keeper leads, so that run comes back to it and is dropped), and the KD is the winner's last card: led with its
  Queen kept at four players, where the dead hand takes the other Kings and only the 7D is led (214); at three,
  played on the QD the last loser leads last, the turn coming round to the first player again (four stops led and
  one hand-over more: 178). By hand, not by Z3, these are the extremes: a stop led before the last card costs n and
  a change of player at least one; a stop is spared only face down, by the deal's last run, or kept with the cards
  below it in its suit kept or never reached (down to the Ace, or the diamonds down to the 9D); a run left for the
  10D needs the 9D and the 10D played within n-2 passes of it, which costs more than the stop it spares. Z3's
  finished deals spare stops no deal can: at four players the Jack the winner goes out on, below a kept Queen,
  needs every card below it in its suit played in the deal's last run, one change of player each; at three (182)
  the 7D is kept above the winner's last card, the 6D, and a King whose Queen's run was left for the 10D at no
  charge. In 002's Commit the lemma is not proved within the bounds step's budget (split by the step's cases it
  ran about 17 CPU minutes without finding a step that breaks it), and each run is led with the player's lowest
  card (RUL-COMMIT-C-LOWEST), so neither ladder applies: the ranking's 306 stands. A deal built by plan
  (`bounds/build.py`, `cats_long`: nine runs, three climbing a suit to its King, the rest stuck on the 7D or on a
  card whose next is already played, most cards played by the right neighbour of the last card's player) lasts
  142 actions (the search's 138). By hand, not by Z3, no deal lasts more than 151: between two plays of a run at
  most two passes, three after a stuck run and none after a King; the kept cards and the Kings played early
  number at least five (a held King needs its Queen held too, R-COMMIT-C-SUIT), so a deal lasts at most 135
  actions plus its runs; and each player leads at most one run in each of the five chains of cards in suit (its
  leads go up in rank, and a stuck run has every card above it in its chain played), one more for the Comet: at
  most 16 runs.
- **The winner's most: the Opera at four and five players exact, standard at five narrowed**. The built deals
  have the winner play its whole hand in its first turn (no loser ever moves): 2080 and 2208 collected in the
  Opera. Four lemmas, proved inductive per preset and player count
  before they are used (`bounds.forced`), take from the optimum the states no deal reaches: the dead hand keeps
  the size it was dealt (`Inv` alone let it hold the low cards the winner had played); while a hand holds a
  natural r+1, every play of rank r was followed by an r+1 (R-PLAY-MUST: the seats that passed on a run hold
  none of the rank it needs), so the plays of rank r are at most the r+1s on the pile, the run open on r and
  the Comet where it stood for r+1; and in a first turn (no pass yet) every run but the open one ended on a
  stop, so each r was followed by an r+1 whoever holds them, and the runs led are at most the Kings and the
  Comet played, plus the open one. The Opera's winner then cannot hold the lowest cards of the pack: its
  nine or ten cards are one run ending on the Comet as a 9 and runs ending on a King (or four of a kind going
  on with a run): 2080 of 2104 and 2208 of 2328 become exact (won: 2104 and 2240). In the standard game at
  five players the bound falls from 1164 to 1124 (won: 1196 to 1156). The best deal built there is not an
  Opera: the first player leads a 2, puts the four 3s on it as a set (R-FOUR-OF-A-KIND: the run needs them) and
  goes on with a 4, 5 and 6; the three seats after it hold no 7, the dealer holds every 7 and 8 and no 9, so it
  must play a 7 and an 8 and the run comes back to the first player, which goes out on the Comet as the 9: 1108
  collected, 1140 won (the first-turn deal's 1104 and 1136). The dead hand holds three 2s and the cards played
  come to 44 points (the winner's 29, the dealer's 7 and 8); Z3's state at 1124 has 37 played and three 3s dead.
  What the lemmas cannot see there is order: the winner plays 2, 2, 3 to 8 and the Comet as a 9, one 2 led
  alone and stuck; but the winner's own 3 stays in its hand until its last run, and while it holds it, a 2 it
  leads must go on (R-PLAY-MUST). The lemmas speak of who holds a card now, not when it left. Searched back from
  the end (every state of a path of one, three or eight steps before it also `Inv` with the lemmas, a deal
  shorter than the path standing still at its start), Z3 still finds states worth 1109 or more: at eight steps
  the four 3s are on the pile with no 2 played, which no deal does while other seats hold 4s (a 3 led alone goes
  on to a 4 when someone holds one, and four 3s go down together only on a 2): again a fact of order, before the
  steps searched. So the gap of 16 stays open.
- **Old Comet's whole deal** (every row exact): two lemmas, proved inductive per player count before they
  are used (`bounds.play_chips`), bound what play moves for one seat, and the optimum takes each with the
  settlement at once. For a seat that keeps its cards (`kept_loss`, sharper than `bounds.lemmas.loss_in_play`):
  each play of another seat takes at most one chip from it (a King, or the stuck run its player then
  collects) and the manille ten, less what is never collected: the deal's last card collects nothing unless
  it is a stop (a King or the manille), and while the seat has not played, each seat's first play but the
  first seat's goes on with another seat's run, whose chip is then lost. For the winner (`win_in_play`): each
  of its plays earns at most one chip from each other player (a King, or the stuck run it collects), the
  manille ten, its last card nothing unless a King or the manille, so at the end it has won in play at most
  (n-1)(cards dealt - 1 + [a King played] + [the manille played]) + 9(n-1)[the manille played]. With the
  settlement that gives the loser 205, 161, 155 and 159 and the winner 205, 268, 322 and 367 at two to five
  players (the earlier lemma gave the loser 206, 162, 157, 162; the settlement plus the loose in-play
  potential gave the winner 620, 1102, 1718, 2470). Deals built by hand reach each: the keeper deals
  (`bounds/build.py`, `keeper`: seat 0 keeps the manille and the highest cards and never plays, the others
  play a ladder, every play collecting a chip, one hand-over a seat, the winner's last card a King; at five
  players seat 0 keeps the Jacks and Queens, so only the 10s are barred to the others and Kings fill the
  winner's hand) and, for the winner, deals where it keeps the manille for its last card (ten from each
  other player, more than the 19 chips a loser caught with it pays from three players up) and leads every
  other card alone, each run stuck on a rank all in the dead hand or already played, while the losers keep
  the highest cards of the pack (226, 265 and 295 points at three to five players; at two players the
  manille caught gives the same 205). No Old Comet row keeps a gap. The lemmas hold for the preset's own
  readings, not for every reading: under `old_last_card = "every_run_end"` the card that ends a run (a King,
  the manille, the winner's last card) earns a chip more, and Z3 finds the step that breaks each of them.
- **How 000's Commit's whole deal and 002's Commit's points were closed**: a lemma proved inductive per preset
  and player count before it is used (`bounds.paid.paid_in_play`): only the four Kings and the 9D pay in play
  (a King 1 chip from each other player, the 9D 2; in 002's Commit they score their player 1 and 2 points),
  each once, so what seat 0 has lost in play plus what the unplayed ones would pay is at most 6, and what it
  has won plus n-1 times that at most 6(n-1) (what it has scored plus that, at most 6). With the settlement
  in one optimum a card is paid for in play or at the settlement, never both: 13, 19 and 25 lost (the
  settlement's: caught with the four Kings and the 9D) and 14, 21 and 28 won (the stake, and the four Kings
  and the 9D paid in play) at three to five players, 41 points in 002's Commit at three (the settlement's
  bound plus the loose in-play potential gave 115 lost, 212, 297 and 370 won, 159 points). The deals built by
  hand reach them (`hoyle_winner_shape`: the first player goes out in its first turn with the four Kings and
  the 9D, so no loser moves), and 002's Commit's 41 was already shipped from the search.
- A gap is never a proof that the bound is out of reach: the search for deals is a heuristic. What is proved
  for every gap is the other side: the facts the bound rests on admit a state at exactly the bound (below), so
  only a new fact can lower it.
"""


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "bounds",
        help="the extremes of every game: each bound proved by Z3 and the shipped deal that reaches it",
        description="Print, for each preset and player count of the bounds table, every quantity's proved "
        "bound beside the most a shipped deal reaches (replayed by the model), and whether they meet.  "
        "--search looks for better deals (heavy: CPU seconds per quantity) and ships them; --page writes "
        "spec/extremes.md; --check compares a written page with the proofs and the replayed deals.",
    )
    p.add_argument("--preset", action="append", default=None, metavar="P", help="only this preset (repeatable)")
    p.add_argument("--players", type=int, action="append", default=None, metavar="N", help="only this count")
    p.add_argument(
        "--search",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="search each quantity for SECONDS of CPU for a deal beating the shipped one, and ship what it finds",
    )
    p.add_argument(
        "--build",
        action="store_true",
        help="deal and play the deals built by hand (and the alike presets' deals) and ship those that beat the "
        "shipped ones (seconds; --search does this too)",
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the search (default 0)")
    p.add_argument("--page", default=None, metavar="FILE", help="write the extremes page (spec/extremes.md)")
    p.add_argument("--check", default=None, metavar="FILE", help="check a written extremes page; exit 1 if it is wrong")
    p.add_argument("--deals", type=int, default=100, metavar="D", help="sampled deals per row (default 100)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from comet_proofs.bounds import Bound, admitted, bounds
    from comet_proofs.bounds.extremes import ROWS, improve, ship_built, ship_transferred
    from comet_proofs.bounds.page import markdown, page_problems, row, status
    from rich.console import Console
    from rich.progress import Progress

    if args.search < 0 or args.deals < 1:
        raise ValueError("--search must be >= 0 and --deals >= 1")
    known = {p for p, _ in ROWS}
    for name in args.preset or ():
        if name not in known:
            raise ValueError(f"no bounds row for preset {name!r} (one of: {', '.join(sorted(known))})")
    rows = [
        (p, n) for p, n in ROWS if (not args.preset or p in args.preset) and (not args.players or n in args.players)
    ]
    if not rows:
        raise ValueError("no row of the bounds table matches --preset and --players")
    console = Console(stderr=True)
    if args.search or args.build:
        for p, k, q, before, after in [*ship_built(rows), *ship_transferred(rows)]:
            if before is None or after > before:
                print(f"{p} {k}p {q}: before {before}, built {after} (shipped)")
    if args.search:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("searching", total=len(rows))
            for preset, n in rows:
                progress.update(task, description=f"searching {preset} {n}p")
                for p, k, q, before, after in improve([(preset, n)], args.search, seed=args.seed):
                    verdict = "shipped" if before is None or after > before else "kept the shipped deal"
                    print(f"{p} {k}p {q}: before {before}, found {after} ({verdict})")
                progress.advance(task)
    found: list[Bound] = []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("bounds", total=len(rows))
        for preset, n in rows:
            progress.update(task, description=f"bounds {preset} {n}p")
            found += bounds(preset, players=(n,), deals=args.deals)
            progress.advance(task)
    if args.check is not None:
        text = Path(args.check).read_text(encoding="utf-8")
        problems = page_problems(text, found) + admitted.problems(found)
        for line in problems:
            print(line)
        print(f"{args.check}: {'wrong' if problems else 'agrees with the proofs and the replayed deals'}")
        return 1 if problems else 0
    if args.page is not None:
        gaps = [b for b in found if status(b) == "gap"]
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("the states the proofs admit", total=None)
            models, missing = admitted.refresh(gaps, progress=lambda what: progress.update(task, description=what))
        for line in missing:
            print(f"no model stored: {line}")
        Path(args.page).write_text(markdown(found, INTRO, OUTRO, admitted.section(found, models)), encoding="utf-8")
        print(f"wrote {args.page}")
        return 0
    for b in found:
        print(row(b))
    exact = sum(status(b) == "exact" for b in found)
    print(f"{exact} of {len(found)} rows exact")
    return 0 if all(b.ok for b in found) else 1
