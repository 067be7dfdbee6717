"""Witness search over whole games, for rulings that show only between deals: the seeded games tried,
the first deal at which two rule sets' games differ, the fewest deals a game asks for, and what is proved
about a game witness's size (``game_floor``, ``game_proof``)."""

from __future__ import annotations

import time
from dataclasses import replace

from comet.diverge.pairs import Pair
from comet.diverge.policies import make_policy
from comet.diverge.records import Bound, Proof, Witness
from comet.engine import apply, explicit_deal, player_counts
from comet.errors import IllegalAction, RecordError
from comet.game import (
    deal_over,
    default_deals,
    finish_deal,
    game_over,
    new_game,
    play_game,
    seats_in_play,
    winners,
)
from comet.records.game_record import loads_game_record
from comet.ruleset import Ruleset
from comet.state import DealState, GameState
from comet.variant import variant_of

# --------------------------------------------------------------------- whole games


def game_points(
    rules: Ruleset, players: int, deals: int | None, seed: int, policy: str, record: str = ""
) -> list[tuple[str, object]]:
    """What an observer sees of a whole seeded game (or of the game ``record`` built deal by deal,
    ``recorded_game``), in the order it happens: the first dealer, each deal's net chips, then the winners,
    the net chips and the deals played (or that the game is refused, or where its deals stop fitting)."""
    starts: list[DealState] = []
    stopped = ""
    try:
        if record:
            g, starts, stopped = recorded_game(rules, record)
        else:
            g = play_game(rules, players, deals, seed, make_policy(policy, seed), lambda s, a, g: starts.append(s))
    except RecordError as e:
        return [("refused", f"{e.kind}: {e}")]
    out: list[tuple[str, object]] = [("first dealer", starts[0].dealer if starts else -1)]
    out += [(f"deal {i + 1} net chips", list(h)) for i, h in enumerate(g.history)]
    if stopped:
        return [*out, (f"deal {g.deal_index + 1}", stopped)]
    return [*out, ("winners", list(winners(g))), ("net chips", list(_net(g))), ("deals played", g.deal_index)]


def recorded_game(rules: Ruleset, record: str) -> tuple[GameState, list[DealState], str]:
    """The game ``record`` (a game record's JSON text) played under ``rules``: its first dealer and length,
    each deal dealt as its record says and its actions applied (the game ends early where a deal is won in a
    race, ``deal_over``).  Returns the game, each deal's start, and why it stopped early ("" if every deal
    was played): a deal that does not fit these rules (a seat dropped out, an action not legal here)."""
    rec = loads_game_record(record)
    game = new_game(rules, rec.players, rec.length, rec.first_dealer)
    starts: list[DealState] = []
    for i, entry in enumerate(rec.deals):
        if game_over(game):
            break
        d = entry.record
        if d is None:
            return game, starts, f"deal {i + 1} has no record"
        try:
            s = explicit_deal(rules, d.players, d.dealer, d.hands, d.dead, d.comet_value)
            if s.players != len(seats_in_play(game)):
                raise RecordError(
                    "players", f"{len(seats_in_play(game))} seats are in play, the record has {s.players}"
                )
            starts.append(s)
            for a in d.actions:
                if deal_over(game, s):
                    break
                s = apply(s, a)
            game = finish_deal(game, s)
        except (RecordError, IllegalAction, ValueError) as e:
            return game, starts, f"not playable under these rules: {e}"
    return game, starts, ""


def game_difference(
    pair: Pair, players: int, deals: int | None, seed: int, policy: str, record: str = ""
) -> tuple[int, str] | None:
    """The first point where the seeded game (or the game ``record``) differs under A and B (its index in
    ``game_points``) and what differs there, told in words; None if the games are the same."""
    pa = game_points(pair.a, players, deals, seed, policy, record)
    pb = game_points(pair.b, players, deals, seed, policy, record)
    for i, (x, y) in enumerate(zip(pa, pb, strict=False)):
        if x != y:
            if x[0] != y[0]:
                return i, f"A: {x[0]} {_value(x[1])}; B: {y[0]} {_value(y[1])}"
            return i, f"{x[0]}: A {_value(x[1])}, B {_value(y[1])}"
    if len(pa) != len(pb):
        return min(len(pa), len(pb)), f"A: {len(pa)} points, B: {len(pb)}"
    return None


def _value(v: object) -> str:
    if isinstance(v, int) and not isinstance(v, bool):
        return f"seat {v}" if v >= 0 else "none"
    return str(v)


def game_outcome(
    rules: Ruleset, players: int, deals: int | None, seed: int, policy: str, record: str = ""
) -> tuple[object, ...]:
    """What an observer sees of a whole seeded game (or of the game ``record``): refused (and why), or
    winners, net chips per seat, deals played and each deal's net chips; a recorded game whose deals stop
    fitting the rules (``recorded_game``) is "stopped", with why in place of the winners."""
    stopped = ""
    try:
        if record:
            g, _, stopped = recorded_game(rules, record)
        else:
            g = play_game(rules, players, deals, seed, make_policy(policy, seed))
    except RecordError as e:
        return ("refused", e.kind, str(e))
    if stopped:
        return ("stopped", stopped, _net(g), g.deal_index, g.history)
    return ("played", winners(g), _net(g), g.deal_index, g.history)


def _net(g: GameState) -> tuple[int, ...]:
    start = g.rules.starting_chips if variant_of(g.rules).scoring == "chips" else 0
    return tuple(b - start for b in g.balances)


def game_witness(
    pair: Pair, bound: Bound, deadline: float = float("inf"), known: Witness | None = None
) -> tuple[Witness | None, int]:
    """The smallest seeded game (fewest deals, then players) whose outcome differs, and of those the one
    that differs earliest (the first dealer before the first deal's chips before the winners); games tried.
    The detail names what differs at that point, checked by ``claimed_difference``.  When the time runs
    out, the smallest game found so far is kept.  ``known``: a game witness of the pair found before (the
    stored one, ``stored_game``): only smaller games are tried, and ``known`` is kept if none of them
    differs, so a witness a longer search found is not lost to a shorter one."""
    counts = [n for n in player_counts(pair.a) if n in player_counts(pair.b)]
    tried = 0 if known is None else 1  # ``known`` was replayed (``stored_game``) to be kept
    lengths: list[int | None] = [*range(1, bound.max_game_deals + 1), None]
    floor = game_floor(pair)
    least = smallest_game(pair) if floor is None else floor[0]
    limit = None if known is None else (game_deals_asked(pair, known), known.players)
    for deals in lengths:
        for players in counts:
            asked = deals if deals is not None else _default_deals(pair, players)
            if (asked, players) < least or (limit is not None and (asked, players) >= limit):
                continue  # below the smallest game no game differs (``smallest_game``, ``game_floor``)
            best: tuple[int, int, int, str, str] | None = None
            # once a game differs, up to ten times the seeds are tried for one that differs earlier (the
            # first dealer drawn differently rather than a later draw of the shuffle); at the smallest game
            # the pair allows (``smallest_game``), twenty times the seeds are tried for any difference, since
            # a witness there is the smallest by construction
            at_least = (deals, players) == least
            for seed in range(bound.game_seeds * (20 if at_least else 10)):
                if seed >= bound.game_seeds and (best[0] == 0 if best is not None else not at_least):
                    break
                for k, policy in enumerate(("simple", "hoarder", "random")):
                    if time.monotonic() > deadline:
                        return _seeded_game(best, players, deals) or known, tried
                    tried += 1
                    diff = game_difference(pair, players, deals, seed, policy)
                    if diff is not None and (best is None or (diff[0], seed, k) < best[:3]):
                        best = (diff[0], seed, k, policy, diff[1])
            found = _seeded_game(best, players, deals)
            if found is not None:
                if deals is None and variant_of(pair.a).game_end == "target":
                    found = fewest_deals_asked(pair, found)
                return found, tried
    return known, tried


def fewest_deals_asked(pair: Pair, w: Witness) -> Witness:
    """The same seeded game asked for the fewest deals at which it still differs.  In a game to a target
    the deals asked only bound its length, and a game cut at ``d`` deals is the longer game's first ``d``
    deals, so below the deals either game plays the two are alike; from there up each bound is tried."""
    if w.game_record:
        return w  # a game built deal by deal asks for the length its record states
    played = [game_outcome(rules, w.players, None, w.game_seed, w.game_policy) for rules in (pair.a, pair.b)]
    counts = [o[3] for o in played if o[0] == "played" and isinstance(o[3], int)]
    if len(counts) != 2:
        return w
    for d in range(max(1, min(counts)), max(counts) + 2):
        diff = game_difference(pair, w.players, d, w.game_seed, w.game_policy)
        if diff is not None:
            return replace(w, game_deals=d, detail=diff[1])
    return w


def _default_deals(pair: Pair, players: int) -> int:
    return default_deals(pair.a, players)


def _seeded_game(best: tuple[int, int, int, str, str] | None, players: int, deals: int | None) -> Witness | None:
    """The game witness of ``game_witness``'s best (difference index, seed, policy index, policy, detail)."""
    if best is None:
        return None
    _, seed, _, policy, detail = best
    return Witness(
        "game",
        "game",
        detail,
        players,
        game_seed=seed,
        game_deals=deals if deals is not None else -1,
        game_policy=policy,
        origin=f"game seed {seed}, {players} players, {policy} policy",
    )


def fewest_deals(rules: Ruleset, players: int) -> int:
    """The fewest deals a game of ``players`` may be asked to have under ``rules`` (R-GAME-DEALS: at least
    one; RUL-GAME-LENGTH: a multiple of the players where a game ends after its deals)."""
    v = variant_of(rules)
    return players if v.game_end == "deals" and rules.deal_count == "multiple_of_players" else 1


def game_deals_asked(pair: Pair, w: Witness) -> int:
    """The deals a game witness asks for (its default length under A when it names none)."""
    return w.game_deals if w.game_deals > 0 else default_deals(pair.a, w.players)


def smallest_game(pair: Pair) -> tuple[int, int]:
    """The smallest (deals, players) a game of the pair can have: fewest deals first (the fewest either
    rule set accepts), then fewest players."""
    counts = [n for n in player_counts(pair.a) if n in player_counts(pair.b)]
    return min((min(fewest_deals(pair.a, n), fewest_deals(pair.b, n)), n) for n in counts)


def game_floor(pair: Pair) -> tuple[tuple[int, int], str] | None:
    """The fewest (deals, players) a game witness of the pair can ask for, where more than
    ``smallest_game`` can be shown, and why; None where nothing more is known.

    - In a game to a target (``Variant.game_end``) the deals asked bound its length, so a game of one deal
      ends after it under either reading of a ruling that only decides whether the game goes on
      (RUL-2P-END, RUL-COMMIT-C-TARGET): a second deal must be asked for.
    - RUL-INSOLVENCY against debt in Commit (000): the readings part only at a payment larger than its
      payer's balance, so only after a seat has paid more than its starting chips; a seat pays at most
      ``most_paid_in_a_deal`` chips in a deal (R-COMMIT-H-POOL, R-COMMIT-H-CAUGHT, R-COMMIT-H-KINGS-HELD,
      R-COMMIT-H-KING-PAID, R-COMMIT-H-NINE-PAID), so a game of n players needs that many deals, rounded
      up to a multiple of n (RUL-GAME-LENGTH).
    - RUL-COMMIT-C-RACE in 002's Commit: the readings part only once a total reaches the target of 100
      (R-COMMIT-C-GAME: before that neither reading ends a game, and every deal is played out alike), and a
      seat scores at most ``most_points_in_a_deal`` points in a deal, so a game of n players needs
      ``ceil(100 / most)`` deals.
    - RUL-COMMIT-C-TARGET (``commit_tie``) in 002's Commit: the readings part only after a deal that leaves
      two seats tied for the lead at 100 or more, and the game must ask for a deal after it (the first
      point); ``fewest_tie_deals`` bounds the deals before such a tie at each player count."""
    counts = [n for n in player_counts(pair.a) if n in player_counts(pair.b)]
    v = variant_of(pair.a)
    if pair.field == "commit_tie" and v.name == "commit_cats":
        from comet.games.commit_cats.rules import TARGET

        tie = {n: fewest_tie_deals(pair.a, n) for n in counts}
        known = {n: k for n, k in tie.items() if k is not None and fewest_tie_deals(pair.b, n) == k}
        if len(known) == len(counts):
            deals, players = min((k + 1, n) for n, k in known.items())
            most = most_points_in_a_deal(pair.a, players)
            each = ", ".join(f"{n} players {known[n]}" for n in counts)
            why = (
                f"the readings part only after a deal that leaves two seats tied for the lead at {TARGET} or more "
                f"(R-COMMIT-C-GAME), and the game must ask for a deal after it (the deals asked bound its length); "
                f"two seats score at most {most} points together in a deal of {players} players "
                f"(most_points_in_a_deal), and in a deal one of them wins, the other's points cost the two of them "
                f"at least twice as many, less {2 * _comet_points(pair.a) - 1} (a King it plays is followed by a lead "
                f"of its own, RUL-CATS-NEW-RUN = must; the Comet nets it one point at most), so the seat with fewer "
                f"wins cannot reach {TARGET} sooner: a tie after at least {deals - 1} deals, and no player count "
                f"needs fewer (fewest_tie_deals; deals before a tie: {each})"
            )
            return (deals, players), why
    if pair.field in ("two_player_end", "commit_tie") and v.game_end == "target":
        why = (
            "in a game to a target the deals asked bound its length, so a game asked for one deal ends after it "
            "under both readings"
        )
        return (2, counts[0]), why
    if pair.field == "commit_race" and v.name == "commit_cats":
        from comet.games.commit_cats.rules import TARGET

        bounds = {n: most_points_in_a_deal(pair.a, n) for n in counts}
        if any(b is None for b in bounds.values()) or any(
            most_points_in_a_deal(pair.b, n) != b for n, b in bounds.items()
        ):
            return None
        need = {n: -(-TARGET // b) for n, b in bounds.items() if b is not None}
        deals, players = min((k, n) for n, k in need.items())
        fewer = ", ".join(f"{n} players: {bounds[n]} a deal, {need[n]} deals" for n in counts if n < players)
        why = (
            f"the readings part only once a total reaches {TARGET} inside a deal (R-COMMIT-C-GAME: before that no "
            f"game ends under either); a seat scores at most {bounds[players]} points in a deal of {players} players "
            f"(most_points_in_a_deal: 1, a point per card left in the other hands, 1 more per King and 2 for the "
            f"Comet), so at least {deals} deals, and no player count needs fewer" + (f" ({fewer})" if fewer else "")
        )
        return (deals, players), why
    if pair.field == "insolvency" and pair.a.insolvency == "debt" and v.name == "commit_hoyle":
        from comet.games.commit_hoyle.rules import most_paid_in_a_deal

        start = pair.a.starting_chips
        options = []
        for n in counts:
            k = -(-(start + 1) // most_paid_in_a_deal(pair.a, n))
            step = fewest_deals(pair.a, n)
            options.append((-(-k // step) * step, n, k))
        deals, players, played = min(options)
        why = (
            f"the readings part only at a payment larger than its payer's balance, so once a seat has paid more "
            f"than its {start} starting chips; a seat pays at most {most_paid_in_a_deal(pair.a, players)} chips in "
            f"a deal of {players} players (the stake, the 9♦ and four Kings), so at least {played} deals "
            f"({deals} asked, RUL-GAME-LENGTH), and no other player count needs fewer"
        )
        return (deals, players), why
    return None


def most_points_in_a_deal(rules: Ruleset, players: int) -> int | None:
    """The most points one seat, or two seats together, can score in a deal of 002's Commit with ``players``
    (an upper bound, for ``game_floor``), or None where it is not argued (another game, or
    RUL-COMMIT-C-COMET-OUT = doubled).

    The winner scores 1, and 1 per card left in the other hands, 2 per natural King (R-COMMIT-C-OUT); a
    King played scores 1 to its player (R-COMMIT-C-KING); the Comet played scores 2 to its player, 3 as a
    King under RUL-COMMIT-C-COMET-KING = comet_and_king (R-COMMIT-C-COMET); a Comet left in a hand scores 1
    to every other seat (R-COMMIT-C-CAUGHT).  At the end the other hands hold at most ``players - 1``
    hands' cards; each of the four natural Kings is worth at most one point more to the seat than a card
    (left in another hand, 2; played by it, 1 and not in a hand); the one Comet at most 2 more (played by
    it, 2 or 3 and not in a hand; left in another hand, its card and 1 caught).  So a winner scores at most
    ``1 + (players - 1) * hand + 4 + 2`` (3 under comet_and_king), and a seat that does not go out at most
    ``4 + 3 + 1``, less.  Two seats together, one of them the winner: the other scores only for Kings and
    the Comet it plays, which are then in no hand (a King 1 instead of 2), and for the Comet caught in a
    third hand (its card and two catches: 2 more than a card); so the same bound.  Neither the winner: at
    most 4 Kings and the Comet's 2 (or two catches).  ``tests/test_diverge_game_build.py`` checks it on
    played deals, for every seat and every two seats."""
    if rules.variant != "commit_cats" or rules.commit_comet_out != "plain":
        return None
    from comet.games.commit_cats.rules import CATS_TABLE

    hand = CATS_TABLE[players][0]
    return 1 + (players - 1) * hand + 4 + _comet_points(rules)


def _comet_points(rules: Ruleset) -> int:
    """The most the Comet scores its player (R-COMMIT-C-COMET; 3 as a King under comet_and_king)."""
    return 3 if rules.commit_comet_king == "comet_and_king" else 2


def partner_cost(rules: Ruleset, points: int) -> int | None:
    """The least two seats of 002's Commit fall short of ``most_points_in_a_deal`` together in a deal won by
    one of them while the other scores ``points`` (for ``fewest_tie_deals``), or None where it is not argued
    (where ``most_points_in_a_deal`` is not, or RUL-CATS-NEW-RUN = may).

    Let W win and Y score y, having played m cards, k of them natural Kings.  Against the bound (every card
    of the other hands still held, every King worth one point more than a card, the Comet ``c`` = 2 more, or
    3 under comet_and_king) the two lose one point per card any other seat played, one per King a third
    seat played, and what the Comet falls short of c (R-COMMIT-C-OUT, R-COMMIT-C-KING, R-COMMIT-C-COMET,
    R-COMMIT-C-CAUGHT): so the loss D is at least m.  Y scores only k for its Kings, at most c for the
    Comet it plays, or 1 for the Comet caught in a third hand (then W scores it 2: no loss from it), so
    y <= k + c.  A King ends the run (R-COMMIT-C-KING) and its player, at a new run in the same turn, must
    lead (RUL-CATS-NEW-RUN = must): a natural non-King card, or the Comet or a King (each again ending the
    run), until a natural non-King card or the hand is empty, which would make Y the winner.  So each King
    Y plays is followed by a card of its own that scores nothing, m >= 2k (+1 for the Comet played), and
    in every case D >= y + k - (c - 1) >= 2y - (2c - 1).  ``tests/test_diverge_game_build.py`` checks the
    inequality on played deals, for every winner and every other seat."""
    if most_points_in_a_deal(rules, 2) is None or rules.cats_new_run != "must":
        return None
    return max(0, 2 * points - (2 * _comet_points(rules) - 1))


def fewest_tie_deals(rules: Ruleset, players: int) -> int | None:
    """The fewest deals of 002's Commit after which two seats may stand tied at ``TARGET`` or more (for
    ``game_floor``), or None where the bounds it rests on are not argued.

    Say X and Y tie at T >= 100 after d deals, X winning a of them, Y b <= a, and c won by another seat or
    by no one.  With P = ``most_points_in_a_deal`` and Q = 4 + c (the Kings they play and the Comet: the most
    two seats score together in a deal neither wins), Y's own deals give it at most P each and the c deals
    Q, so it needs at least 100 - bP - cQ points from X's a deals; those cost the pair ``partner_cost``
    each (convex in the points, so least when spread evenly), and the pair may lose no more than
    (a + b)P + cQ - 200 over the game.  The least d for which some a, b, c leave that possible is returned:
    7 deals at 2 players, 6 at 3 and at 4 (at 4 players, 5 deals would need Y, with two wins of at most 43,
    to take 14 points from X's three deals, which costs the pair at least 19 of its 15 to spare), 5 from 5
    players on."""
    from comet.games.commit_cats.rules import TARGET

    most = most_points_in_a_deal(rules, players)
    if most is None or partner_cost(rules, 0) is None:
        return None
    rest = 4 + _comet_points(rules)
    for deals in range(1, TARGET + 1):
        for a in range(deals + 1):
            for b in range(min(a, deals - a) + 1):
                c = deals - a - b
                spare = (a + b) * most + c * rest - 2 * TARGET
                need = TARGET - b * most - c * rest
                if spare < 0 or (need > 0 and a == 0):
                    continue
                share, extra = divmod(max(0, need), max(1, a))
                costs = [partner_cost(rules, share + (1 if i < extra else 0)) for i in range(a)]
                if sum(x or 0 for x in costs) <= spare:
                    return deals
    return None


def game_proof(pair: Pair, w: Witness) -> Proof:
    """What is proved of a game witness's size.  Games are compared by fewest deals asked, then fewest
    players, then (where it can be said) fewest actions before the difference.  A game of the fewest deals
    and players the rule sets allow (``smallest_game``, or more where ``game_floor`` shows it) is the
    smallest by construction; one whose difference shows before any action (the first dealer drawn, or the
    game refused) is also smallest in actions.  A larger game is not proved smallest: games are sampled by
    seed; the text states the lower bound."""
    deals, players = game_deals_asked(pair, w), w.players
    least = smallest_game(pair)
    floor = game_floor(pair)
    if floor is not None:
        least = floor[0]
    if (deals, players) != least:
        why = f" ({floor[1]})" if floor is not None else ""
        return Proof(
            "none",
            False,
            f"not proved: the game has {deals} deal(s) and {players} players, a game of {least[0]} deal(s) and "
            f"{least[1]} players may also differ{why} (games are sampled by seed)",
        )
    first = game_difference(
        pair, players, None if w.game_deals < 0 else w.game_deals, w.game_seed, w.game_policy, w.game_record
    )
    before_play = first is not None and first[0] == 0
    if floor is not None:
        rule = floor[1]
    else:
        rule = "RUL-GAME-LENGTH: a multiple of the players" if deals > 1 else "a game has at least one deal"
    text = (
        f"{deals} deal(s) and {players} players, the fewest deals any game of the pair may have ({rule}), "
        "and of those the fewest players"
    )
    if before_play:
        return Proof(
            "construction",
            True,
            f"smallest in deals, then players, then actions: {text}; it differs before any action ({w.detail})",
            over=("deals", "players", "actions"),
        )
    return Proof(
        "construction",
        True,
        f"smallest in deals, then players: {text}; actions before the difference not minimised",
        over=("deals", "players"),
    )
