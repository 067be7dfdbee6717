"""The standard settlement in the fast kernel (``comet.engine.standard_settlement`` and the Opera, two-player
and Old Comet hooks' counterparts) and the payments all around."""

# Numba compiles these functions: plain loops and ``==`` chains are kept on purpose (no generators, no
# tuple membership tests in the hot path).

from __future__ import annotations

from comet.fast.config import (
    C_COMET_VALUE,
    C_GAME,
    C_OLD_BONUS_LAST,
    C_OLD_CAUGHT_DOUBLE,
    C_OLD_CAUGHT_NINE,
    C_OLD_COURT_RANK,
    C_OLD_LAST_MULT,
    C_OLD_NINE_ONLY,
    C_OLD_OPERA_BONUS,
    C_OLD_OPERA_DOUBLED,
    C_OPERA_CAUGHT_HIGHEST,
    C_OPERA_MULTIPLY,
    GAME_OLD_COMET,
    GAME_TWO_PLAYER,
    H_MUTANT,
    H_PLAYERS,
    H_WILD1,
)
from comet.fast.jit import I8, I64, hot, jit
from comet.trace import rule


@hot
def each_pays(chips: I64, players: int, seat: int, amount: int) -> None:
    if amount:
        for p in range(players):
            if p != seat:
                chips[p] -= amount
                chips[seat] += amount


@hot
def going_out_multiplier(wild_as: int) -> int:
    return 4 if wild_as == 9 else 2


@jit
@rule(
    "R-SETTLE-POINTS",
    "R-SETTLE-CAUGHT",
    "R-SETTLE-COMET-LAST",
    "R-OPERA-DOUBLE",
    "R-2P-POINTS",
    "R-2P-DOUBLING",
    "R-OLD-POINTS",
    "R-OLD-SETTLE",
    "R-OLD-MANILLE-CAUGHT",
    "R-OLD-MANILLE-PLAY",
)
def settle(
    cfg: I64, cnt: I8, nat: I8, size: I64, winner: int, wild_as: int, opera: bool, chips: I64, points: I64
) -> None:
    """End-of-deal payments (standard, Opera), two-player points, Old Comet's settlement."""
    players = cfg[H_PLAYERS]
    game = cfg[C_GAME]
    wild = cfg[H_WILD1]
    if game == GAME_OLD_COMET:
        mult = 1
        caught = 10
        if wild_as and cfg[C_OLD_LAST_MULT]:
            mult = going_out_multiplier(wild_as)
        if opera:
            mult = mult * 2 if cfg[C_OPERA_MULTIPLY] else max(mult, 2)
            if cfg[C_OLD_OPERA_DOUBLED]:
                caught *= 2
            if wild_as and cfg[C_OLD_OPERA_BONUS] and cfg[H_MUTANT] != 4:
                # RUL-OLD-OPERA-BONUS doubled: the manille's 10 on the last play stacked with the Opera's x2
                # (on top of RUL-OLD-BONUS-LAST's factor); the extra paid here (planted bug 4: never)
                factor = going_out_multiplier(wild_as) if cfg[C_OLD_BONUS_LAST] else 1
                stacked = factor * 2 if cfg[C_OPERA_MULTIPLY] else max(factor, 2)
                each_pays(chips, players, winner, cfg[C_COMET_VALUE] * (stacked - factor))
    else:
        mult = going_out_multiplier(wild_as) if wild_as else 1
        if cfg[H_MUTANT] == 1 and wild_as:  # planted bug: going out on the Comet doubles nothing
            mult = 1
        if opera:
            mult = mult * 2 if cfg[C_OPERA_MULTIPLY] else max(mult, 2)
        caught = 0
    court_rank = game == GAME_OLD_COMET and cfg[C_OLD_COURT_RANK] == 1
    for seat in range(players):
        if seat == winner or size[seat] == 0:
            continue
        holds = cnt[seat, wild] > 0
        pts = cnt[seat, wild] * 9  # the wild card is a 9 in every supported pack
        for r in range(1, 14):
            pts += nat[seat, r] * (r if court_rank else min(r, 10))
        if game == GAME_OLD_COMET:
            amount = pts * mult * (2 if holds and cfg[C_OLD_CAUGHT_DOUBLE] else 1)
            if amount:
                chips[seat] -= amount
                chips[winner] += amount
            if holds and cfg[C_OLD_CAUGHT_NINE]:  # RUL-OLD-CAUGHT-NINE extra: 9 chips on top
                chips[seat] -= 9
                chips[winner] += 9
            if holds:
                for other in range(players):
                    if other == seat or (other == winner and cfg[C_OLD_NINE_ONLY]):
                        continue
                    chips[seat] -= caught
                    chips[other] += caught
            continue
        if holds and opera and cfg[C_OPERA_CAUGHT_HIGHEST]:  # RUL-OPERA-CAUGHT highest
            amount = pts * max(2, mult)
        else:
            amount = pts * (2 if holds else 1) * mult
        if game == GAME_TWO_PLAYER:
            points[winner] += amount
        elif amount:
            chips[seat] -= amount
            chips[winner] += amount
