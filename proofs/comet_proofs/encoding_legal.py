"""The base encoding's legal actions: ``legal(s, a, rd)`` mirrors ``comet.legal.legal_actions`` guard by
guard, with the seams a game's encoding overrides (``stops``, ``takes_all``, ``quartet_available`` ...).
"""

from __future__ import annotations

import z3

from comet_proofs.encoding_core import EncodingCore
from comet_proofs.symbolic import (
    COMET,
    COMET_QUARTET,
    FALSE,
    GROUP_BASE,
    KING,
    NATURAL,
    NINE,
    PASS,
    QUARTET,
    Readings,
    SymAction,
    SymState,
)
from comet_proofs.terms import at


class EncodingLegal(EncodingCore):
    """The legal actions of the base rules, over the state and readings of ``EncodingCore``."""

    # ------------------------------------------------------------ legal actions

    def stops(self, rank: z3.ArithRef, kind: z3.ArithRef) -> z3.BoolRef:
        """R-STOP-KING, R-COMET-STOP: a King or the Comet ends the run."""
        return z3.Or(rank == KING, self.wild_play(kind))

    def wild_play(self, kind: z3.ArithRef) -> z3.BoolRef:
        """The action puts the Comet down (alone, or with the three natural 9s)."""
        return z3.Or(kind == COMET, kind == COMET_QUARTET)

    def takes_all(self, kind: z3.ArithRef) -> z3.BoolRef:
        """The action puts down every natural card of its rank."""
        return z3.Or(kind == QUARTET, kind == COMET_QUARTET)

    def quartet_available(self, s: SymState, rank: z3.ArithRef) -> z3.BoolRef:
        """R-FOUR-OF-A-KIND, R-THREE-NINES: the mover holds every natural card of ``rank``."""
        return self.mover_count(s, rank) == z3.If(rank == NINE, self.pack_count(NINE), self.pack_count(KING))

    def legal(self, s: SymState, a: SymAction, rd: Readings) -> z3.BoolRef:
        """``a`` is among ``legal_actions(s)`` (which is empty for a finished deal)."""
        holds_comet = s.comet == s.to_move
        need = s.need
        lead = need == 0
        # lead: R-LEAD-ANY, RUL-QUARTET-LEAD, RUL-COMET-LEAD, RUL-NEW-RUN
        lead_natural = z3.And(a.kind == NATURAL, self.in_rank_range(a.rank), self.mover_count(s, a.rank) >= 1)
        lead_quartet = z3.And(
            a.kind == QUARTET, rd["quartet_on_lead"], self.in_rank_range(a.rank), self.quartet_available(s, a.rank)
        )
        # RUL-COMET-LEAD: king (the led Comet stands for the King), any_rank, or forbidden (neither Boolean)
        as_king = rd.flag("comet_lead", "king")
        may_lead_comet = z3.Or(as_king, rd.flag("comet_lead", "any_rank"))
        led_rank = z3.If(as_king, a.rank == KING, self.in_rank_range(a.rank))
        lead_comet = z3.And(a.kind == COMET, may_lead_comet, holds_comet, led_rank)
        nothing_to_lead = z3.And(self.naturals_of_mover(s) == 0, z3.Not(z3.And(may_lead_comet, holds_comet)))
        lead_pass = z3.And(
            a.kind == PASS,
            z3.Or(nothing_to_lead, z3.And(rd["new_run"], s.turn_played), self.may_pass_stuck_restart(s, rd)),
        )
        # continue: R-PLAY-CONTINUE, R-PLAY-MUST, R-COMET-OPTIONAL, RUL-COMET-RANK, RUL-COMET-HOLDING, RUL-MUST-CONTINUE
        matching = self.mover_count(s, need)
        cont_natural = z3.And(a.kind == NATURAL, a.rank == need, matching >= 1)
        cont_quartet = z3.And(a.kind == QUARTET, a.rank == need, self.quartet_available(s, need))
        comet_rank_ok = z3.If(rd["comet_as"], self.in_rank_range(a.rank), a.rank == need)
        cont_comet = z3.And(
            a.kind == COMET, holds_comet, z3.Not(z3.And(rd["comet_requires_missing"], matching >= 1)), comet_rank_ok
        )
        # RUL-COMET-QUARTET: the three natural 9s and the Comet together, as four 9s
        cont_comet_quartet = z3.And(
            a.kind == COMET_QUARTET,
            rd["comet_in_quartet"],
            a.rank == need,
            need == NINE,
            holds_comet,
            self.quartet_available(s, need),
        )
        cont_pass = z3.And(a.kind == PASS, z3.Or(matching == 0, z3.And(rd["may_stop_early"], s.turn_played)))
        # RUL-COMET-AFTER (optional_restart): right after the Comet, any natural card may start a new run
        free_natural = z3.And(
            s.free_lead, a.kind == NATURAL, self.in_rank_range(a.rank), self.mover_count(s, a.rank) >= 1
        )
        # ... and four of a kind where a lead may be one (RUL-QUARTET-LEAD)
        free_quartet = z3.And(
            s.free_lead,
            a.kind == QUARTET,
            rd["quartet_on_lead"],
            self.in_rank_range(a.rank),
            self.quartet_available(s, a.rank),
        )
        pass_rank = z3.Implies(a.kind == PASS, a.rank == 0)
        lead_group = cont_group = FALSE
        if self.set_sizes:
            # partial sets (RUL-2P-SETS): k of the rank at once, continuing, or where four of a kind may lead
            group = z3.And(
                z3.Or([a.kind == GROUP_BASE + k for k in self.set_sizes]),
                rd[self.set_ruling],
                a.kind - GROUP_BASE <= self.mover_count(s, a.rank),
            )
            may_lead = z3.And(group, rd["quartet_on_lead"], self.in_rank_range(a.rank))
            lead_group = may_lead
            cont_group = z3.Or(z3.And(group, a.rank == need), z3.And(s.free_lead, may_lead))
        return z3.And(
            z3.Not(self.terminal(s)),
            pass_rank,
            z3.If(
                lead,
                z3.Or(lead_natural, lead_quartet, lead_comet, lead_pass, lead_group),
                z3.Or(
                    cont_natural,
                    cont_quartet,
                    cont_comet,
                    cont_comet_quartet,
                    cont_pass,
                    free_natural,
                    free_quartet,
                    cont_group,
                ),
            ),
        )

    def set_size(self, kind: z3.ArithRef) -> z3.ArithRef:
        """Cards a set of kind GROUP_BASE + k puts down (``set_sizes``), 0 for any other kind."""
        size: z3.ArithRef = z3.IntVal(0)
        for k in self.set_sizes:
            size = z3.If(kind == GROUP_BASE + k, k, size)
        return size

    def may_pass_stuck_restart(self, s: SymState, rd: Readings) -> z3.BoolRef:
        """``engine.may_pass_stuck_restart`` (RUL-STUCK-RESTART = may): a stuck run is back at the player to
        move (the last to play, not yet played this turn), who may pass the lead on unless the left
        neighbour holds only the Comet and may not lead it."""
        if not self.has_ruling("stuck_restart"):
            return FALSE
        n = s.players
        left = z3.If(s.to_move == n - 1, 0, s.to_move + 1)
        left_naturals = at([z3.Sum(*h) for h in s.hands], left)
        return z3.And(
            rd["stuck_restart"],
            z3.Not(s.turn_played),
            s.last_player == s.to_move,
            z3.Or(self.may_lead_comet(rd), left_naturals >= 1),
        )
