"""The exact inferences of the normal level, and that they never exclude a real card."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from batak.ai.knowledge import exclusions, infer, sample_hands
from batak.cards import FULL_DECK, SUIT_MASKS, Suit, parse_cards
from batak.deal import BIDS, PASS, TRUMPS, Deal, Phase, Trick
from batak.players import make_player
from batak.rules import PRESET_NAMES, preset


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_inferences_are_sound_and_samples_fit(name: str) -> None:
    rules = preset(name)
    rng = random.Random(name)
    for d in range(10):
        deal = Deal.from_seed(rules, rng.randrange(1 << 40), d % 4)
        players = [make_player("random" if s % 2 else "normal", s) for s in range(4)]
        while deal.phase is not Phase.DONE:
            seat = deal.to_act
            obs = deal.observation(seat)
            if deal.phase is Phase.PLAY:
                know = infer(obs)
                for s in range(4):
                    assert deal.hands[s] & ~know.possible[s] == 0
                hands = sample_hands(know, rng)
                assert hands is not None
                for s in range(4):
                    assert hands[s] & ~know.possible[s] == 0
                    assert hands[s].bit_count() == deal.hands[s].bit_count()
            deal.apply(players[seat].choose(obs))


def _excluded(
    tricks: list[tuple[int, str]], rules_name: str = "standard", trump: Suit = Suit.H
) -> list[int]:
    """The exclusions after some (made-up) tricks: (leader, "5S 3D ...")."""
    rules = preset(rules_name)
    deal = Deal.from_seed(rules, 1, 0)
    deal.apply(BIDS[rules.min_bid])
    while deal.phase is Phase.AUCTION:
        deal.apply(PASS)
    if deal.phase is Phase.TRUMP:
        deal.apply(TRUMPS[trump])
    obs = deal.observation(0)
    made = tuple(
        Trick(leader, tuple(_card(c) for c in cards.split()), leader, ())
        for leader, cards in tricks
    )
    return exclusions(replace(obs, tricks=made))


def _card(code: str) -> int:
    return parse_cards([code]).bit_length() - 1


def test_not_following_means_void_and_discarding_means_no_trump() -> None:
    ex = _excluded([(1, "5S 3D 4H 7S")])
    assert ex[2] & SUIT_MASKS[Suit.S] == SUIT_MASKS[Suit.S]  # did not follow
    assert ex[2] & SUIT_MASKS[Suit.H] == SUIT_MASKS[Suit.H]  # discarded: no trump
    assert ex[3] & SUIT_MASKS[Suit.S] == SUIT_MASKS[Suit.S]  # trumped: void in spades
    assert not ex[3] & SUIT_MASKS[Suit.H]  # ... but may hold more hearts
    # Seat 0 played 7S over 5S with a trump in the trick: no inference (standard).
    assert ex[0] == 0


def test_following_low_proves_nothing_higher() -> None:
    ex = _excluded([(1, "9S KS 3S 2D")])
    assert ex[3] & SUIT_MASKS[Suit.S] == parse_cards(["AS"])
    assert ex[2] == 0


def test_trumping_under_proves_no_higher_trump() -> None:
    ex = _excluded([(0, "5C 9H 4H 7C")])
    assert ex[2] & SUIT_MASKS[Suit.H] == parse_cards(["TH", "JH", "QH", "KH", "AH"])
    assert ex[2] & SUIT_MASKS[Suit.C] == SUIT_MASKS[Suit.C]


def test_no_duty_to_go_higher_once_trumped_unless_the_rules_say_so() -> None:
    standard = _excluded([(0, "5D 2H 3D 4D")], "standard")
    assert not standard[2] & SUIT_MASKS[Suit.D]
    classic = _excluded([(0, "5D 2H 3D 4D")], "classic")
    higher = ["6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"]
    assert classic[2] & SUIT_MASKS[Suit.D] == parse_cards(higher)


def test_leading_unbroken_trump_means_only_trumps() -> None:
    ex = _excluded([(1, "2H 3H 4H 5H")])
    assert ex[1] | SUIT_MASKS[Suit.H] == FULL_DECK
    # Once trump is broken, leading trump proves nothing.
    ex = _excluded([(1, "2H 3H 4H 5H"), (0, "6H 7H 8H 9H")])
    assert ex[0] & SUIT_MASKS[Suit.S] == 0
