"""A match: ``rules.deals`` deals, the deal passing to the right, running totals.

>>> from batak import Match, preset
>>> match = Match(preset("standard", deals=3), seed=42)
>>> match.deal_number, match.to_act
(1, 1)

:meth:`Match.apply` plays the action of the seat to act; when a deal ends the
next one is dealt at once (from ``deal_seed(seed, index)``), so a match is
fully described by its rules, seed, first dealer and action list, and
:meth:`Match.replay` rebuilds it exactly from those.
"""

from __future__ import annotations

from collections.abc import Iterable

from batak import scoring
from batak.deal import Action, Deal, IllegalAction, Observation, Phase
from batak.refusals import Refusal
from batak.rules import Rules
from batak.seeds import deal_seed


class Match:
    """A match of Batak between seats 0..3."""

    __slots__ = ("actions", "deal", "finished", "first_dealer", "rules", "seed", "totals")

    def __init__(self, rules: Rules, seed: int, first_dealer: int = 0) -> None:
        if first_dealer not in (0, 1, 2, 3):
            raise ValueError(f"first_dealer must be a seat 0..3, not {first_dealer!r}")
        self.rules = rules
        self.seed = seed
        self.first_dealer = first_dealer
        self.totals = [0, 0, 0, 0]
        self.finished: list[Deal] = []
        self.actions: list[Action] = []
        self.deal = self._new_deal(0)

    def _new_deal(self, index: int) -> Deal:
        return Deal.from_seed(
            self.rules, deal_seed(self.seed, index), (self.first_dealer + index) % 4
        )

    @classmethod
    def replay(
        cls, rules: Rules, seed: int, actions: Iterable[Action], first_dealer: int = 0
    ) -> Match:
        """The match after ``actions``; raises :class:`IllegalAction` naming the bad move."""
        match = cls(rules, seed, first_dealer)
        for index, action in enumerate(actions):
            try:
                match.apply(action)
            except IllegalAction as exc:
                where = f"move {index + 1} ({action}): {exc}"
                raise IllegalAction(exc.refusal, where) from exc
        return match

    # --- queries -------------------------------------------------------------

    @property
    def deal_number(self) -> int:
        """1-based number of the current deal (the last one once the match is over)."""
        return len(self.finished) + (0 if self.is_over else 1)

    @property
    def move_number(self) -> int:
        """How many actions have been applied; buttons carry it to detect stale clicks."""
        return len(self.actions)

    @property
    def is_over(self) -> bool:
        return self.deal.phase is Phase.DONE

    @property
    def to_act(self) -> int | None:
        return None if self.is_over else self.deal.to_act

    def legal_actions(self) -> list[Action]:
        return self.deal.legal_actions()

    def observation(self, seat: int) -> Observation:
        return self.deal.observation(seat)

    def leaders(self) -> list[int]:
        """The seats with the highest total now."""
        return scoring.winners(self.totals)

    @property
    def winners(self) -> list[int]:
        """The winning seats once the match is over (partners win together); else []."""
        return self.leaders() if self.is_over else []

    def placements(self) -> list[int]:
        """Each seat's place, 1 = best, by :func:`batak.scoring.placements`: equal
        totals share a place; partners share theirs (1st and 1st, 2nd and 2nd)."""
        return scoring.placements(self.totals, self.rules.partnership)

    def copy(self) -> Match:
        """An independent copy: applying actions to it leaves this match as it is.

        >>> from batak import Match, preset
        >>> match = Match(preset("standard"), seed=42)
        >>> trial = match.copy()
        >>> trial.apply(trial.legal_actions()[0])
        >>> match.move_number, trial.move_number
        (0, 1)
        """
        other = Match.__new__(Match)
        other.rules, other.seed, other.first_dealer = self.rules, self.seed, self.first_dealer
        other.totals = list(self.totals)
        other.finished = list(self.finished)  # a finished deal is over: never changed again
        other.actions = list(self.actions)
        other.deal = self.deal.copy()
        return other

    # --- actions -------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply the action of the seat to act; deals the next deal when one ends."""
        if self.is_over:
            raise IllegalAction(Refusal("match-over"))
        self.deal.apply(action, seat)
        self.actions.append(action)
        if self.deal.phase is Phase.DONE:
            self._finish_deal()

    def _finish_deal(self) -> None:
        deal = self.deal
        assert deal.scores is not None
        for s in range(4):
            self.totals[s] += deal.scores[s]
        self.finished.append(deal)
        if len(self.finished) >= self.rules.deals and not self._needs_extra_deal():
            return
        self.deal = self._new_deal(len(self.finished))

    def _needs_extra_deal(self) -> bool:
        if self.rules.tie_break != "extra-deal":
            return False
        # Partners always share a total: a tie is between sides, not partners.
        sides = (0, 1) if self.rules.partnership else (0, 1, 2, 3)
        top = max(self.totals)
        return sum(1 for s in sides if self.totals[s] == top) > 1
