"""İhaleli Batak: a small, typed, pure-Python rules engine.

>>> from batak import Match, preset
>>> match = Match(preset("standard"), seed=1)
>>> while not match.is_over:
...     match.apply(match.legal_actions()[0])

Nothing here does I/O, talks to Discord or uses asyncio.
"""

from batak.cards import (
    SUITS,
    Card,
    CardMask,
    Suit,
    card_code,
    card_label,
    card_rank,
    card_suit,
    cards_of,
    format_cards,
    mask_of,
    parse_card,
)
from batak.deal import (
    BIDS,
    PASS,
    PLAYS,
    TRUMPS,
    Action,
    Bid,
    ChooseTrump,
    Contract,
    Deal,
    IllegalAction,
    Observation,
    Pass,
    Phase,
    Play,
    Trick,
    format_action,
    parse_action,
    score_deal,
    trick_winner,
)
from batak.match import Match
from batak.records import RecordError, deal_from_record, deal_to_record
from batak.refusals import Refusal
from batak.rules import PRESET_NAMES, PRESETS, Rules, RulesError, preset
from batak.seeds import daily_seed, deal_hands, deal_seed

__all__ = [
    "BIDS",
    "PASS",
    "PLAYS",
    "PRESETS",
    "PRESET_NAMES",
    "SUITS",
    "TRUMPS",
    "Action",
    "Bid",
    "Card",
    "CardMask",
    "ChooseTrump",
    "Contract",
    "Deal",
    "IllegalAction",
    "Match",
    "Observation",
    "Pass",
    "Phase",
    "Play",
    "RecordError",
    "Refusal",
    "Rules",
    "RulesError",
    "Suit",
    "Trick",
    "card_code",
    "card_label",
    "card_rank",
    "card_suit",
    "cards_of",
    "daily_seed",
    "deal_from_record",
    "deal_hands",
    "deal_seed",
    "deal_to_record",
    "format_action",
    "format_cards",
    "mask_of",
    "parse_action",
    "parse_card",
    "preset",
    "score_deal",
    "trick_winner",
]
