"""An independent, deliberately plain reading of rules.md, for checking the engine.

It shares no code with ``batak``: cards are the record strings ("TH"), hands are
lists, and every rule is written out as the spec words it. It checks a whole
``batak-deal/1`` record: the auction, the contract, every legal set, every
winner, the trick counts and the scores.
"""

from __future__ import annotations

from typing import Any

RANKS = "23456789TJQKA"


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[1]


class Reject(Exception):
    pass


def legal_set(
    hand: list[str], trick: list[str], trump: str, broken: bool, rules: dict[str, Any]
) -> set[str]:
    if not trick:
        if rules["trump_lead"] == "free" or broken:
            return set(hand)
        non_trumps = [c for c in hand if suit(c) != trump]
        return set(non_trumps) if non_trumps else set(hand)
    led = suit(trick[0])
    same = [c for c in hand if suit(c) == led]
    if same:
        trick_has_trump = any(suit(c) == trump for c in trick)
        if led != trump and trick_has_trump and not rules["overtake_when_trumped"]:
            return set(same)
        best = max(rank(c) for c in trick if suit(c) == led)
        higher = [c for c in same if rank(c) > best]
        return set(higher) if higher else set(same)
    trumps = [c for c in hand if suit(c) == trump]
    if trumps:
        in_trick = [rank(c) for c in trick if suit(c) == trump]
        if in_trick:
            higher = [c for c in trumps if rank(c) > max(in_trick)]
            if higher:
                return set(higher)
        return set(trumps)
    return set(hand)


def winner_index(trick: list[str], trump: str) -> int:
    trumps = [i for i, c in enumerate(trick) if suit(c) == trump]
    if trumps:
        return max(trumps, key=lambda i: rank(trick[i]))
    led = suit(trick[0])
    return max((i for i, c in enumerate(trick) if suit(c) == led), key=lambda i: rank(trick[i]))


def seat_score(scoring: str, tricks: int, contract: int, holder_side: bool, bid: int) -> int:
    if scoring == "tens":
        if tricks >= contract:
            return 10 * contract + (tricks - contract)
        return -10 * contract
    if holder_side:
        return tricks if tricks >= bid else -bid
    return tricks


def check_record(rec: dict[str, Any]) -> None:
    """Raise Reject if the record breaks rules.md in any way."""
    rules = rec["rules"]
    hands = [list(h) for h in rec["hands"]]
    all_cards = [c for h in hands for c in h]
    if len(all_cards) != 52 or len(set(all_cards)) != 52 or any(len(h) != 13 for h in hands):
        raise Reject("hands")
    dealer = rec["dealer"]
    # Auction.
    high, high_seat = 0, None
    passed = set()
    seat = (dealer + 1) % 4
    ended = False
    forced = False
    for call in rec["auction"]:
        if ended:
            raise Reject("call after the end")
        if call["seat"] != seat:
            raise Reject("wrong seat in auction")
        bid = call["bid"]
        if bid is None:
            if (
                rules["all_pass"] == "dealer-must-bid"
                and seat == dealer
                and high_seat is None
                and len(passed) == 3
            ):
                raise Reject("dealer may not pass")
            passed.add(seat)
        else:
            if bid < rules["min_bid"] or bid > 13 or bid <= high:
                raise Reject("bad bid")
            high, high_seat = bid, seat
            if bid == 13:
                ended = True
                continue
        if high_seat is not None and len(passed) == 3:
            ended = True
        elif len(passed) == 4:
            ended = True
            forced = True
            high, high_seat = rules["forced_bid"], dealer
        else:
            seat = (seat + 1) % 4
            while seat in passed:
                seat = (seat + 1) % 4
    if not ended:
        raise Reject("auction not over")
    contract = rec["contract"]
    if (contract["seat"], contract["bid"], contract["forced"]) != (high_seat, high, forced):
        raise Reject("contract")
    trump = contract["trump"]
    if rules["fixed_trump"] is not None and trump != rules["fixed_trump"]:
        raise Reject("fixed trump")
    # Play.
    broken = False
    leader = high_seat
    won = [0, 0, 0, 0]
    if len(rec["tricks"]) != 13:
        raise Reject("13 tricks")
    for trick_rec in rec["tricks"]:
        if trick_rec["leader"] != leader:
            raise Reject("leader")
        trick: list[str] = []
        for i, card in enumerate(trick_rec["cards"]):
            s = (leader + i) % 4
            allowed = legal_set(hands[s], trick, trump, broken, rules)
            if set(trick_rec["legal"][i]) != allowed or len(trick_rec["legal"][i]) != len(allowed):
                raise Reject(f"legal set {trick_rec['legal'][i]} != {sorted(allowed)}")
            if card not in allowed:
                raise Reject("illegal card")
            if suit(card) == trump:
                ruff = bool(trick) and suit(trick[0]) != trump
                if rules["trump_lead"] == "after-trump-played" or (
                    rules["trump_lead"] == "after-ruff" and ruff
                ):
                    broken = True
            hands[s].remove(card)
            trick.append(card)
        w = (leader + winner_index(trick, trump)) % 4
        if trick_rec["winner"] != w:
            raise Reject("winner")
        won[w] += 1
        leader = w
    if rec["tricks_won"] != won:
        raise Reject("tricks_won")
    bid = contract["bid"]
    holder = contract["seat"]
    scores = []
    for s in range(4):
        if rules["partnership"]:
            tricks = won[s] + won[(s + 2) % 4]
            holder_side = s % 2 == holder % 2
        else:
            tricks = won[s]
            holder_side = s == holder
        target = bid if holder_side else 1
        scores.append(seat_score(rules["scoring"], tricks, target, holder_side, bid))
    if rec["score"] != scores:
        raise Reject(f"score {rec['score']} != {scores}")
