"""One rules core: the engine, the simulator, the solver's helpers and the inference code
all agree with each other and with the independent reading of rules.md."""

from __future__ import annotations

import random

import pytest

from batak.ai.knowledge import exclusions
from batak.ai.sim import Table, play_one
from batak.cards import FULL_DECK, SUIT_MASKS, card_code, cards_of, mask_of
from batak.deal import Deal, Phase, Play
from batak.play import (
    add_card,
    excluded_by_play,
    legal_cards,
    legal_mask,
    trick_best,
    trick_state,
    trick_winner,
)
from batak.players import make_player
from batak.rules import PRESET_NAMES, Rules, preset

from batak_reference import legal_set, winner_index

# Every preset, and the two options they never combine the other way.
RULE_SETS: list[Rules] = [preset(name) for name in PRESET_NAMES] + [
    preset("standard", trump_lead="free"),
    preset("standard", overtake_when_trumped=True),
    preset("classic", overtake_when_trumped=False),
]


def _codes(mask: int) -> set[str]:
    return {card_code(c) for c in cards_of(mask)}


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.preset}-{r.trump_lead}")
def test_engine_simulator_inference_and_reference_agree(rules: Rules) -> None:
    rng = random.Random(rules.preset + rules.trump_lead + str(rules.overtake_when_trumped))
    positions = 0
    for d in range(30):
        deal = Deal.from_seed(rules, rng.randrange(1 << 40), d % 4)
        kinds = ("random", "easy") if d % 2 else ("random", "random")
        players = [make_player(kinds[s % 2], d * 4 + s) for s in range(4)]
        while deal.phase is not Phase.PLAY:
            deal.apply(players[deal.to_act].choose(deal.observation(deal.to_act)))
        assert deal.contract is not None and deal.trump is not None
        table = Table.of(rules, int(deal.trump), deal.contract.seat, deal.contract.bid)
        hands = list(deal.hands)
        trick: list[int] = []
        leader = deal.to_act
        broken = deal.trump_broken
        won = [0, 0, 0, 0]
        tmask = SUIT_MASKS[deal.trump]
        while deal.phase is Phase.PLAY:
            seat = deal.to_act
            hand = deal.hands[seat]
            engine = deal.legal_card_mask()
            assert legal_mask(hand, trick, tmask, broken, rules.overtake_when_trumped) == engine
            led, led_high, trump_high = trick_state(trick, tmask)
            assert (
                legal_cards(
                    hand, led, led_high, trump_high, tmask, broken, rules.overtake_when_trumped
                )
                == engine
            )
            reference = legal_set(
                [card_code(c) for c in cards_of(hand)],
                [card_code(c) for c in trick],
                deal.trump.letter,
                broken,
                rules.deal_dict(),
            )
            assert _codes(engine) == reference
            # What every seat infers never contradicts the hands it cannot see.
            for viewer in range(4):
                excluded = exclusions(deal.observation(viewer))
                for s in range(4):
                    assert not excluded[s] & deal.hands[s], (viewer, s)
            action = players[seat].choose(deal.observation(seat))
            assert isinstance(action, Play)
            card = action.card
            if trick:
                assert (
                    trick_winner(leader, trick, int(deal.trump))
                    == (leader + winner_index([card_code(c) for c in trick], deal.trump.letter)) % 4
                )
            leader, broken = play_one(table, hands, trick, leader, broken, won, card)
            deal.play_card(card)
            assert hands == deal.hands
            assert broken == deal.trump_broken
            assert won == deal.tricks_won
            if not trick and deal.phase is Phase.PLAY:
                assert leader == deal.to_act == deal.tricks[-1].winner
            positions += 1
    assert positions == 30 * 52


@pytest.mark.parametrize("seed", range(4))
def test_excluded_by_play_is_the_exact_inverse_of_the_legal_rule(seed: int) -> None:
    """Sound: a hand that could play the card holds nothing excluded. Exact: any card
    not excluded, held next to the played card, leaves that card legal."""
    rng = random.Random(seed)
    for _ in range(400):
        deck = list(range(52))
        rng.shuffle(deck)
        tmask = SUIT_MASKS[rng.randrange(4)]
        broken = rng.random() < 0.5
        overtake = rng.random() < 0.5
        trick = deck[: rng.randrange(4)]
        hand = mask_of(deck[4 : 4 + rng.randrange(1, 14)])
        state = trick_state(trick, tmask)
        for card in cards_of(legal_cards(hand, *state, tmask, broken, overtake)):
            out = excluded_by_play(card, *state, tmask, broken, overtake)
            assert not out & hand
            assert not out >> card & 1
            free = FULL_DECK & ~out & ~mask_of(trick) & ~(1 << card)
            for other in cards_of(free):
                pair = (1 << card) | (1 << other)
                assert legal_cards(pair, *state, tmask, broken, overtake) >> card & 1


def test_trick_state_is_add_card_folded() -> None:
    rng = random.Random(5)
    for _ in range(500):
        tmask = SUIT_MASKS[rng.randrange(4)]
        cards = rng.sample(range(52), 4)
        state = (-1, -1, -1)
        for i, card in enumerate(cards):
            state = add_card(*state, card, tmask)
            assert state == trick_state(cards[: i + 1], tmask)
            best = state[2] if state[2] >= 0 else state[1]
            assert cards[trick_best(cards[: i + 1], tmask)] == best
