"""Why the engine refuses an action: a code and its values, worded by the reader.

A :class:`Refusal` names the broken rule (``"follow-suit"``) and carries what a
message needs as values: cards as card integers, suits as :class:`Suit`, numbers
as ints. It holds no sentence, so the bot can word it in each reader's language;
``str()`` of it is the engine's own English wording (the terminal game, logs and
:class:`~batak.deal.IllegalAction` messages use it).

>>> from batak.cards import Suit, parse_card
>>> str(Refusal("follow-suit", {"suit": Suit.H, "choices": (parse_card("9H"),)}))
'you must follow suit and play a heart: 9♥'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from batak.cards import SUITS, card_label

Param = int | str | tuple[int, ...]
"""A refusal's value: a number, a card, a suit (ints), cards (a tuple), or for a
malformed action the value as it was shown."""

_ENGLISH: Final[Mapping[str, str]] = {
    "deal-over": "this deal is over",
    "match-over": "the match is over",
    "auction-over": "the auction is over",
    "dealer-must-bid": (
        "the dealer may not pass when everyone else has passed: bid at least {min_bid}"
    ),
    "over-13": "nobody can bid more than 13 tricks",
    "bid-too-low": "a bid must be higher than {high}: bid {low} or more, or pass",
    "lowest-bid": "the lowest bid is {low}",
    "auction-not-over": "the auction is not over yet",
    "trump-chosen": "trump has been chosen already",
    "not-yet-play": "cards are played after the auction and the trump choice",
    "not-held": "you do not hold {card}",
    "trump-not-broken": "trump ({trump}) is not broken yet: lead another suit ({choices})",
    "follow-suit": "you must follow suit and play a {suit}: {choices}",
    "play-higher": "you must play a higher {suit}: {choices}",
    "must-trump": "you have no {suits}, so you must play a trump: {choices}",
    "higher-trump": "you must play a higher trump: {choices}",
    "not-your-turn": "it is not your turn: seat {seat} is to act",
    "malformed": "{what} must be an integer {low}..{high}, not {value}",
}

_MALFORMED: Final[Mapping[str, str]] = {
    "trump": "the trump must be a suit S, H, D or C, not {value}",
    "suit": "not a suit: {value}",
    "action": "not an action: {value}",
}
"""The English of a ``malformed`` refusal that is not about an integer."""

CODES: Final = frozenset(_ENGLISH)
"""Every refusal code (the bot has a message ``refusal.<code>`` for each)."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """The rule an action breaks (``code``, one of :data:`CODES`) and its values.

    Values by name: ``card`` (a card), ``choices`` (the cards allowed instead, in the
    order a hand is shown), ``suit`` (the suit led), ``trump`` (the trump suit), ``low``/``high``/
    ``min_bid`` (bids), ``seat`` (the seat to act, 0-3); a ``malformed`` action has
    ``what`` (``"bid"``, ``"card"``, ``"seat"``, ``"trump"``, ``"suit"`` or
    ``"action"``) and ``value`` (what was given, as text).
    """

    code: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"unknown refusal code {self.code!r}")

    def __str__(self) -> str:
        return english(self)


def english(refusal: Refusal) -> str:
    """The engine's English wording of ``refusal``: ``"you must play a higher trump: A♥"``."""
    p = refusal.params
    words: dict[str, object] = dict(p)
    card = p.get("card")
    if isinstance(card, int):
        words["card"] = card_label(card)
    choices = p.get("choices")
    if isinstance(choices, tuple):
        words["choices"] = " or ".join(card_label(c) for c in choices)
    suit = p.get("suit")
    if isinstance(suit, int):
        plural = SUITS[suit].english.lower()
        words["suit"], words["suits"] = plural[:-1], plural
    trump = p.get("trump")
    if isinstance(trump, int):
        words["trump"] = SUITS[trump].symbol
    template = _ENGLISH[refusal.code]
    if refusal.code == "malformed":
        what = str(p.get("what", "action"))
        template = _MALFORMED.get(what) or "a " + template
    return template.format(**words)


__all__ = ["CODES", "Param", "Refusal", "english"]
