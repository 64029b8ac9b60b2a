"""Hints: the action the hard level would take, and why, in a sentence or two.

:func:`hint` returns a :class:`Hint`, a small structured object (the action,
a ``kind`` naming the reason, and the numbers behind it); :func:`format_hint_en`
turns it into English. Other languages format the same object with their own
fixed phrases. Everything comes from the seat's own observation.

>>> from batak import Deal, preset
>>> deal = Deal.from_seed(preset("standard"), seed=7, dealer=0)
>>> h = hint(deal.observation(1), budget=0.02)
>>> h.kind in HINT_KINDS
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, get_args

from batak.ai.bidding import bid_value, model_for, partner_holds_high
from batak.ai.bots import HardPlayer
from batak.cards import ABOVE, FULL_DECK, SUIT_MASKS, Suit, card_label
from batak.deal import PASS, PLAYS, TRUMPS, Action, Bid, Observation, Phase, Play
from batak.play import trick_best
from batak.scoring import is_holder_side

HintKind = Literal[
    "bid",  # bid: expected tricks with the best trump and the chance of making it
    "bid-forced",  # the dealer must bid: the cheapest bid
    "pass",  # even the lowest bid is not worth it
    "pass-forced",  # dealer passes into the forced contract
    "pass-partner",  # partnerships: leave the contract to the partner's high bid
    "pass-blind",  # blind bidding: pass on the average hand
    "bid-blind",  # blind bidding: bid on the average hand
    "trump",  # name this trump
    "only",  # the only legal card
    "draw-trumps",  # holder side leads trump to draw the others' trumps
    "cash",  # lead a card nobody can beat
    "lead",  # lead this card (best in the play-outs)
    "win",  # take the trick
    "duck",  # could win but keep the high card
    "discard",  # cannot win: throw the least useful card
]
"""Why a hint suggests its action; translations are keyed by it."""

HINT_KINDS: Final[tuple[HintKind, ...]] = get_args(HintKind)


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggestion and the facts behind it (translate by ``kind``).

    ``tricks``: expected tricks for the seat's side (as holder during the
    auction and trump choice). ``chance``: for bids and trump, the chance of
    making the contract; in play, the chance that the seat's side reaches its
    goal (the holder side makes the contract, the defenders beat it).
    ``margin``: how many points per deal the suggested card scored above the
    next best in the play-outs. ``worlds``: how many deals were simulated.
    """

    action: Action
    kind: HintKind
    tricks: float | None = None
    chance: float | None = None
    bid: int | None = None
    trump: Suit | None = None
    card: int | None = None
    honours: tuple[int, ...] = ()
    trump_count: int = 0
    margin: float | None = None
    worlds: int = 0
    holder_side: bool = False


def hint(observation: Observation, budget: float = 0.25, seed: int = 0) -> Hint:
    """The hard level's choice for the seat to act, with its reason."""
    obs = observation
    if not obs.my_turn or not obs.legal:
        raise ValueError("it is not this seat's turn")
    bot = HardPlayer(seed, budget=budget)
    if obs.phase is Phase.AUCTION:
        return _bid_hint(obs, bot)
    if obs.phase is Phase.TRUMP:
        assert obs.hand is not None and obs.contract is not None
        suit, tricks, make = bot.trump(obs)
        hand = obs.hand
        trumps = hand & SUIT_MASKS[suit]
        return Hint(
            TRUMPS[suit],
            "trump",
            tricks=tricks,
            chance=make,
            bid=obs.contract.bid,
            trump=suit,
            honours=_honours(hand, suit),
            trump_count=trumps.bit_count(),
        )
    return _play_hint(obs, bot)


def _honours(hand: int, suit: Suit) -> tuple[int, ...]:
    """The seat's aces and kings, trumps first (for the reason text)."""
    out = []
    for s in [int(suit)] + [x for x in range(4) if x != int(suit)]:
        for rank in (14, 13):
            c = s * 13 + rank - 2
            if hand >> c & 1:
                out.append(c)
    return tuple(out[:4])


def _bid_hint(obs: Observation, bot: HardPlayer) -> Hint:
    choice = bot.bid(obs)
    action = choice.action
    rules = obs.rules
    forced_to_bid = PASS not in obs.legal
    kind: HintKind
    if obs.hand is None:
        lowest = min((a.tricks for a in obs.legal if isinstance(a, Bid)), default=None)
        make = None
        if lowest is not None:
            model = model_for(rules)
            make = bid_value(rules, model.blind_mean, model.blind_sd, lowest)[1]
        kind = "bid-blind" if isinstance(action, Bid) else "pass-blind"
        return Hint(
            action,
            kind,
            tricks=choice.mean,
            chance=make,
            bid=action.tricks if isinstance(action, Bid) else lowest,
            worlds=0,
        )
    trump = choice.trump
    honours = _honours(obs.hand, trump) if trump is not None else ()
    count = (obs.hand & SUIT_MASKS[trump]).bit_count() if trump is not None else 0
    if isinstance(action, Bid):
        kind = "bid-forced" if forced_to_bid else "bid"
        return Hint(
            action,
            kind,
            tricks=choice.mean,
            chance=choice.make,
            bid=action.tricks,
            trump=trump,
            honours=honours,
            trump_count=count,
        )
    if partner_holds_high(obs):
        return Hint(action, "pass-partner", tricks=choice.mean, bid=obs.high_bid, trump=trump)
    everyone_passed = sum(1 for _s, b in obs.calls if b is None) == 3 and not obs.high_bid
    lowest = min((a.tricks for a in obs.legal if isinstance(a, Bid)), default=None)
    if everyone_passed and rules.all_pass == "dealer-forced":
        return Hint(
            action,
            "pass-forced",
            tricks=choice.mean,
            chance=choice.make,
            bid=rules.forced_bid,
            trump=trump,
            honours=honours,
            trump_count=count,
        )
    make = None
    if lowest is not None:
        make = bid_value(rules, choice.mean, model_for(rules).sd, lowest)[1]
    return Hint(
        action,
        "pass",
        tricks=choice.mean,
        chance=make,
        bid=lowest,
        trump=trump,
        honours=honours,
        trump_count=count,
    )


def _play_hint(obs: Observation, bot: HardPlayer) -> Hint:
    assert obs.hand is not None and obs.contract is not None and obs.trump is not None
    holder_side = is_holder_side(obs.rules, obs.contract, obs.seat)
    if len(obs.legal) == 1:
        action = obs.legal[0]
        assert isinstance(action, Play)
        return Hint(action, "only", card=action.card, holder_side=holder_side)
    analysis = bot.analyse_play(obs, force=True)
    card = analysis.best
    values = sorted((st.value for st in analysis.stats), reverse=True)
    margin = values[0] - values[1] if len(values) > 1 else None
    tmask = SUIT_MASKS[obs.trump]
    legal = 0
    for a in obs.legal:
        if isinstance(a, Play):
            legal |= 1 << a.card
    unseen = FULL_DECK & ~obs.played & ~obs.hand
    kind: HintKind
    if not obs.trick:
        if tmask >> card & 1 and holder_side and unseen & tmask:
            kind = "draw-trumps"
        elif not unseen & ABOVE[card] and (unseen & SUIT_MASKS[card // 13]):
            kind = "cash"
        else:
            kind = "lead"
    else:
        best = obs.trick[trick_best(obs.trick, tmask)]
        if tmask >> best & 1:
            beats = legal & tmask & ABOVE[best]
        else:
            beats = (legal & ABOVE[best]) | (legal & tmask)
        if (1 << card) & beats:
            kind = "win"
        elif beats:
            kind = "duck"
        else:
            kind = "discard"
    return Hint(
        PLAYS[card],
        kind,
        tricks=analysis.side_tricks,
        chance=analysis.make_chance,
        card=card,
        trump=obs.trump,
        margin=margin,
        worlds=analysis.worlds,
        holder_side=holder_side,
        bid=obs.contract.bid,
    )


# --- English ---------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return f"{round(100 * (x or 0.0))}%"


def _cards(cards: tuple[int, ...]) -> str:
    return " ".join(card_label(c) for c in cards)


def format_hint_en(h: Hint) -> str:
    """The hint as one or two English sentences."""
    k = h.kind
    tricks = f"{h.tricks:.1f}" if h.tricks is not None else "?"
    if k in ("bid", "bid-forced", "pass", "pass-forced") and h.trump is not None:
        trump = f"{h.trump.english} as trump"
        extra = (
            f" — {_cards(h.honours)} and {h.trump_count} trumps"
            if h.honours
            else (f" — {h.trump_count} trumps")
        )
        base = f"{trump}: about {tricks} tricks expected{extra}"
        if k == "bid":
            return f"Bid {h.bid}. {base}; bid {h.bid} makes {_pct(h.chance)} of the time."
        if k == "bid-forced":
            return (
                f"Bid {h.bid}: as dealer you may not pass now. {base}; "
                f"{h.bid} makes {_pct(h.chance)} of the time."
            )
        if k == "pass-forced":
            return (
                f"Pass and play the forced {h.bid}. {base}; "
                f"the forced {h.bid} makes {_pct(h.chance)} of the time."
            )
        if h.bid is None:
            return f"Pass. {base}."
        return f"Pass. {base}, so even {h.bid} would make only {_pct(h.chance)} of the time."
    if k in ("pass", "pass-forced"):
        return "Pass: no trump gives enough tricks."
    if k == "pass-partner":
        return (
            f"Pass: your partner holds the contract at {h.bid}. Bidding over your partner "
            "would only raise your team's target."
        )
    if k == "bid-blind":
        return (
            f"Bid {h.bid} blind: an unseen hand averages about {tricks} tricks with its "
            f"best trump; {h.bid} makes about {_pct(h.chance)} of the time."
        )
    if k == "pass-blind":
        if h.bid is None:
            return f"Pass: an unseen hand averages only about {tricks} tricks."
        return (
            f"Pass: an unseen hand averages about {tricks} tricks with its best trump, "
            f"so {h.bid} would make only about {_pct(h.chance)} of the time."
        )
    if k == "trump":
        assert h.trump is not None
        honours = f" — {_cards(h.honours)} and" if h.honours else " —"
        return (
            f"{h.trump.english} as trump: about {tricks} tricks expected{honours} "
            f"{h.trump_count} trumps; your {h.bid} makes {_pct(h.chance)} of the time."
        )
    card = card_label(h.card) if h.card is not None else "?"
    if k == "only":
        return f"Play {card}: it is your only legal card."
    goal = "make the contract" if h.holder_side else "beat the contract"
    outlook = (
        f"Your side expects about {tricks} tricks and should {goal} "
        f"{_pct(h.chance)} of the time ({h.worlds} simulated deals)."
    )
    if k == "draw-trumps":
        return f"Lead {card} to draw the others' trumps. {outlook}"
    if k == "cash":
        return f"Lead {card}: nobody has a higher {_suit_word(h.card)} left. {outlook}"
    if k == "lead":
        return f"Lead {card}: it did best in the play-outs. {outlook}"
    if k == "win":
        return f"Play {card} to take this trick. {outlook}"
    if k == "duck":
        return f"Play {card} and keep your higher cards for later. {outlook}"
    if k == "discard":
        return f"Play {card}: you cannot win this trick, so throw your least useful card. {outlook}"
    return f"{h.action}."


def _suit_word(card: int | None) -> str:
    if card is None:
        return "card"
    return Suit(card // 13).english[:-1].lower()


def hint_text(observation: Observation, budget: float = 0.25, seed: int = 0) -> tuple[Action, str]:
    """``(action, English reason)`` for the seat to act."""
    h = hint(observation, budget, seed)
    return h.action, format_hint_en(h)


__all__ = ["HINT_KINDS", "Hint", "format_hint_en", "hint", "hint_text"]
