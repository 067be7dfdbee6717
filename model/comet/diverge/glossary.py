"""The words the divergence report answers in, each defined once.

Every verdict phrase ``comet.diverge.verdicts`` can give is a key of ``GLOSSARY`` (a test fails on a
phrase it does not define); the report's method page and the site show the same definitions.  The
other entries are the terms those definitions and the report's tables use.
"""

from __future__ import annotations

#: verdict phrases: the first words of every answer (``comet.diverge.verdicts.Answer.phrase``)
NO_EFFECT = "no effect"
NEVER_ARISES = "never arises"
EXACT = "exact effect"
GAINS = "changes who gains"
NO_GAIN = "changes deals but no seat gains measurably"
DEALT_NO_GAIN = "no seat gains measurably"
ZERO_BY_DESIGN = "zero by design"
NOT_MEASURED = "not measured"
#: whole-game verdicts (a ruling that acts only between deals: ``comet.diverge.verdicts.game_answer``)
GAME_CHANGES = "changes whole games"
GAME_NO_EFFECT = "no measurable effect on whole games"
GAME_NONE = "no game played under both readings"

DEAL_PHRASES = (NO_EFFECT, NEVER_ARISES, EXACT, GAINS, NO_GAIN, DEALT_NO_GAIN, ZERO_BY_DESIGN, NOT_MEASURED)
GAME_PHRASES = (GAME_CHANGES, GAME_NO_EFFECT, GAME_NONE)
VERDICT_PHRASES = DEAL_PHRASES + GAME_PHRASES

GLOSSARY: dict[str, str] = {
    NO_EFFECT: "No deal's result changes for this player: the readings' difference may come up (an option one "
    "reading offers is on the table) but it is never taken, or it changes nothing. Certain for the deals played, "
    "not an estimate.",
    NEVER_ARISES: "The case the ruling is about never came up in the deals played by this player; the figure "
    "after it is the largest share of deals in which it could come up, given that it was not seen.",
    EXACT: "The two readings allow exactly the same play and differ only in what is paid, so the same actions "
    "were replayed under both and the difference was read off each deal: it is fixed by the deal, not estimated "
    "from a player's choices. Given with how often each amount occurs.",
    GAINS: "Some seat's average result per deal, or its chance of winning the deal, moves by more than its "
    "interval allows chance to explain: the ruling changes who gains, and the answer names the seat, the "
    "direction (good or bad for that seat) and the amount.",
    NO_GAIN: "Some deals end differently under the two readings, but no seat's average result or chance of "
    "winning moves beyond its interval: the chips (or points) go elsewhere in single deals and even out. The "
    "answer gives the largest average change the intervals still allow.",
    DEALT_NO_GAIN: "The readings deal different cards (a rule about the deal itself), so deals cannot be compared "
    "one by one; no seat's average result or chance of winning moves beyond its interval.",
    ZERO_BY_DESIGN: "This player never meets the ruling's choice because of how it plays (for example it never "
    "passes or stops while it can play), so its zero says nothing about the rule.",
    NOT_MEASURED: "No deals or games were played for this player here.",
    GAME_CHANGES: "For a ruling that acts only between deals (who deals first, how stakes grow, when the game "
    "ends, what happens to a player who cannot pay), whole games are played twice from the same seed, once "
    "under each reading. Some games end with other winners, or the number of deals per game or the final spread "
    "(best result minus worst) moves beyond its interval. Whole games are compared by these three figures, not "
    "seat by seat, so this says that games come out differently, not who gains.",
    GAME_NO_EFFECT: "Whole games played twice from the same seed, once under each reading: no game ends with "
    "other winners, and neither the number of deals per game nor the final spread moves beyond its interval.",
    GAME_NONE: "No whole game could be played to its end under both readings with this player (a reading "
    "refused every game), so there is nothing to compare.",
    "arises": "A deal where the readings part: they offer different options at some point, or pay the same "
    "play differently. Where the readings deal different cards, every deal counts.",
    "changes": "A deal whose chips (points) per seat or whose winner differ between the two readings.",
    "paired deals": "Each deal is dealt from the same seed and played by the same player under both readings, "
    "choosing alike wherever the options are alike (coupled play), so a difference comes from the rule.",
    "interval": "Every figure is given with one interval, the simultaneous 95 % interval of its answer: all the "
    "figures an answer looks at (every seat's result and win rate, the deal length, the swing) hold together "
    "with 95 % confidence. A quantity that cannot be negative (a share, a swing) never gets an interval below "
    "zero.",
    "how sure": "'exact' for an effect the rules fix, 'certain' for 'no effect' and 'never arises' on the deals "
    "played, otherwise the simultaneous 95 % interval and the number of paired deals.",
    "swing": "The chips (or points) that end up with another seat in a deal: half the sum over seats of the "
    "size of each seat's change. 'Where it arises': averaged over the deals where the case arises only.",
    "penalty points": "Red Nines is scored in penalty points: cards left in hand count against their holder and "
    "the lowest total wins. Its answers say 'more penalty points' and add whether that is worse or better for "
    "the seat.",
    "headline player": "The player whose answer leads: the search player (pimc) where it is measured and "
    "measurably stronger than greedy, else random; the table beside it gives every player's answer.",
    "weaker players": "random, greedy and hoarder: players that choose by a fixed rule, not by searching. An "
    "answer that rests on them (listed on the index and on the ruling's page) may differ from what people who "
    "play well would see. Whole games are played by these players only: the search player plays single deals.",
    "placebo": "A reading that provably cannot change play or payments; it must read 'no seat gains "
    "measurably', as a check on the study itself. An identity check is a placebo that deals identical "
    "cards deal by deal, so it cannot fail and is listed apart, not counted in the placebo family.",
    "seat": "Positions count from the dealer's left: 1st, 2nd, ... and the dealer last.",
}


def define(term: str) -> str:
    """The definition of ``term``; KeyError for a term the glossary does not define."""
    return GLOSSARY[term]


def glossary_lines() -> list[str]:
    """The glossary as a Markdown list (the method page and the site show it)."""
    return [f"- **{term}**: {text}" for term, text in GLOSSARY.items()]
