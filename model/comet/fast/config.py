"""The fast kernel's configuration and encodings: ``cfg`` indices (``C_*``: the rulings and the game family,
so one compiled kernel serves every reading), the action kinds and their one-int code, the outcome flags."""

# Numba compiles these functions: plain loops and ``==`` chains are kept on purpose (no generators, no
# tuple membership tests in the hot path).

from __future__ import annotations

from comet.fast.jit import hot

C_PLAYERS = 0
C_HAND = 1  # cards per hand
C_PACK = 2  # cards in the pack
C_LOWEST = 3  # lowest rank (2; Old Comet: 1)
C_STOP_EARLY = 4  # RUL-MUST-CONTINUE may_stop_early
C_NEW_RUN_MAY = 5  # RUL-NEW-RUN may
C_QUARTET_LEAD = 6  # RUL-QUARTET-LEAD
C_COMET_LEAD = 7  # RUL-COMET-LEAD: LEAD_*
C_COMET_ANY = 8  # RUL-COMET-RANK any_rank
C_REQ_MISSING = 9  # RUL-COMET-HOLDING
C_BONUS_MULT = 10  # RUL-COMET-BONUS-LAST multiplied
C_COMET_QUARTET = 11  # RUL-COMET-QUARTET
C_RESTART = 12  # RUL-COMET-AFTER optional_restart
C_OPERA = 13  # RUL-OPERA
C_OPERA_DRAW = 14  # RUL-OPERA-DRAW dealer_could
C_OPERA_MULTIPLY = 15  # RUL-OPERA-STACK multiply
C_GAME = 16  # GAME_*
C_BLOCKS = 17  # RUL-DEAL-ORDER blocks
C_OLD_NINE_ONLY = 18  # RUL-OLD-CAUGHT nine_only
C_OLD_LAST_MULT = 19  # RUL-OLD-MANILLE-LAST multiplied
C_OLD_OPERA_DOUBLED = 20  # RUL-OLD-OPERA-CAUGHT doubled
C_OLD_KING = 21  # RUL-OLD-MANILLE-KING manille_and_king
C_COMET_VALUE = 22
C_POLICY = 23  # POLICY_*
C_MUTANT = 24  # tests only: a deliberately broken rule (0: none)
C_MAX_STEPS = 25  # a safety bound on actions per deal (the reference's step_bound)
C_WILD = 26  # the wild card's id
C_STUCK_MAY = 27  # RUL-STUCK-RESTART may
C_OPERA_CAUGHT_HIGHEST = 28  # RUL-OPERA-CAUGHT highest
C_OPERA_BONUS_DOUBLED = 29  # RUL-OPERA-COMET-BONUS doubled
C_OLD_COURT_RANK = 30  # RUL-OLD-COURT-POINTS rank
C_OLD_CAUGHT_DOUBLE = 31  # RUL-OLD-CAUGHT-DOUBLE doubled
C_OLD_CAUGHT_NINE = 32  # RUL-OLD-CAUGHT-NINE extra
C_OLD_BONUS_LAST = 33  # RUL-OLD-BONUS-LAST multiplied
C_OLD_KING_PER_PLAY = 34  # RUL-OLD-KING-QUARTET per_play
CFG_SIZE = 35

LEAD_FORBIDDEN, LEAD_ANY_RANK, LEAD_KING = 0, 1, 2

GAME_STANDARD, GAME_TWO_PLAYER, GAME_OLD_COMET = 0, 1, 2
POLICY_RANDOM, POLICY_GREEDY, POLICY_HOARDER, POLICY_SIMPLE = 0, 1, 2, 3

# Action kinds.
PASS = 0
SINGLE = 1  # one natural card
QUARTET = 2  # every natural card of a rank (four, or the three natural 9s)
QUARTET_WILD = 3  # the three natural 9s and the wild card, as four 9s
WILD = 4  # the wild card standing for a rank

# Outcome flags.
FLAG_OPERA = 1  # the first player went out in the very first turn (and the deal was not drawn)
FLAG_DRAWN = 2  # an Opera deal drawn because the dealer could have gone out too
FLAG_OUT_ON_WILD = 4  # the winner's last card was the wild card
FLAG_CAPPED = 8  # stopped at the step bound (never expected: a bug if seen)

MAX_ACTS = 64
KING = 13


@hot
def code(kind: int, card: int, rank: int) -> int:
    return (kind << 12) | (card << 4) | rank
