"""Witness search: the smallest deal (or game) where two rule sets part ways.

Two rule sets of one game are run in lockstep on the same deal: the same cards, and the same actions
for as long as both agree on what is legal.  The first point of difference is one of

``refused``   the deal itself is a legal deal under one rule set and not the other (a record error);
``dealt``     the same shuffled pack is dealt into different hands (not expressible in a deal record);
``legal``     the two rule sets allow different actions (the witness ends with one allowed by only one);
``payments``  the same action moves different chips (or points) during play;
``outcome``   the deal ends differently: who went out, a draw, or the settlement.

A breadth-first search over action sequences (both states stepped together, so the bound is exhaustive
for each deal tried) finds the shortest difference in a deal; playouts by several policies reach
differences that only show at the end of a long deal, and those are shrunk Hypothesis-style (choices
replaced by earlier ones while the divergence persists and gets no longer).  Deals come from seeded
shuffles with the fewest players first, and from planted hands (the wild card in the first player's
hand; straights for the first player and the dealer) for situations a shuffle rarely makes.

A ruling that never shows within a deal is tried over whole games (``comet.game``), same seeds.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from comet.cards import KING, Card, rank_of
from comet.diverge.lockstep import describe, legal_split, step_both
from comet.diverge.pairs import Pair, all_pairs, value_text
from comet.diverge.policies import make_policy
from comet.diverge.records import DEAL_MODES, PLAYOUT_POLICIES, Bound, Proof, Search, Witness, cards_played
from comet.diverge.store import load, pair_for, witness_of
from comet.engine import (
    deal_sizes,
    distribute,
    explicit_deal,
    legal_actions,
    packs_in_rotation,
    player_counts,
    start_deal,
)
from comet.errors import IllegalAction, RecordError
from comet.game import GameState, default_deals, play_game, winners
from comet.ruleset import GAME_LEVEL_FIELDS, Ruleset
from comet.state import Action, DealState
from comet.variant import variant_of

DEFAULT_BOUND = Bound()


# --------------------------------------------------------------------- deals to try


def plant(hands: list[list[Card]], dead: list[Card], seat: int, wanted: Sequence[Card], rng: random.Random) -> None:
    """Swap cards so that ``seat`` holds ``wanted`` (as far as its hand size allows)."""
    mine = hands[seat]
    for c in wanted:
        if c in mine:
            continue
        spare = [i for i, x in enumerate(mine) if x not in wanted]
        if not spare:
            return
        i = spare[rng.randrange(len(spare))]
        for h in (*hands, dead):
            if c in h and h is not mine:
                h[h.index(c)] = mine[i]
                mine[i] = c
                break


def straight(cards: Sequence[Card], size: int, rng: random.Random, avoid: Sequence[Card]) -> list[Card]:
    """One card of each rank from as low as a ``size``-card straight to the King allows, up to the King."""
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        if c not in avoid:
            by_rank.setdefault(rank_of(c), []).append(c)
    low = max(min(by_rank), KING - size + 1)
    return [rng.choice(by_rank[r]) for r in range(low, KING + 1) if r in by_rank]


def deal_candidates(pair: Pair, bound: Bound) -> Iterator[tuple[str, DealState, list[Card]]]:
    """(origin, start under A, the shuffled order) for every deal tried, fewest players first."""
    counts = [n for n in player_counts(pair.a) if n in player_counts(pair.b)]
    for seed in range(bound.seeds):
        for players in counts:
            packs = packs_in_rotation(pair.a, players)
            for pack_index, pack in enumerate(packs):
                for mode in DEAL_MODES:
                    if mode in ("wild", "sets") and not pack.wild:
                        continue
                    rng = random.Random(f"{seed}:{mode}:{pack_index}")
                    order = list(pack.cards)
                    rng.shuffle(order)
                    dealer = seed % players
                    size, _ = deal_sizes(pair.a, players, len(pack.cards))
                    hands_t, dead_t = distribute(pair.a, order, players, dealer, size)
                    hands = [list(h) for h in hands_t]
                    dead = list(dead_t)
                    first = (dealer + 1) % players
                    if mode == "wild":
                        plant(hands, dead, first, pack.wild, rng)
                    elif mode == "sets":
                        # the wild card with every natural card of its rank (odd seeds: Kings, Queens, ...)
                        rank = rank_of(pack.wild[0]) if seed % 2 == 0 else KING - (seed // 2) % 12
                        same = [c for c in pack.cards if rank_of(c) == rank and c not in pack.wild]
                        plant(hands, dead, first, [*pack.wild[:1], *same][: max(1, size - 1)], rng)
                    elif mode == "straights":
                        plant(hands, dead, first, straight(pack.cards, size, rng, pack.wild), rng)
                        if players > 1:
                            taken = hands[first]
                            plant(hands, dead, dealer, straight(pack.cards, size, rng, (*pack.wild, *taken)), rng)
                    value = variant_of(pair.a).comet_value
                    if seed % 3 == 2 and value and variant_of(pair.a).comet_escalates:
                        value += 2
                    start = start_deal(pair.a, pack, players, dealer, hands, dead, value)
                    yield f"{players} players, seed {seed}, {pack.name} pack, {mode} deal", start, order


def deal_witness(start: DealState, kind: str, detail: str, origin: str, actions: tuple[Action, ...] = ()) -> Witness:
    """A deal-level witness: the deal ``start`` under rule set A and ``actions`` played from it, the last
    being where the rule sets part ways (none: the deal itself, refused under B or dealt differently)."""
    return Witness(
        "deal",
        kind,
        detail,
        start.players,
        start.dealer,
        start.pack,
        start.comet_value,
        start.hands,
        start.dead,
        actions,
        len(actions) - 1,
        origin,
    )


def deal_difference(pair: Pair, start: DealState, order: list[Card], origin: str) -> Witness | None:
    """The deal itself differs: refused under B as a record, or the same shuffle dealt differently."""
    try:
        explicit_deal(pair.b, start.players, start.dealer, start.hands, start.dead, start.comet_value)
    except RecordError as e:
        return deal_witness(start, "refused", f"B refuses this deal [{e.kind}]: {_short(str(e))}", origin)
    if "shuffled" in origin:
        pack = next(p for p in packs_in_rotation(pair.a, start.players) if p.name == start.pack)
        packs_b = packs_in_rotation(pair.b, start.players)
        if [p.cards for p in packs_b] != [p.cards for p in packs_in_rotation(pair.a, start.players)]:
            return deal_witness(
                start, "dealt", "B deals from other packs: " + ", ".join(p.name for p in packs_b), origin
            )
        try:
            size_b, _ = deal_sizes(pair.b, start.players, len(pack.cards))
            hands_b, dead_b = distribute(pair.b, order, start.players, start.dealer, size_b)
        except RecordError:
            return None
        if hands_b != start.hands or dead_b != start.dead:
            return deal_witness(start, "dealt", "the same shuffled pack is dealt into different hands under B", origin)
    return None


# --------------------------------------------------------------------- searching one deal


def breadth_first(pair: Pair, sa0: DealState, depth: int, nodes: int) -> tuple[tuple[Action, ...], str, str] | None:
    """The shortest action sequence (at most ``depth`` + 1 actions) after which the two rule sets differ."""
    sb0 = _as_b(pair, sa0)
    frontier: list[tuple[tuple[Action, ...], DealState, DealState]] = [((), sa0, sb0)]
    seen: set[tuple[DealState, DealState]] = set()
    expanded = 0
    for _ in range(depth + 1):
        nxt: list[tuple[tuple[Action, ...], DealState, DealState]] = []
        for path, sa, sb in frontier:
            if sa.terminal:
                continue
            split = legal_split(sa, sb)
            if split is not None:
                return (*path, split), "legal", describe("legal", sa, sb, split)
            for a in legal_actions(sa):
                na, nb, kind = step_both(sa, sb, a)
                if kind is not None:
                    return (*path, a), kind, describe(kind, na, nb, a)
                key = (na, nb)
                if key not in seen:
                    seen.add(key)
                    nxt.append(((*path, a), na, nb))
            expanded += 1
            if expanded >= nodes:
                return None
        frontier = nxt
    return None


def _as_b(pair: Pair, sa: DealState) -> DealState:
    return start_deal(pair.b, _pack_of(pair.b, sa), sa.players, sa.dealer, sa.hands, sa.dead, sa.comet_value)


def _pack_of(rules: Ruleset, s: DealState):  # type: ignore[no-untyped-def]
    for p in packs_in_rotation(rules, s.players):
        if p.name == s.pack:
            return p
    return packs_in_rotation(rules, s.players)[0]


def playout(
    pair: Pair, sa0: DealState, choices: Sequence[int], policy: str, seed: int, limit: int
) -> tuple[tuple[Action, ...], str, str, list[int]] | None:
    """Play in lockstep: ``choices`` (indices into the legal actions) first, then ``policy``; the record to
    the first difference, its kind, a description and the choice indices that led there."""
    choose = make_policy(policy, seed)
    sa, sb = sa0, _as_b(pair, sa0)
    path: list[Action] = []
    idx: list[int] = []
    while not sa.terminal and len(path) < limit:
        split = legal_split(sa, sb)
        if split is not None:
            return (*path, split), "legal", describe("legal", sa, sb, split), idx
        legal = legal_actions(sa)
        i = len(path)
        a = legal[choices[i] % len(legal)] if i < len(choices) else choose(sa, legal)
        idx.append(legal.index(a))
        path.append(a)
        sa, sb, kind = step_both(sa, sb, a)
        if kind is not None:
            return tuple(path), kind, describe(kind, sa, sb, a), idx
    return None


def shrink(
    pair: Pair, sa0: DealState, found: tuple[tuple[Action, ...], str, str, list[int]], policy: str, deadline: float
) -> tuple[tuple[Action, ...], str, str, list[int]]:
    """Replace choices by earlier legal actions while the deals still part ways no later (Hypothesis-style)."""
    best = found
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        i = 0
        while i < len(best[3]) and not improved:
            for c in range(best[3][i]):
                trial = playout(pair, sa0, [*best[3][:i], c], policy, 0, len(best[0]))
                if trial is not None and (len(trial[0]), trial[3]) < (len(best[0]), best[3]):
                    best = trial
                    improved = True
                    break
            if time.monotonic() >= deadline:
                break
            i += 1
    return best


# --------------------------------------------------------------------- whole games


def game_points(rules: Ruleset, players: int, deals: int | None, seed: int, policy: str) -> list[tuple[str, object]]:
    """What an observer sees of a whole seeded game, in the order it happens: the first dealer, each deal's
    net chips, then the winners, the net chips and the deals played (or that the game is refused)."""
    starts: list[DealState] = []
    try:
        g = play_game(rules, players, deals, seed, make_policy(policy, seed), lambda s, a, g: starts.append(s))
    except RecordError as e:
        return [("refused", f"{e.kind}: {e}")]
    out: list[tuple[str, object]] = [("first dealer", starts[0].dealer if starts else -1)]
    out += [(f"deal {i + 1} net chips", list(h)) for i, h in enumerate(g.history)]
    return [*out, ("winners", list(winners(g))), ("net chips", list(_net(g))), ("deals played", g.deal_index)]


def game_difference(pair: Pair, players: int, deals: int | None, seed: int, policy: str) -> tuple[int, str] | None:
    """The first point where the seeded game differs under A and B (its index in ``game_points``) and what
    differs there, told in words; None if the games are the same."""
    pa = game_points(pair.a, players, deals, seed, policy)
    pb = game_points(pair.b, players, deals, seed, policy)
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


def game_outcome(rules: Ruleset, players: int, deals: int | None, seed: int, policy: str) -> tuple[object, ...]:
    """What an observer sees of a whole seeded game: refused (and why), or winners, net chips per seat,
    deals played and each deal's net chips."""
    try:
        g = play_game(rules, players, deals, seed, make_policy(policy, seed))
    except RecordError as e:
        return ("refused", e.kind, str(e))
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


def stored_game(pair: Pair) -> Witness | None:
    """The stored game witness of ``pair`` (``witnesses.json``), if it is one of the same two rule sets and
    still shows its stored difference (``claimed_difference``); None otherwise."""
    e = load().get(pair.key)
    if e is None or not e.get("found") or e.get("level") != "game":
        return None
    if (pair_for(e).a, pair_for(e).b) != (pair.a, pair.b):
        return None
    w = witness_of(e)
    if w is None:
        return None
    try:
        if claimed_difference(pair, w) != (-1, w.kind, w.detail):
            return None
    except ValueError:
        return None
    return w


# --------------------------------------------------------------------- the search


def search(
    pair: Pair,
    bound: Bound = DEFAULT_BOUND,
    games: bool = True,
    deals: bool = True,
    prove_size: bool = False,
    on_question: Callable[[str], None] | None = None,
    prove_rlimit: int | None = None,
) -> Search:
    """The smallest witness for ``pair`` within ``bound`` (deals first, then whole games); with
    ``prove_size``, a deal witness proved smallest by ``prove`` where it can be, and for a pair with no
    witness, what would make it matter (``needs``).  A ruling that acts between deals only
    (``comet.ruleset.GAME_LEVEL_FIELDS``: every deal is played alike under both readings) is searched
    over whole games alone."""
    t0 = time.monotonic()
    between_deals = pair.field in GAME_LEVEL_FIELDS
    deals = deals and not between_deals
    z: object = None
    if prove_size and deals:
        counts = [n for n in player_counts(pair.a) if n in player_counts(pair.b)]
        if not any(differs_before_play(pair, n) for n in counts):
            z = z3_smallest(pair, on_question, prove_rlimit)
    if z is not None and getattr(z, "start", None) is not None:
        w, z_proof = prove(pair, None, z)
        return Search(pair, w, "every deal (Z3)", 0, 0, time.monotonic() - t0, (), z_proof)
    deadline = time.monotonic() + bound.seconds
    best: Witness | None = None
    tried = 0
    capped = False
    for origin, sa0, order in deal_candidates(pair, bound) if deals else iter(()):
        if time.monotonic() > deadline:
            capped = True
            break
        tried += 1
        found = deal_difference(pair, sa0, order, origin)
        if found is not None:
            # a deal refused under B is a record (a vector); a deal dealt differently is not: prefer the former
            if best is None or found.size < best.size or (found.kind == "refused" and best.kind == "dealt"):
                best = found
            if found.kind == "refused":
                break
            continue
        if best is not None and len(best.actions) <= 1 and best.kind != "dealt":
            break
        # a record of n actions is found at breadth-first level n - 1: look only for shorter ones
        limit = len(best.actions) - 2 if best is not None else bound.depth
        bfs = breadth_first(pair, sa0, min(limit, bound.depth), bound.nodes) if limit >= 0 else None
        if bfs is not None:
            best = _better(best, deal_witness(sa0, bfs[1], bfs[2], origin + ", every sequence searched", bfs[0]))
            continue
        if best is not None and len(best.actions) <= bound.depth + 1:
            continue  # a playout cannot beat a witness within the exhaustive depth
        for k, policy in enumerate(PLAYOUT_POLICIES[:-1] + ("random",) * bound.random_playouts):
            res = playout(pair, sa0, [], policy, tried * 31 + k, 10_000)
            if res is None:
                continue
            res = shrink(pair, sa0, res, policy, min(deadline, time.monotonic() + 2.0))
            best = _better(best, deal_witness(sa0, res[1], res[2], f"{origin}, {policy} playout shrunk", res[0]))
    games_tried = 0
    notes: list[str] = []
    if between_deals:
        notes.append("no deal searched: the ruling acts between deals only, so every deal is played alike")
    if capped:
        notes.append(f"the deal search stopped at its time cap ({bound.seconds:g} s) after {tried} deals")
    proof: Proof | None = None
    if prove_size and deals:
        best, proof = prove(pair, best, z)
    if best is None and games:
        deadline = time.monotonic() + bound.seconds
        best, games_tried = game_witness(pair, bound, deadline, stored_game(pair))
        if best is None:
            notes.append(
                "no game within the bound differs" if between_deals else "no deal and no game within the bound differs"
            )
        else:
            if not between_deals:
                notes.append("the readings never differed within a deal in the bound; they differ over a game")
            if prove_size:
                proof = game_proof(pair, best)
    if best is None and prove_size and pair.field:
        need = needs(pair, bound, prove_rlimit)
        if need is not None and need[1].startswith("inert: "):
            proof = Proof("inert", True, need[1], need[0])
        elif need is not None:
            proof = Proof("none", False, need[1], need[0])
        else:
            proof = Proof("none", False, no_witness_reason(pair))
    return Search(pair, best, bound.text(), tried, games_tried, time.monotonic() - t0, tuple(notes), proof)


def no_witness_reason(pair: Pair) -> str:
    """Why a pair with no witness, and no other reading found to make it matter, is not proved inert."""
    if pair.field in GAME_LEVEL_FIELDS:
        return (
            "not proved: no witness; the ruling acts between deals only (comet.ruleset.GAME_LEVEL_FIELDS), and no "
            "sampled game differed, which proves nothing (games are sampled by seed)"
        )
    if pair.field.startswith(("opera_", "old_opera_")) and not pair.a.opera:
        return (
            "not proved: no witness; the ruling is read only with opera = true, no encoding covers this preset "
            "with it, and no sampled deal with it differed"
        )
    return (
        "not proved: no witness; the Z3 encodings do not tell these readings apart and no sampled deal or game differed"
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
      up to a multiple of n (RUL-GAME-LENGTH)."""
    counts = [n for n in player_counts(pair.a) if n in player_counts(pair.b)]
    v = variant_of(pair.a)
    if pair.field in ("two_player_end", "commit_tie") and v.game_end == "target":
        why = (
            "in a game to a target the deals asked bound its length, so a game asked for one deal ends after it "
            "under both readings"
        )
        return (2, counts[0]), why
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
    first = game_difference(pair, players, None if w.game_deals < 0 else w.game_deals, w.game_seed, w.game_policy)
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


def first_action_proof(pair: Pair, w: Witness, why_not: str) -> Proof | None:
    """A deal witness of 1 action when no deal of any player count differs before play
    (``differs_before_play``, decided for every deal) is smallest in actions by construction; with the
    fewest players the rule sets allow, in players too; with a pass as its action (no card), in cards
    too.  None for any other witness.  ``why_not`` is why no fuller proof was made (Z3's answer)."""
    if w.level != "deal" or len(w.actions) != 1:
        return None
    counts = [n for n in player_counts(pair.a) if n in player_counts(pair.b)]
    if any(differs_before_play(pair, n) for n in counts):
        return None
    players = ", ".join(map(str, counts))
    parts = [f"1 action, the fewest: no deal of {players} players differs before play"]
    over: tuple[str, ...] = ("actions",)
    if w.players == counts[0]:
        parts.append(f"{w.players} players, the fewest the game allows")
        over = ("actions", "players")
        if not w.actions[0].cards:
            parts.append("0 cards put down (a pass)")
            over = ("actions", "players", "cards")
        else:
            parts.append(f"cards not minimised: fewer than {_cards_n(cards_played(w))} not excluded ({why_not})")
    else:
        parts.append(f"players not minimised: fewer than {w.players} not excluded ({why_not})")
    return Proof("construction", True, f"smallest in {', then '.join(over)}: " + "; ".join(parts), over=over)


def _cards_n(k: int) -> str:
    return f"{k} card" if k == 1 else f"{k} cards"


def needs(pair: Pair, bound: Bound, prove_rlimit: int | None = None) -> tuple[str, str] | None:
    """What would make a pair with no witness matter: the first other reading of the preset under which
    the pair's readings part ways, as (``field = value``, why), or None.  The pair is called *inert* only
    when that reading brings the deal under an encoding that reads the pair's field while the preset's
    own encoding does not (its cross-check varies the field and sees no change); otherwise the text says
    only that no witness was found without the reading.

    Readings that put the deal under an encoding which quantifies the pair's field (the Opera's encoding
    reads ``opera_draw``; the standard one lists it as unquantified) are tried first; each is confirmed by
    a witness search under it, so the answer is a witness, not a guess."""
    others = [g for g in all_pairs([pair.preset]) if g.field != pair.field]
    first = [g for g in others if _quantified_under(pair, g)]
    argued = argued_inert(pair)
    if argued is not None and not first:
        return _argued_needs(pair, argued, others)
    quick = Bound(seeds=3, depth=4, nodes=400, random_playouts=1, game_seeds=2, max_game_deals=2, seconds=3.0)
    for g in [*first, *[g for g in others if g not in first]]:
        try:
            a2 = pair.a.with_overrides({g.field: g.value_b})
            b2 = a2.with_overrides({pair.field: pair.value_b})
        except ValueError:
            continue
        flipped = Pair(pair.preset, pair.field, a2, b2)
        stored = stored_witness(flipped)
        if stored is not None:
            # the same two rule sets are another preset's pair (standard with opera = true is the opera
            # preset), whose stored witness replays under them: no search needed
            w: Witness | None = stored
        elif g in first:
            # the field is read within a deal under g: Z3 over every deal, else the full sampled search
            z = z3_smallest(flipped, None, prove_rlimit)
            start = getattr(z, "start", None)
            if start is not None:
                actions = getattr(z, "actions", ())
                _step, kind, detail = _label(flipped, start, actions)
                w = deal_witness(start, kind, detail, "Z3", actions)
            else:
                w = search(flipped, bound, games=False).witness
        else:
            # the field changes no deal under the preset's encoding: only whole games can differ
            w = search(flipped, quick, deals=False).witness
        if w is not None:
            label = f"{g.field} = {value_text(g.value_b)}"
            size = (
                f"{len(w.actions)} action(s), {w.players} players"
                if w.level == "deal"
                else f"a game, {w.players} players"
            )
            found = f"a witness of {size}: {w.detail}"
            if g in first:
                return label, f"inert: needs {label} (with it, {found})"
            # a witness under g is no proof that none exists without it (the search is bounded)
            return label, f"no witness found under the preset's readings; with {label} there is {found}"
    return None


#: The rulings read only in an Opera (RUL-OPERA-*, RUL-OLD-OPERA-*): ``argued_inert`` where the Opera is off.
OPERA_RULINGS: frozenset[str] = frozenset(
    {"opera_draw", "opera_stack", "opera_caught", "opera_comet_bonus", "old_opera_bonus", "old_opera_caught"}
)


def argued_inert(pair: Pair) -> tuple[str, str, str] | None:
    """A pair that cannot differ under the preset's other readings, by an argument over the code rather
    than an encoding: (the field, the reading of it that would make the pair matter, why); None otherwise.

    RUL-STARTING-CHIPS under RUL-INSOLVENCY = debt, in a game of a fixed number of deals: a game's balances
    are the starting chips plus the deals' payments, and no payment reads a balance; the winners (ties, and
    RUL-GAME-TIE's extra rounds) compare the balances with one another and the net chips subtract the
    starting chips, so every game is the same with any starting chips.  Under pay_what_you_have a payment
    is cut at its payer's balance, which reads them.  ``tests/test_diverge_game_floor.py`` checks the
    premise on games of every chips preset, and that the same check sees pay_what_you_have.

    The Opera's rulings (``OPERA_RULINGS``) where the Opera is off under both rule sets: every reader of
    them asks ``opera.rules.is_opera`` (false while ``opera`` is off) or is an Opera hook that returns at
    once while it is off.  This is used only where no encoding tells what the field needs (``needs``
    tries those first); the same test file checks the premise on Opera deals of two players and of Old
    Comet.

    RUL-ESCALATION-TRIGGER, RUL-ESCALATION-RESET and RUL-ESCALATION-PACKS where the Comet's value never
    rises (``Variant.escalates_under`` is false under both rule sets: Old Comet's flat 10,
    RUL-OLD-ESCALATION = none): they are read only to raise the value (``game.comet_value_for``,
    ``game.finish_deal``), which stays the variant's own; the reading of the preset that makes it rise is
    what they need.  The same test file checks the premise on Old Comet games."""
    v = variant_of(pair.a)
    if pair.field in OPERA_RULINGS and not pair.a.opera and not pair.b.opera:
        why = (
            "the Opera's rulings are read only in an Opera (opera.rules.is_opera, false while opera is off, or the "
            "Opera's hooks, the identity while it is off), so every deal is the same"
        )
        return "opera", "true", why
    if (
        pair.field in ("escalate_on", "comet_reset", "escalation")
        and not v.escalates_under(pair.a)
        and not variant_of(pair.b).escalates_under(pair.b)
    ):
        rising = next(
            (g for g in all_pairs([pair.preset]) if g.field != pair.field and variant_of(g.b).escalates_under(g.b)),
            None,
        )
        if rising is not None:
            why = (
                "the Comet's value never rises under the preset's readings, and the escalation rulings are read "
                "only to raise it, so every game is the same"
            )
            return rising.field, str(rising.value_b), why
    if (
        pair.field == "starting_chips"
        and pair.a.insolvency == pair.b.insolvency == "debt"
        and v.scoring == "chips"
        and v.game_end == "deals"
        and v.race_end is None
    ):
        why = (
            "with insolvency = debt no payment reads a balance, and the winners, their ties and the net chips "
            "compare balances only with one another or less the starting chips, so every game is the same"
        )
        return "insolvency", "pay_what_you_have", why
    return None


def _argued_needs(pair: Pair, argued: tuple[str, str, str], others: list[Pair]) -> tuple[str, str]:
    """``needs`` for an ``argued_inert`` pair: its reason, and a witness under the reading it needs (the
    stored witness of that reading's own pair when it replays, else a quick search).  A stored entry of the
    pair that already says so and names a witness (one a longer or constructive search found, such as the
    Opera hands built for ``witnesses.json``) is kept."""
    field, value, why = argued
    label = f"{field} = {value_text(value)}"
    kept = load().get(pair.key)
    kept_proof = kept.get("proof") if kept is not None else None
    if (
        kept is not None
        and isinstance(kept_proof, dict)
        and kept_proof.get("method") == "inert"
        and kept_proof.get("needs") == label
        and "; with " in str(kept_proof.get("text", ""))
        and (pair_for(kept).a, pair_for(kept).b) == (pair.a, pair.b)
    ):
        return label, str(kept_proof["text"])
    a2 = pair.a.with_overrides({field: value})
    flipped = Pair(pair.preset, pair.field, a2, a2.with_overrides({pair.field: pair.value_b}))
    found: Witness | None = None
    reused = ""
    own = load().get(next((g.key for g in others if g.field == field and value_text(g.value_b) == value), ""))
    w = witness_of(own) if own is not None else None
    if own is not None and w is not None:
        try:
            _step, kind, detail = claimed_difference(flipped, w)
            found, reused = replace(w, kind=kind, detail=detail), f", the stored witness of {pair_for(own).key}"
        except ValueError:
            found = None
    if found is None:
        quick = Bound(seeds=3, depth=4, nodes=400, random_playouts=1, game_seeds=2, max_game_deals=2, seconds=3.0)
        found = search(flipped, quick, deals=pair.field not in GAME_LEVEL_FIELDS).witness
    if found is None:
        return label, f"inert: needs {label} ({why}; nothing with it was found to differ within the bound)"
    if found.level == "game":
        size = f"a game of {game_deals_asked(flipped, found)} deal(s), {found.players} players{reused}"
    else:
        size = f"a deal of {len(found.actions)} action(s), {found.players} players{reused}"
    return label, f"inert: needs {label} ({why}; with it, {size}: {found.detail})"


def stored_witness(pair: Pair) -> Witness | None:
    """A stored witness (``witnesses.json``) of another pair with the very same two rule sets, if its
    label replays under ``pair`` (``claimed_difference``); None otherwise."""
    for e in load().values():
        if not e.get("found"):
            continue
        other = pair_for(e)
        if (other.a, other.b) != (pair.a, pair.b):
            continue
        w = witness_of(e)
        if w is None:
            continue
        try:
            step, kind, detail = claimed_difference(pair, w)
        except ValueError:
            continue
        if (step, kind, detail) == (w.step, w.kind, w.detail):
            return replace(w, origin=f"{w.origin} (the stored witness of {other.key})")
    return None


def _quantified_under(pair: Pair, g: Pair) -> bool:
    """Does switching ``g`` bring the deal under an encoding that quantifies ``pair``'s field?"""
    try:
        from comet_proofs.smallest import quantifies
    except ImportError:
        return False
    try:
        a2 = pair.a.with_overrides({g.field: g.value_b})
        b2 = a2.with_overrides({pair.field: pair.value_b})
    except ValueError:
        return False
    n = variant_of(a2).default_players
    return quantifies(pair.preset, pair.field, a2, b2, n) and not quantifies(pair.preset, pair.field, pair.a, pair.b, n)


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _better(best: Witness | None, new: Witness) -> Witness:
    return new if best is None or new.size < best.size else best


# --------------------------------------------------------------------- checked labels


def claimed_difference(pair: Pair, w: Witness) -> tuple[int, str, str]:
    """Replay a witness under both rule sets and say where and how they first differ: (step, kind, detail)
    as ``search`` labels a witness (step -1: the deal itself).  A stored label must equal this
    (``tests/test_diverge_labels.py``); ValueError when the witness shows no difference at all."""
    if w.level == "game":
        deals = None if w.game_deals < 0 else w.game_deals
        diff = game_difference(pair, w.players, deals, w.game_seed, w.game_policy)
        if diff is None:
            raise ValueError("the two games are the same")
        return -1, "game", diff[1]
    try:
        sa = w.start(pair.a)
    except RecordError as e:
        raise ValueError(f"the deal is refused under A: {e}") from e
    try:
        w.start(pair.b)
    except RecordError as e:
        return -1, "refused", f"B refuses this deal [{e.kind}]: {_short(str(e))}"
    if w.kind == "dealt" and not w.actions:
        # a shuffle dealt two ways: B's hands are not in the record, but the rule sets must deal differently
        if not differs_before_play(pair, w.players):
            raise ValueError("the rule sets deal every shuffle alike")
        return -1, "dealt", w.detail
    sb = _as_b(pair, sa)
    for i, a in enumerate(w.actions):
        split = legal_split(sa, sb)
        if split is not None:
            if split != a:
                raise ValueError(f"step {i}: the rule sets part ways on '{split}', not on the record's '{a}'")
            return i, "legal", describe("legal", sa, sb, a)
        try:
            sa, sb, kind = step_both(sa, sb, a)
        except IllegalAction as e:
            raise ValueError(f"step {i}: '{a}' is legal under neither rule set ({e.rule})") from e
        if kind is not None:
            return i, kind, describe(kind, sa, sb, a)
    raise ValueError("the rule sets agree on every step of the record")


# --------------------------------------------------------------------- proofs of size


def differs_before_play(pair: Pair, players: int) -> bool:
    """Can a deal of ``players`` differ before any action (a 0-action witness)?  B refuses a deal of A, or
    deals a shuffle differently.  Whether ``explicit_deal`` accepts a deal reads only the cards of the
    whole deal (one of the packs in rotation) and the hand sizes, the same for every deal of a player
    count, so one deal per pack decides it for all; a shuffle is dealt alike when the packs, the deal sizes
    and the deal order agree."""
    try:
        packs_a = packs_in_rotation(pair.a, players)
        packs_b = packs_in_rotation(pair.b, players)
    except RecordError:
        return True
    if [p.cards for p in packs_a] != [p.cards for p in packs_b] or pair.a.deal_order != pair.b.deal_order:
        return True
    for pack in packs_a:
        try:
            sizes = deal_sizes(pair.a, players, len(pack.cards))
            if deal_sizes(pair.b, players, len(pack.cards)) != sizes:
                return True
            hands, dead = distribute(pair.a, pack.cards, players, 0, sizes[0])
            explicit_deal(pair.b, players, 0, hands, dead, None)
        except RecordError:
            return True
    return False


def _before_play_witness(pair: Pair, players: int) -> Witness | None:
    """A deal of ``players`` that differs before any action (``differs_before_play`` says one exists):
    seeded shuffles of each pack in rotation, dealt under A, until one is refused or dealt otherwise."""
    for seed in range(20):
        for pack in packs_in_rotation(pair.a, players):
            order = list(pack.cards)
            random.Random(f"{seed}:before:{pack.name}").shuffle(order)
            size, _ = deal_sizes(pair.a, players, len(pack.cards))
            hands, dead = distribute(pair.a, order, players, 0, size)
            start = start_deal(pair.a, pack, players, 0, hands, dead, variant_of(pair.a).comet_value)
            origin = f"{players} players, seed {seed}, {pack.name} pack, shuffled deal"
            w = deal_difference(pair, start, order, origin)
            if w is not None:
                return w
    return None


def z3_smallest(
    pair: Pair,
    on_question: Callable[[str], None] | None = None,
    rlimit: int | None = None,
    only: Sequence[int] | None = None,
) -> object:
    """``comet_proofs.smallest.smallest`` for the pair within ``rlimit`` Z3 resource units (default: its
    ``PAIR_RLIMIT``); None: no encoding tells the readings apart; the string "missing" when the proofs
    package is not installed; ``only``: over deals of those player counts alone)."""
    try:
        from comet_proofs.smallest import PAIR_RLIMIT, smallest
    except ImportError:  # the proofs package is not installed
        return "missing"
    budget = PAIR_RLIMIT if rlimit is None else rlimit
    return smallest(pair.preset, pair.field, pair.a, pair.b, on_question, rlimit=budget, only=only)


def prove(pair: Pair, found: Witness | None, z: object) -> tuple[Witness | None, Proof]:
    """The witness to keep and what is proved about its size, from the sampled witness ``found`` and
    Z3's answer ``z`` (``z3_smallest``).

    A witness of 0 actions (the deal refused or dealt differently) with the fewest players both rule sets
    allow cannot be beaten.  Otherwise Z3 (``comet_proofs.smallest``) searches every deal of every player
    count, fewest actions first, when the pair is one its encodings tell apart; its witness (replayed and
    checked by the engine) replaces the one found by sampling.  Without either, nothing is proved."""
    counts = [n for n in player_counts(pair.a) if n in player_counts(pair.b)]
    before = [n for n in counts if differs_before_play(pair, n)]
    if before and (found is None or found.actions or found.level != "deal" or found.players > before[0]):
        found = _before_play_witness(pair, before[0]) or found
    if found is not None and found.level == "deal" and not found.actions:
        if before and found.players == before[0]:
            fewer = [n for n in counts if n < found.players]
            why = (
                f"; with {', '.join(map(str, fewer))} players every deal is dealt and accepted alike under both"
                if fewer
                else ", the fewest the game allows"
            )
            return found, Proof(
                "construction",
                True,
                f"smallest in actions, then players, then cards: 0 actions (the deal itself differs) with "
                f"{found.players} players{why}",
                over=("actions", "players", "cards"),
            )
        return found, Proof("none", False, "not proved: a deal of fewer players may differ before play")
    if before:
        return found, Proof("none", False, f"not proved: a deal of {before[0]} players differs before play")
    if z == "missing":
        return found, _or_first_action(pair, found, "not proved (the comet_proofs package is not installed)")
    if z is None:
        from comet_proofs.smallest import blind_reason

        why = blind_reason(pair.preset, pair.field, pair.a, pair.b)
        return found, _or_first_action(
            pair, found, f"not proved: the Z3 encodings do not tell these readings apart: {why}"
        )
    from comet_proofs.smallest import Smallest

    assert isinstance(z, Smallest)
    if z.start is None:
        if z.proved:
            return found, Proof("z3", True, z.text, size=z.size, over=z.over, within=z.within)
        return found, _or_first_action(pair, found, f"not proved ({z.text})")
    step, kind, detail = _label(pair, z.start, z.actions)
    w = deal_witness(z.start, kind, detail, f"Z3, {z.players} players, every deal", z.actions)
    if step != len(z.actions) - 1:
        raise AssertionError(f"{pair.key}: the Z3 witness differs at step {step}, not at its last action")
    if found is not None and found.level == "deal" and found.size < w.size:
        return found, Proof("none", False, f"not proved (Z3's witness is larger than the one sampled: {z.text})")
    return w, Proof("z3" if z.proved else "none", z.proved, z.text, size=z.size, over=z.over, within=z.within)


def _or_first_action(pair: Pair, found: Witness | None, why: str) -> Proof:
    """``first_action_proof`` for ``found`` where it applies, else "not proved" with ``why``."""
    proof = first_action_proof(pair, found, why.removeprefix("not proved").strip(" :()")) if found else None
    return proof or Proof("none", False, why)


def _label(pair: Pair, start: DealState, actions: tuple[Action, ...]) -> tuple[int, str, str]:
    w = deal_witness(start, "", "", "", actions)
    return claimed_difference(pair, w)
