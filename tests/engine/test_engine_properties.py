"""Hypothesis property tests over random games of every preset."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from batak import (
    PRESET_NAMES,
    Bid,
    ChooseTrump,
    Deal,
    Match,
    Pass,
    Phase,
    Play,
    deal_from_record,
    preset,
)

from batak_reference import check_record, legal_set

FULL = (1 << 52) - 1


def _codes(mask: int) -> list[str]:
    from batak import card_code, cards_of

    return [card_code(c) for c in cards_of(mask)]


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(PRESET_NAMES),
    seed=st.integers(0, (1 << 63) - 1),
    dealer=st.integers(0, 3),
    choices=st.randoms(use_true_random=False),
)
def test_random_deals_keep_every_invariant(
    name: str, seed: int, dealer: int, choices: object
) -> None:
    rules = preset(name)
    deal = Deal.from_seed(rules, seed, dealer)
    rng = choices
    while deal.phase is not Phase.DONE:
        # 52 cards conserved: in hands, on the table, or in finished tricks.
        in_tricks = sum(4 for _ in deal.tricks)
        assert sum(h.bit_count() for h in deal.hands) + len(deal.trick) + in_tricks == 52
        assert deal.hands[0] | deal.hands[1] | deal.hands[2] | deal.hands[3] | deal.played == FULL
        actions = deal.legal_actions()
        assert actions, "the legal set is never empty"
        if deal.phase is Phase.PLAY:
            trump = deal.trump
            assert trump is not None
            expected = legal_set(
                _codes(deal.hands[deal.to_act]),
                _codes(0) if not deal.trick else [_codes(1 << c)[0] for c in deal.trick],
                trump.letter,
                deal.trump_broken,
                rules.deal_dict(),
            )
            assert {_codes(1 << a.card)[0] for a in actions if isinstance(a, Play)} == expected
        action = rng.choice(actions)  # type: ignore[attr-defined]  # hypothesis randoms
        assert isinstance(action, Bid | Pass | ChooseTrump | Play)
        deal.apply(action)
    record = deal.to_record()
    check_record(json.loads(json.dumps(record)))  # legal sets, winners, scores
    again = deal_from_record(json.loads(json.dumps(record)))
    assert again.to_record() == record
    assert sum(deal.tricks_won) == 13


@settings(max_examples=15, deadline=None)
@given(
    name=st.sampled_from(PRESET_NAMES),
    seed=st.integers(0, 10**9),
    choices=st.randoms(use_true_random=False),
)
def test_random_matches_add_up(name: str, seed: int, choices: object) -> None:
    match = Match(preset(name, deals=2), seed)
    while not match.is_over:
        match.apply(choices.choice(match.legal_actions()))  # type: ignore[attr-defined]  # hypothesis
    assert len(match.finished) >= 2
    for s in range(4):
        assert match.totals[s] == sum(d.scores[s] for d in match.finished if d.scores)
    if match.rules.partnership:
        assert match.totals[0] == match.totals[2] and match.totals[1] == match.totals[3]
    top = max(match.totals)
    assert match.winners == [s for s in range(4) if match.totals[s] == top]
    if match.rules.tie_break == "extra-deal":
        sides = (0, 1) if match.rules.partnership else (0, 1, 2, 3)
        assert sum(1 for s in sides if match.totals[s] == top) == 1
