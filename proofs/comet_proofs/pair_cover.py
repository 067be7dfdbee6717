"""Which encoding covers a rule set, and whether the encodings can tell two rule sets of one game apart at
all (``comet_proofs.smallest`` asks its questions over these; ``comet diverge`` says why not when they cannot)."""

from __future__ import annotations

from comet import engine
from comet.ruleset import RULING_FIELDS, Ruleset
from comet.variant import applies

from comet_proofs.encoding import Encoding
from comet_proofs.registry import encoding_for, encodings


def covers(enc: Encoding, rules: Ruleset, players: int) -> bool:
    """Does ``enc`` cover deals of ``rules`` (its ``abstract`` accepts a fresh deal under them)?"""
    try:
        start = engine.shuffled_deal(rules, players, 0, 0)
        enc.abstract(start)
    except ValueError:
        return False
    known = (*enc.unquantified, *enc.outside)
    return all(enc.has_ruling(f) or f in known for f in _read_fields(rules))


def _read_fields(rules: Ruleset) -> tuple[str, ...]:
    return tuple(f for f in RULING_FIELDS if applies(f, rules.variant))


def encoding_of(preset: str, rules: Ruleset, players: int) -> Encoding | None:
    """The encoding that covers ``rules``: the preset's own, else another registered one (one game's
    encoding may cover another preset's rules with an option on)."""
    try:
        own = encoding_for(preset)
    except ValueError:
        own = None
    if own is not None and covers(own, rules, players):
        return own
    registered = encodings()
    for name in sorted(registered):
        enc = registered[name]()
        if players in enc.player_counts and covers(enc, rules, players):
            return enc
    return None


def quantifies(preset: str, field: str, a: Ruleset, b: Ruleset, players: int) -> bool:
    """Can the encodings tell A and B apart at all: the field is a free Boolean of A's or B's encoding, or
    the two rule sets need different encodings."""
    ea, eb = encoding_of(preset, a, players), encoding_of(preset, b, players)
    if ea is None or eb is None:
        return False
    return ea.name != eb.name or ea.has_ruling(field)


def blind_reason(preset: str, field: str, a: Ruleset, b: Ruleset) -> str:
    """Why the Z3 encodings cannot tell A and B apart (``smallest`` returned None), in words."""
    counts = [n for n in engine.player_counts(a) if n in engine.player_counts(b)]
    n = counts[0]
    ea, eb = encoding_of(preset, a, n), encoding_of(preset, b, n)
    if ea is None or eb is None:
        missing, rules = ("A", a) if ea is None else ("B", b)
        own = own_encoding(preset)
        where = f"; the {own.name} encoding lists {field} as outside" if own and field in own.outside else ""
        return f"no encoding covers {preset} under {missing}'s readings ({field} = {getattr(rules, field)}){where}"
    if field in ea.unquantified:
        return f"the {ea.name} encoding lists {field} as unquantified (it changes no transition of its abstract deal)"
    if quantifies(preset, field, a, b, n):
        return f"none when it was searched; the {ea.name} encoding now quantifies {field} (`--search` proves afresh)"
    return f"the {ea.name} encoding does not quantify {field}"


def own_encoding(preset: str) -> Encoding | None:
    try:
        return encoding_for(preset)
    except ValueError:
        return None
