"""Hand-built positions for every rule of "Playing a trick" in rules.md."""

from collections.abc import Sequence

import pytest

from batak import (
    Contract,
    Deal,
    IllegalAction,
    Play,
    Rules,
    Suit,
    card_code,
    cards_of,
    mask_of,
    parse_card,
    preset,
    score_deal,
)


def m(text: str) -> int:
    return mask_of(parse_card(t) for t in text.split())


def position(
    hands: Sequence[str],
    trick: str = "",
    *,
    leader: int = 0,
    trump: str = "H",
    rules: Rules | None = None,
    broken: bool = False,
) -> Deal:
    return Deal.position(
        rules or preset("standard"),
        [m(h) for h in hands],
        trump=Suit[trump],
        holder=leader,
        bid=5,
        leader=leader,
        trick=[parse_card(t) for t in trick.split()],
        trump_broken=broken,
    )


def legal(deal: Deal) -> set[str]:
    return {card_code(c) for c in cards_of(deal.legal_card_mask())}


# --- following: the duty to go higher ------------------------------------------


def test_must_follow_suit_and_go_higher() -> None:
    # seat 0 held 9S and led it (its hand lists the rest)
    deal = position(["2D 3D 4D", "2S QS AS 5D", "5S 6S 7S 8S", "9D TD JD QD"], "9S")
    assert legal(deal) == {"QS", "AS"}
    with pytest.raises(IllegalAction, match=r"you must play a higher spade: A♠ or Q♠"):
        deal.apply(Play(parse_card("2S")))
    with pytest.raises(IllegalAction, match="follow suit"):
        deal.apply(Play(parse_card("5D")))
    assert deal.trick == [parse_card("9S")]  # nothing changed


def test_must_follow_with_any_card_of_the_suit_when_none_is_higher() -> None:
    deal = position(["2D 3D 4D", "2S 5S 3C 4C", "6S 7S 8S TS", "9D TD JD QD"], "9S")
    assert legal(deal) == {"2S", "5S"}


def test_go_higher_than_the_best_card_in_the_trick_not_the_lead() -> None:
    deal = position(["2D 3D", "4D 5D", "TS KS AS", "9D TD JD"], "9S QS", leader=0)
    assert legal(deal) == {"KS", "AS"}


def test_trumped_trick_exception_any_card_of_the_led_suit() -> None:
    # standard: overtake_when_trumped = false
    deal = position(["2D 3D", "4D 5D", "3S KS 6D", "9D TD JD"], "9S 2H")
    assert legal(deal) == {"3S", "KS"}


def test_trumped_trick_opposite_must_still_go_higher() -> None:
    deal = position(["2D 3D", "4D 5D", "3S KS 6D", "9D TD JD"], "9S 2H", rules=preset("classic"))
    assert legal(deal) == {"KS"}


def test_led_trump_the_same_duty_applies_to_trumps() -> None:
    deal = position(["2D 3D 4D", "3H 9H 2S 5C", "5S 6S 7S 8S", "9D TD JD QD"], "5H")
    assert legal(deal) == {"9H"}


def test_must_ruff_when_void_in_the_led_suit() -> None:
    # seat 1 has no spades but trumps: only the trumps are legal
    deal = position(["2D 3D 4D", "2H 5H 5D 4C", "5S 6S 7S 8S", "9D TD JD QD"], "9S")
    assert legal(deal) == {"2H", "5H"}
    with pytest.raises(IllegalAction, match="no spades, so you must play a trump"):
        deal.apply(Play(parse_card("5D")))


def test_must_over_ruff_when_possible() -> None:
    deal = position(["2D 3D", "4D 6D", "3H 7H 8D", "9D TD JD"], "9S 5H")
    assert legal(deal) == {"7H"}
    with pytest.raises(IllegalAction, match="higher trump"):
        deal.apply(Play(parse_card("3H")))


def test_under_ruff_when_unable_to_over_ruff() -> None:
    deal = position(["2D 3D", "4D 6D", "2H 3H 8D", "9D TD JD"], "9S 5H")
    assert legal(deal) == {"2H", "3H"}


def test_void_in_led_suit_and_trumps_may_play_anything() -> None:
    deal = position(["2D 3D", "4D 6D", "2C 3C 8D", "9D TD JD"], "9S 5H")
    assert legal(deal) == {"2C", "3C", "8D"}


# --- leading and breaking trump ------------------------------------------------------


def test_no_trump_lead_while_unbroken() -> None:
    deal = position(["2H AS KD", "2S 3S 4S", "5S 6S 7S", "8S 9S TS"])
    assert legal(deal) == {"AS", "KD"}
    with pytest.raises(IllegalAction, match="not broken"):
        deal.apply(Play(parse_card("2H")))


def test_trump_lead_from_an_all_trump_hand() -> None:
    deal = position(["2H 5H", "2S 3S", "5S 6S", "8S 9S"])
    assert legal(deal) == {"2H", "5H"}


def test_trump_may_be_led_once_broken() -> None:
    deal = position(["2H AS KD", "2S 3S 4S", "5S 6S 7S", "8S 9S TS"], broken=True)
    assert legal(deal) == {"2H", "AS", "KD"}


def test_trump_lead_free() -> None:
    deal = position(
        ["2H AS KD", "2S 3S 4S", "5S 6S 7S", "8S 9S TS"],
        rules=preset("standard", trump_lead="free"),
    )
    assert legal(deal) == {"2H", "AS", "KD"}
    assert deal.trump_broken


ALL_TRUMP_LEAD = ["9H TH", "2S AS", "3S KD", "4S QD"]


def _play(deal: Deal, cards: str) -> None:
    for t in cards.split():
        deal.apply(Play(parse_card(t)))


def test_after_trump_played_leading_from_all_trumps_breaks() -> None:
    deal = position(ALL_TRUMP_LEAD)
    _play(deal, "9H")
    assert deal.trump_broken


def test_after_ruff_leading_from_all_trumps_does_not_break() -> None:
    deal = position(ALL_TRUMP_LEAD, rules=preset("classic"))
    _play(deal, "9H 2S 3S 4S")
    assert not deal.trump_broken


def test_after_ruff_a_ruff_breaks() -> None:
    deal = position(["9S 2D", "2H 3C", "3S 5C", "4S 6C"], rules=preset("classic"))
    _play(deal, "9S 2H")
    assert deal.trump_broken


def test_after_ruff_following_a_trump_lead_with_trump_does_not_break() -> None:
    deal = position(["9H TH", "2H AS", "3S KD", "4S QD"], rules=preset("classic"))
    _play(deal, "9H 2H 3S 4S")
    assert not deal.trump_broken


def test_after_trump_played_any_trump_breaks() -> None:
    deal = position(["9S 2D", "2H 3C", "3S 5C", "4S 6C"])
    _play(deal, "9S 2H")
    assert deal.trump_broken


# --- winning tricks -------------------------------------------------------------------


def test_highest_trump_wins_and_leads_next() -> None:
    deal = position(["9S 2D", "2H 3C", "AS 5C", "3H 6C"])
    _play(deal, "9S 2H AS 3H")
    assert deal.tricks[-1].winner == 3 and deal.to_act == 3
    assert deal.tricks_won == [0, 0, 0, 1]


def test_highest_card_of_the_led_suit_wins_without_trump() -> None:
    deal = position(["9S 2D", "AD 3C", "KS 5C", "3S 6C"])
    _play(deal, "9S AD KS 3S")
    assert deal.tricks[-1].winner == 2


def test_a_deal_ends_when_the_hands_are_empty_and_is_scored() -> None:
    deal = position(["9S", "AD", "KS", "3S"])
    _play(deal, "9S AD KS 3S")
    assert deal.is_over and deal.scores is not None


# --- scoring -----------------------------------------------------------------------------


def test_tens_scoring_examples_from_rules_md() -> None:
    rules = preset("standard")
    c = Contract(seat=1, bid=6, forced=False, trump=Suit.H)
    assert score_deal(rules, c, [3, 7, 3, 0]) == [12, 61, 12, -10]
    assert score_deal(rules, c, [4, 5, 3, 1]) == [13, -60, 12, 10]


def test_tricks_scoring_examples_from_rules_md() -> None:
    rules = preset("classic")
    c = Contract(seat=1, bid=6, forced=False, trump=Suit.H)
    assert score_deal(rules, c, [3, 7, 3, 0]) == [3, 7, 3, 0]
    assert score_deal(rules, c, [4, 5, 3, 1]) == [4, -6, 3, 1]


def test_forced_contract_is_scored_like_any_contract() -> None:
    rules = preset("standard")
    c = Contract(seat=0, bid=4, forced=True, trump=Suit.C)
    assert score_deal(rules, c, [4, 3, 3, 3]) == [40, 12, 12, 12]
    assert score_deal(rules, c, [3, 4, 3, 3]) == [-40, 13, 12, 12]


def test_partnerships_pool_tricks_and_share_the_team_score() -> None:
    esli = preset("esli")
    c = Contract(seat=2, bid=7, forced=False, trump=Suit.S)
    assert score_deal(esli, c, [3, 2, 5, 3]) == [8, 5, 8, 5]
    assert score_deal(esli, c, [3, 2, 3, 5]) == [-7, 7, -7, 7]
    tens = preset("standard", partnership=True)
    assert score_deal(tens, c, [3, 2, 5, 3]) == [71, 14, 71, 14]
    assert score_deal(tens, c, [3, 5, 3, 2]) == [-70, 16, -70, 16]
    assert score_deal(tens, c, [7, 0, 6, 0]) == [76, -10, 76, -10]
