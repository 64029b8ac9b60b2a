"""Partnership duties in the card policy (play-outs and the normal level), seen from the
partner's side: keep a partner's sure trick, and lead to the partner's winners."""

from __future__ import annotations

from batak.ai.sim import Table, policy_card
from batak.cards import Suit, parse_card, parse_cards
from batak.rules import preset

ESLI = preset("esli")


def test_a_partners_sure_trick_is_kept_and_the_discard_keeps_a_winner() -> None:
    # Seat 1 led A♠ and seat 2 followed; seat 3 (seat 1's partner) has no spade and no
    # trump; seat 0 must still follow with a low spade, so the ace cannot be beaten.
    table = Table.of(ESLI, int(Suit.C), 0, 7)
    hands = [
        parse_cards(["4S", "TD", "JD"]),
        parse_cards(["5H", "6H"]),
        parse_cards(["7H", "8H"]),
        parse_cards(["AH", "2H", "9D"]),
    ]
    trick = [parse_card("AS"), parse_card("3S")]
    card = policy_card(table, 3, hands[3], hands, trick, 1, False, hands[3])
    # Not the cheapest card (the 2 guarding the heart ace) but the diamond that cannot
    # win a trick anyway.
    assert card == parse_card("9D")


def test_the_lead_goes_to_the_partners_winner() -> None:
    # Seat 0 has no winner of its own; its partner (seat 2) holds the top heart, and
    # neither opponent can ruff hearts. Lead a low heart, not the longer diamonds.
    table = Table.of(ESLI, int(Suit.C), 0, 7)
    hands = [
        parse_cards(["3H", "4D", "5D"]),
        parse_cards(["5H", "6D", "9S"]),
        parse_cards(["AH", "7D", "TS"]),
        parse_cards(["6H", "8D", "JS"]),
    ]
    assert policy_card(table, 0, hands[0], hands, [], 0, False, hands[0]) == parse_card("3H")


def test_no_lead_to_a_winner_an_opponent_might_hold() -> None:
    # Seen from seat 0 with only what it may infer: the top heart might be with an
    # opponent, so there is no partner's suit to cash; the longest suit is led.
    table = Table.of(ESLI, int(Suit.C), 0, 7)
    mine = parse_cards(["3H", "4D", "5D"])
    unseen = parse_cards(["5H", "6D", "9S", "AH", "7D", "TS", "6H", "8D", "JS"])
    poss = [mine, unseen, unseen, unseen]
    assert policy_card(table, 0, mine, poss, [], 0, False, mine) == parse_card("4D")


def test_alone_there_is_no_partner_to_lead_to() -> None:
    solo = Table.of(preset("standard"), int(Suit.C), 0, 7)
    hands = [
        parse_cards(["3H", "4D", "5D"]),
        parse_cards(["5H", "6D", "9S"]),
        parse_cards(["AH", "7D", "TS"]),
        parse_cards(["6H", "8D", "JS"]),
    ]
    assert policy_card(solo, 0, hands[0], hands, [], 0, False, hands[0]) == parse_card("4D")
