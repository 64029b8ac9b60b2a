"""Every refusal of the engine as data: the code, its values (cards, suits, numbers, never
English words), the same reason from ``why_illegal`` and from the raised
``IllegalAction``, and its English wording for the terminal and logs."""

import pickle
from collections.abc import Callable, Sequence

import pytest

from batak import (
    PASS,
    Bid,
    ChooseTrump,
    Deal,
    IllegalAction,
    Match,
    Play,
    Refusal,
    Suit,
    mask_of,
    parse_card,
    preset,
)
from batak.deal import Action
from batak.refusals import CODES


def c(code: str) -> int:
    return parse_card(code)


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def auction(name: str = "standard", dealer: int = 0) -> Deal:
    return Deal.from_seed(preset(name), seed=11, dealer=dealer)


def to_trump() -> Deal:
    deal = auction()
    deal.apply(Bid(5))
    for _ in range(3):
        deal.apply(PASS)
    return deal


def playing() -> Deal:
    deal = to_trump()
    deal.apply(ChooseTrump(Suit.H))
    return deal


def finished() -> Deal:
    deal = playing()
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    return deal


def position(hands: Sequence[str], trick: str = "") -> Deal:
    """Seat 0 leads; hearts are trump, not broken."""
    return Deal.position(
        preset("standard"),
        [mask_of(cards(h)) for h in hands],
        trump=Suit.H,
        holder=0,
        bid=5,
        leader=0,
        trick=list(cards(trick)),
        trump_broken=False,
    )


def refused(deal: Deal, action: Action, seat: int | None = None) -> Refusal:
    """The refusal ``apply`` raises; ``why_illegal`` gives the same one (when it is the
    seat's turn) and the exception's message is its English wording."""
    with pytest.raises(IllegalAction) as err:
        deal.apply(action, seat)
    refusal = err.value.refusal
    assert str(err.value) == str(refusal)
    if seat is None:
        assert deal.why_illegal(action) == refusal
        assert deal.explain_illegal(action) == str(refusal)
    return refusal


def over_13() -> Bid:
    """A bid of 14 made past the constructor's check (the auction checks again)."""
    bid = object.__new__(Bid)
    object.__setattr__(bid, "tricks", 14)
    return bid


# (code, how the refusal comes about, the values it carries, its English wording)
CASES: list[tuple[str, Callable[[], Refusal], dict[str, object], str]] = [
    ("deal-over", lambda: refused(finished(), PASS), {}, "this deal is over"),
    ("auction-over", lambda: refused(playing(), Bid(6)), {}, "the auction is over"),
    (
        "dealer-must-bid",
        lambda: refused(_all_passed_to_dealer(), PASS),
        {"min_bid": 4},
        "the dealer may not pass when everyone else has passed: bid at least 4",
    ),
    (
        "over-13",
        lambda: refused(auction(), over_13()),
        {},
        "nobody can bid more than 13 tricks",
    ),
    (
        "bid-too-low",
        lambda: refused(_after_bid(7), Bid(7)),
        {"high": 7, "low": 8},
        "a bid must be higher than 7: bid 8 or more, or pass",
    ),
    ("lowest-bid", lambda: refused(auction(), Bid(4)), {"low": 5}, "the lowest bid is 5"),
    (
        "auction-not-over",
        lambda: refused(auction(), ChooseTrump(Suit.S)),
        {},
        "the auction is not over yet",
    ),
    (
        "trump-chosen",
        lambda: refused(playing(), ChooseTrump(Suit.S)),
        {},
        "trump has been chosen already",
    ),
    (
        "not-yet-play",
        lambda: refused(to_trump(), Play(c("AS"))),
        {},
        "cards are played after the auction and the trump choice",
    ),
    (
        "not-held",
        lambda: refused(position(["2H AS KD", "2S 3S 4S", "5S 6S 7S", "8S 9S TS"]), Play(c("QC"))),
        {"card": c("QC")},
        "you do not hold Q♣",
    ),
    (
        "trump-not-broken",
        lambda: refused(position(["2H AS KD", "2S 3S 4S", "5S 6S 7S", "8S 9S TS"]), Play(c("2H"))),
        {"trump": Suit.H, "choices": cards("AS KD")},
        "trump (♥) is not broken yet: lead another suit (A♠ or K♦)",
    ),
    (
        "follow-suit",
        lambda: refused(
            position(["2D 3D 4D", "2S QS AS 5D", "5S 6S 7S 8S", "9D TD JD QD"], "9S"), Play(c("5D"))
        ),
        {"suit": Suit.S, "choices": cards("AS QS")},
        "you must follow suit and play a spade: A♠ or Q♠",
    ),
    (
        "play-higher",
        lambda: refused(
            position(["2D 3D 4D", "2S QS AS 5D", "5S 6S 7S 8S", "9D TD JD QD"], "9S"), Play(c("2S"))
        ),
        {"suit": Suit.S, "choices": cards("AS QS")},
        "you must play a higher spade: A♠ or Q♠",
    ),
    (
        "must-trump",
        lambda: refused(
            position(["2D 3D 4D", "2H 5H 5D 4C", "5S 6S 7S 8S", "9D TD JD QD"], "9S"), Play(c("5D"))
        ),
        {"suit": Suit.S, "choices": cards("5H 2H")},
        "you have no spades, so you must play a trump: 5♥ or 2♥",
    ),
    (
        "higher-trump",
        lambda: refused(
            position(["2D 3D", "4D 6D", "3H 7H 8D", "9D TD JD"], "9S 5H"), Play(c("3H"))
        ),
        {"choices": cards("7H")},
        "you must play a higher trump: 7♥",
    ),
    (
        "not-your-turn",
        lambda: refused(auction(), Bid(5), seat=2),
        {"seat": 1},
        "it is not your turn: seat 1 is to act",
    ),
    (
        "match-over",
        lambda: refused_match(),
        {},
        "the match is over",
    ),
    (
        "malformed",
        lambda: made(lambda: Play(52)),
        {"what": "card", "value": "52", "low": 0, "high": 51},
        "a card must be an integer 0..51, not 52",
    ),
]


def _all_passed_to_dealer() -> Deal:
    deal = Deal.from_seed(preset("classic"), seed=11, dealer=1)
    for _ in range(3):
        deal.apply(PASS)
    return deal


def _after_bid(n: int) -> Deal:
    deal = auction()
    deal.apply(Bid(n))
    return deal


def refused_match() -> Refusal:
    match = Match(preset("standard", deals=1), seed=3)
    while not match.is_over:
        match.apply(match.legal_actions()[0])
    with pytest.raises(IllegalAction) as err:
        match.apply(PASS)
    return err.value.refusal


def made(make: Callable[[], object]) -> Refusal:
    with pytest.raises(IllegalAction) as err:
        make()
    assert str(err.value) == str(err.value.refusal)
    return err.value.refusal


@pytest.mark.parametrize(
    ("code", "make", "params", "english"), CASES, ids=[case[0] for case in CASES]
)
def test_each_refusal_is_a_code_with_values(
    code: str, make: Callable[[], Refusal], params: dict[str, object], english: str
) -> None:
    refusal = make()
    assert refusal.code == code
    assert dict(refusal.params) == params
    assert str(refusal) == english


def test_the_cases_cover_every_code() -> None:
    assert {case[0] for case in CASES} == CODES


def test_values_are_numbers_cards_and_suits_not_words() -> None:
    refusal = CASES[[case[0] for case in CASES].index("must-trump")][1]()
    assert type(refusal.params["suit"]) is Suit and refusal.params["suit"] == 0
    assert all(type(v) is int for v in refusal.params["choices"])  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("make", "what", "english"),
    [
        (lambda: Bid(True), "bid", "a bid must be an integer 1..13, not True"),
        (lambda: ChooseTrump("H"), "trump", "the trump must be a suit S, H, D or C, not 'H'"),
        (lambda: auction().apply(None), "action", "not an action: None"),  # type: ignore[arg-type]
        (lambda: auction().apply(Bid(5), seat=True), "seat", "a seat must be an integer 0..3"),  # type: ignore[arg-type]
        (lambda: playing().play_card("AS"), "card", "a card must be an integer 0..51, not 'AS'"),  # type: ignore[arg-type]
        (lambda: to_trump()._choose_trump(1), "suit", "not a suit: 1"),  # type: ignore[arg-type]
    ],
)
def test_malformed_actions_say_what_was_wrong(
    make: Callable[[], object], what: str, english: str
) -> None:
    refusal = made(make)
    assert refusal.code == "malformed" and refusal.params["what"] == what
    assert str(refusal).startswith(english)


def test_a_replayed_match_names_the_move_and_keeps_the_refusal() -> None:
    with pytest.raises(IllegalAction, match=r"move 2 \(bid 5\)") as err:
        Match.replay(preset("standard"), 1, [Bid(5), Bid(5)])
    assert err.value.refusal == Refusal("bid-too-low", {"high": 5, "low": 6})


def test_the_refusal_survives_pickling() -> None:
    with pytest.raises(IllegalAction) as err:
        auction().apply(Bid(4))
    again = pickle.loads(pickle.dumps(err.value))
    assert again.refusal == err.value.refusal and str(again) == str(err.value)


def test_an_unknown_code_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown refusal code"):
        Refusal("you-must-follow-suit")
