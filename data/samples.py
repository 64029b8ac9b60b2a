"""Deal records for the storage bench and the store's tests: shaped like real ones
(``synthetic_record``: shuffled cards, a made-up auction, random legal play) or played
by the engine (``engine_match``)."""

from __future__ import annotations

import random
from typing import Any

from batak import play, scoring
from batak.cards import SUIT_MASKS, Suit, card_code, cards_of, parse_cards
from batak.cards import SUITS as ALL_SUITS
from batak.rules import preset

DECK = [card_code(c) for c in range(52)]
SUITS = "".join(s.letter for s in ALL_SUITS)

STANDARD_RULES: dict[str, Any] = {
    "preset": "standard",
    "min_bid": 5,
    "forced_bid": 4,
    "all_pass": "dealer-forced",
    "scoring": "tens",
    "trump_lead": "after-trump-played",
    "overtake_when_trumped": False,
    "partnership": False,
    "fixed_trump": None,
    "blind_bidding": False,
}


def synthetic_record(
    rng: random.Random, dealer: int = 0, seed: int | None = None
) -> dict[str, Any]:
    """A batak-deal/1 shaped record with the size and the fields of a real one.

    The cards are shuffled and the auction is made up (the holder and bid drawn at
    random, everyone else passes), so the record is not one the engine would
    replay: good for storage tests and size measurements. The play itself is
    random legal cards by :mod:`batak.play`, and the scores are ``score_deal``'s.
    """
    deck = DECK[:]
    rng.shuffle(deck)
    hands = [sorted(deck[i * 13 : (i + 1) * 13]) for i in range(4)]
    holder = (dealer + 1 + rng.randrange(4)) % 4
    bid = rng.randint(5, 8)
    auction: list[dict[str, Any]] = []
    for k in range(4):
        s = (dealer + 1 + k) % 4
        auction.append({"seat": s, "bid": bid if s == holder else None})
    trump = rng.choice(SUITS)
    # The play: random choices among the cards batak.play allows, the trick won as
    # batak.play says (under the standard rules these records carry).
    suit = Suit[trump]
    tmask = SUIT_MASKS[suit]
    lead_rule = play.lead_code("after-trump-played")
    broken = play.broken_at_start(lead_rule)
    left = [parse_cards(h) for h in hands]
    tricks = []
    won = [0, 0, 0, 0]
    leader = holder
    for _ in range(13):
        cards: list[int] = []
        legal: list[list[str]] = []
        for i in range(4):
            s = (leader + i) % 4
            options = cards_of(play.legal_mask(left[s], cards, tmask, broken, False))
            card = rng.choice(options)
            legal.append(sorted(card_code(c) for c in options))
            broken = broken or play.breaks_trump(lead_rule, tmask, cards[0] if cards else -1, card)
            cards.append(card)
            left[s] &= ~(1 << card)
        winner = play.trick_winner(leader, cards, suit)
        won[winner] += 1
        codes = [card_code(c) for c in cards]
        tricks.append({"leader": leader, "cards": codes, "winner": winner, "legal": legal})
        leader = winner
    score = scoring.score_deal(preset("standard"), scoring.Holding(holder, bid), won)
    return {
        "format": "batak-deal/1",
        "rules": STANDARD_RULES,
        "seed": seed,
        "dealer": dealer,
        "hands": hands,
        "auction": auction,
        "contract": {"seat": holder, "bid": bid, "forced": False, "trump": trump},
        "tricks": tricks,
        "tricks_won": won,
        "score": score,
    }


def synthetic_match(rng: random.Random, deals: int = 8) -> list[dict[str, Any]]:
    return [synthetic_record(rng, dealer=d % 4, seed=rng.randrange(1 << 31)) for d in range(deals)]


def engine_match(seed: int, preset_name: str = "standard") -> list[dict[str, Any]]:
    """A real match played by the engine with random legal actions: its deal records."""
    from batak import Match

    rng = random.Random(seed)
    m = Match(preset(preset_name), seed)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    return [d.to_record() for d in m.finished]
