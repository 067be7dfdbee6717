"""The fast kernels' configuration and encodings: the ``cfg`` header every kernel shares (``H_*``), the standard
kernel's indices (``C_*``: the rulings and the game family, so one compiled kernel serves every reading), the action kinds and their one-int code, the outcome flags."""

# Numba compiles these functions: plain loops and ``==`` chains are kept on purpose (no generators, no
# tuple membership tests in the hot path).

from __future__ import annotations

from comet.fast.jit import hot

# The header every fast kernel's ``cfg`` starts with (``comet.fast.batch`` deals and records from it); each
# kernel's own entries follow from ``H_SIZE``.
H_PLAYERS = 0
H_HAND = 1  # cards per hand
H_BLOCKS = 2  # RUL-DEAL-ORDER blocks
H_POLICY = 3  # POLICY_*
H_MUTANT = 4  # tests only: a deliberately broken rule (0: none)
H_MAX_STEPS = 5  # a safety bound on actions per deal (the reference's step_bound)
H_WILD1 = 6  # the wild cards' ids (-1: none)
H_WILD2 = 7
H_SIZE = 8

# The standard kernel's own entries (``comet.fast.kernel``).
C_PACK = H_SIZE + 0  # cards in the pack
C_LOWEST = H_SIZE + 1  # lowest rank (2; Old Comet: 1)
C_STOP_EARLY = H_SIZE + 2  # RUL-MUST-CONTINUE may_stop_early
C_NEW_RUN_MAY = H_SIZE + 3  # RUL-NEW-RUN may
C_QUARTET_LEAD = H_SIZE + 4  # RUL-QUARTET-LEAD
C_COMET_LEAD = H_SIZE + 5  # RUL-COMET-LEAD: LEAD_*
C_COMET_ANY = H_SIZE + 6  # RUL-COMET-RANK any_rank
C_REQ_MISSING = H_SIZE + 7  # RUL-COMET-HOLDING
C_BONUS_MULT = H_SIZE + 8  # RUL-COMET-BONUS-LAST multiplied
C_COMET_QUARTET = H_SIZE + 9  # RUL-COMET-QUARTET
C_RESTART = H_SIZE + 10  # RUL-COMET-AFTER optional_restart
C_OPERA = H_SIZE + 11  # RUL-OPERA
C_OPERA_DRAW = H_SIZE + 12  # RUL-OPERA-DRAW dealer_could
C_OPERA_MULTIPLY = H_SIZE + 13  # RUL-OPERA-STACK multiply
C_GAME = H_SIZE + 14  # GAME_*
C_OLD_NINE_ONLY = H_SIZE + 15  # RUL-OLD-CAUGHT nine_only
C_OLD_LAST_MULT = H_SIZE + 16  # RUL-OLD-MANILLE-LAST multiplied
C_OLD_OPERA_DOUBLED = H_SIZE + 17  # RUL-OLD-OPERA-CAUGHT doubled
C_OLD_KING = H_SIZE + 18  # RUL-OLD-MANILLE-KING manille_and_king
C_COMET_VALUE = H_SIZE + 19
C_STUCK_MAY = H_SIZE + 20  # RUL-STUCK-RESTART may
C_OPERA_CAUGHT_HIGHEST = H_SIZE + 21  # RUL-OPERA-CAUGHT highest
C_OPERA_BONUS_DOUBLED = H_SIZE + 22  # RUL-OPERA-COMET-BONUS doubled
C_OLD_COURT_RANK = H_SIZE + 23  # RUL-OLD-COURT-POINTS rank
C_OLD_CAUGHT_DOUBLE = H_SIZE + 24  # RUL-OLD-CAUGHT-DOUBLE doubled
C_OLD_CAUGHT_NINE = H_SIZE + 25  # RUL-OLD-CAUGHT-NINE extra
C_OLD_BONUS_LAST = H_SIZE + 26  # RUL-OLD-BONUS-LAST multiplied
C_OLD_KING_PER_PLAY = H_SIZE + 27  # RUL-OLD-KING-QUARTET per_play
C_OLD_OPERA_BONUS = H_SIZE + 28  # RUL-OLD-OPERA-BONUS doubled
C_OLD_EVERY_RUN_END = H_SIZE + 29  # RUL-OLD-LAST-CARD every_run_end
C_ANY_SETS = H_SIZE + 30  # RUL-2P-SETS any_number: two or more natural cards of a rank may go down together
CFG_SIZE = H_SIZE + 31

LEAD_FORBIDDEN, LEAD_ANY_RANK, LEAD_KING = 0, 1, 2

GAME_STANDARD, GAME_TWO_PLAYER, GAME_OLD_COMET = 0, 1, 2
POLICY_RANDOM, POLICY_GREEDY, POLICY_HOARDER, POLICY_SIMPLE = 0, 1, 2, 3

# Action kinds.
PASS = 0
SINGLE = 1  # one natural card
# A set of one rank: card field 0 is every natural card of the rank in the pack (four, or the three natural
# 9s); under RUL-2P-SETS any_number a set short of that names its cards by suit in the card field, 2 bits of
# copies per suit (``set_copies``), so every kind test that covers the seeds' set covers any set alike.
QUARTET = 2
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


@hot
def set_copies(a: int, suit: int) -> int:
    """How many copies of the card of ``suit`` a set short of the whole rank (``QUARTET`` with a mask) holds."""
    return (a >> (4 + 2 * suit)) & 3
