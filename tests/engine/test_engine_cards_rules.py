import pytest

from batak import (
    PRESET_NAMES,
    Rules,
    RulesError,
    Suit,
    card_code,
    card_label,
    cards_of,
    format_cards,
    mask_of,
    parse_card,
    preset,
)
from batak.cards import ABOVE, SUIT_MASKS, card_rank, card_suit, make_card


def test_every_card_round_trips_through_the_record_notation() -> None:
    codes = [card_code(c) for c in range(52)]
    assert len(set(codes)) == 52
    assert all(parse_card(code) == c for c, code in enumerate(codes))
    assert card_code(make_card(10, Suit.H)) == "TH"
    assert card_code(make_card(14, Suit.S)) == "AS"


@pytest.mark.parametrize("text", ["TH", "th", "10H", "10♥", " 10 h ", "T♡"])
def test_loose_card_forms_for_people(text: str) -> None:
    assert parse_card(text) == make_card(10, Suit.H)


@pytest.mark.parametrize("text", ["", "1H", "XH", "TX", "ASS", "11S", "♥"])
def test_bad_cards_are_rejected_with_the_input_named(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)


def test_labels_and_masks() -> None:
    assert card_label(parse_card("TH")) == "10♥"
    assert card_label(parse_card("QC")) == "Q♣"
    hand = mask_of(parse_card(t) for t in ["AS", "2S", "TH"])
    assert [card_code(c) for c in cards_of(hand)] == ["2S", "AS", "TH"]
    assert format_cards(hand) == "♠ A 2  ♥ 10  ♣ –  ♦ –"
    assert card_suit(parse_card("7D")) is Suit.D and card_rank(parse_card("7D")) == 7
    assert ABOVE[parse_card("QH")] == mask_of([parse_card("KH"), parse_card("AH")])
    assert SUIT_MASKS[Suit.C].bit_count() == 13


def test_suit_parsing() -> None:
    assert Suit.parse("h") is Suit.H
    assert Suit.parse("♣") is Suit.C
    assert Suit.parse("spades") is Suit.S
    with pytest.raises(ValueError, match="not a suit"):
        Suit.parse("x")


PRESET_TABLE = {
    # option: standard, classic, esli, koz-maca, kanli  (rules.md, "Presets")
    "min_bid": (5, 4, 7, 5, 5),
    "all_pass": (
        "dealer-forced",
        "dealer-must-bid",
        "dealer-must-bid",
        "dealer-forced",
        "dealer-forced",
    ),
    "forced_bid": (4, None, None, 4, 4),
    "scoring": ("tens", "tricks", "tricks", "tens", "tens"),
    "trump_lead": (
        "after-trump-played",
        "after-ruff",
        "after-ruff",
        "after-trump-played",
        "after-trump-played",
    ),
    "overtake_when_trumped": (False, True, True, False, False),
    "partnership": (False, False, True, False, False),
    "fixed_trump": (None, None, None, Suit.S, None),
    "blind_bidding": (False, False, False, False, True),
    "deals": (8, 5, 5, 8, 8),
    "tie_break": ("extra-deal",) * 5,
}


@pytest.mark.parametrize("option", sorted(PRESET_TABLE))
def test_presets_match_the_table_in_rules_md(option: str) -> None:
    values = tuple(getattr(preset(name), option) for name in PRESET_NAMES)
    assert values == PRESET_TABLE[option]


def test_standard_is_the_default() -> None:
    assert Rules() == preset("standard")


@pytest.mark.parametrize(
    ("overrides", "option"),
    [
        ({"min_bid": 0}, "min_bid"),
        ({"min_bid": 14}, "min_bid"),
        ({"all_pass": "redeal"}, "all_pass"),
        ({"forced_bid": None}, "forced_bid"),
        ({"scoring": "points"}, "scoring"),
        ({"trump_lead": "never"}, "trump_lead"),
        ({"overtake_when_trumped": "yes"}, "overtake_when_trumped"),
        ({"partnership": 1}, "partnership"),
        ({"fixed_trump": "X"}, "fixed_trump"),
        ({"blind_bidding": None}, "blind_bidding"),
        ({"deals": 0}, "deals"),
        ({"deals": 21}, "deals"),
        ({"tie_break": "coin"}, "tie_break"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_invalid_options_name_the_option(overrides: dict[str, object], option: str) -> None:
    with pytest.raises(RulesError, match=f"^{option}:"):
        preset("standard", **overrides)


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="preset"):
        preset("texas")


@pytest.mark.parametrize("deals", [1, 3, 5, 8, 10, 20])
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_accepts_deals_1_to_20(name: str, deals: int) -> None:
    assert preset(name, deals=deals).deals == deals


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_round_trip_through_dicts(name: str) -> None:
    rules = preset(name, deals=3)
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict(rules.deal_dict()) == preset(name)
