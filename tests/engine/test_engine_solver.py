"""The double-dummy solver against a plain minimax played through the engine's Deal."""

import json
import random
import subprocess
import sys
import zlib
from collections.abc import Callable

import pytest

from batak import Deal, Phase, Suit, cards_of, mask_of, parse_card, preset
from batak.cli import main as cli_main
from batak.rules import PRESET_NAMES, Rules
from batak.solver import (
    BudgetExceeded,
    Position,
    PositionError,
    Solver,
    after_card,
    card_values,
    native_search,
    solve,
)

SEARCHES = [pytest.param(True, id="c"), pytest.param(False, id="python")]
"""Both searches: in C (``batak/_solver_core.c``, where built) and in Python."""

needs_c = pytest.mark.skipif(not native_search(), reason="the C search is not built here")


def brute(deal: Deal, side: Callable[[int], bool]) -> int:
    """Tricks the side takes from here: every legal card tried, no pruning, no table."""
    if deal.phase is Phase.DONE:
        return 0
    seat = deal.to_act
    values = []
    for card in cards_of(deal.legal_card_mask()):
        child = deal.copy()
        done = len(child.tricks)
        child.play_card(card)
        gained = 1 if len(child.tricks) > done and side(child.tricks[-1].winner) else 0
        values.append(gained + brute(child, side))
    return max(values) if side(seat) else min(values)


def side_of(rules: Rules, holder: int) -> Callable[[int], bool]:
    if rules.partnership:
        return lambda seat: seat % 2 == holder % 2
    return lambda seat: seat == holder


def random_endgame(rng: random.Random, rules: Rules, size: int) -> tuple[Deal, Position]:
    """Hands of ``size`` cards drawn from the whole deck, sometimes a trick under way."""
    trump = rules.fixed_trump if rules.fixed_trump is not None else Suit(rng.randrange(4))
    leader = rng.randrange(4)
    holder = rng.randrange(4)
    on_table = rng.choice((0, 0, 1, 2, 3))
    # Few suits make following, overtaking and ruffing happen often.
    suits = rng.sample(range(4), rng.choice((2, 3, 4)))
    if int(trump) not in suits and rng.random() < 0.7:
        suits[0] = int(trump)
    pool = [c for c in range(52) if c // 13 in suits]
    cards = rng.sample(pool, 4 * size)
    hands = [mask_of(cards[s * size : (s + 1) * size]) for s in range(4)]
    trick = []
    for k in range(on_table):
        seat = (leader + k) % 4
        card = cards_of(hands[seat])[rng.randrange(size)]
        hands[seat] ^= 1 << card
        trick.append(card)
    deal = Deal.position(
        rules,
        hands,
        trump=trump,
        holder=holder,
        bid=1,
        leader=leader,
        trick=trick,
        trump_broken=rng.random() < 0.3,
    )
    pos = Position(
        rules,
        (hands[0], hands[1], hands[2], hands[3]),
        trump,
        leader,
        holder,
        deal.trump_broken,
        tuple(trick),
    )
    return deal, pos


RULE_SETS = [
    preset(name, partnership=partners) for name in PRESET_NAMES for partners in (False, True)
] + [
    preset("standard", trump_lead="free"),
    preset("classic", trump_lead="free", partnership=True),
    preset("standard", overtake_when_trumped=True),
    preset("classic", overtake_when_trumped=False),
]


@pytest.mark.parametrize("native", SEARCHES)
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.preset}-{r.partnership}")
def test_solver_agrees_with_plain_minimax(rules: Rules, native: bool) -> None:
    rng = random.Random(zlib.crc32(repr(rules).encode()))
    # One solver per contract kind, reused across positions: its table is shared between
    # unrelated positions, which checks that a table key never joins two different ones.
    solvers: dict[tuple[Suit, int], Solver] = {}
    for i in range(150):
        size = (2, 3, 2, 3, 3)[i % 5] if i % 100 else 4
        deal, pos = random_endgame(rng, rules, size)
        key = (pos.trump, pos.holder % 2 if rules.partnership else pos.holder)
        solver = solvers.setdefault(key, Solver(rules, pos.trump, pos.holder, native=native))
        assert solver.native is (native and native_search())
        expected = brute(deal, side_of(rules, pos.holder))
        assert solver.solve(pos) == expected, (i, pos)


def test_card_values_agree_with_plain_minimax() -> None:
    rng = random.Random(5)
    for i in range(150):
        rules = RULE_SETS[i % len(RULE_SETS)]
        deal, pos = random_endgame(rng, rules, 3)
        side = side_of(rules, pos.holder)
        values = card_values(pos)
        assert set(values) == set(cards_of(deal.legal_card_mask()))
        for card, value in values.items():
            child = deal.copy()
            done = len(child.tricks)
            child.play_card(card)
            gained = 1 if len(child.tricks) > done and side(child.tricks[-1].winner) else 0
            assert value == gained + brute(child, side)
            nxt = after_card(pos, card)
            assert nxt.trump_broken == child.trump_broken
            assert nxt.to_act == child.to_act


def test_bigger_endgame_value_is_the_best_card_value() -> None:
    rng = random.Random(11)
    for rules in (preset("standard"), preset("esli")):
        _, pos = random_endgame(rng, rules, 7)
        solver = Solver(rules, pos.trump, pos.holder)
        total = solver.solve(pos)
        values = card_values(pos, solver)
        best = max(values.values()) if pos.on_side(pos.to_act) else min(values.values())
        assert best == total
        assert 0 <= total <= pos.tricks_left


def test_solve_one_trick_by_hand() -> None:
    rules = preset("standard")
    hands = [mask_of([parse_card(c)]) for c in ("2H", "AS", "KS", "3S")]
    # seat 1 leads the ace of spades; seat 0 ruffs with the 2 of hearts (trump)
    assert solve(rules, hands, Suit.H, leader=1, holder=0) == 1
    assert solve(rules, hands, Suit.D, leader=1, holder=0) == 0
    assert solve(rules, hands, Suit.D, leader=1, holder=1) == 1


def test_partners_pool_their_tricks() -> None:
    rules = preset("esli")
    hands = [mask_of([parse_card(c)]) for c in ("2S", "3S", "AS", "4S")]
    assert solve(rules, hands, Suit.H, leader=0, holder=0) == 1
    assert solve(rules, hands, Suit.H, leader=0, holder=1) == 0


def test_bad_positions_name_the_field() -> None:
    rules = preset("standard")
    one = [mask_of([parse_card(c)]) for c in ("2S", "3S", "AS", "4S")]
    with pytest.raises(PositionError, match=r"^leader: expected a seat 0..3, got 4"):
        solve(rules, one, Suit.H, leader=4, holder=0)
    with pytest.raises(PositionError, match=r"^hands\[2\]: holds 2 cards, 1 expected"):
        solve(rules, [one[0], one[1], one[2] | 1 << 30, one[3]], Suit.H, leader=0, holder=0)
    with pytest.raises(PositionError, match=r"^hands\[1\]: 2S is in two hands"):
        solve(rules, [one[0], one[0], one[2], one[3]], Suit.H, leader=0, holder=0)
    with pytest.raises(PositionError, match=r"^trump: the rules fix trump to S"):
        solve(preset("koz-maca"), one, Suit.H, leader=0, holder=0)
    with pytest.raises(PositionError, match=r"^card: 2S is not a legal card here"):
        pos = Position(rules, (one[0], one[1], one[2], one[3]), Suit.H, 1, 0)
        after_card(pos, parse_card("2S"))


def _cli(lines: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    import io

    old = sys.stdin
    sys.stdin = io.StringIO("".join(line + "\n" for line in lines))
    try:
        code = cli_main(["solve"])
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_cli_solve_answers_every_line(capsys: pytest.CaptureFixture[str]) -> None:
    good = {
        "rules": {"preset": "standard"},
        "hands": [["2H"], ["AS"], ["KS"], ["3S"]],
        "trump": "H",
        "leader": 1,
        "trump_broken": False,
        "holder": 0,
    }
    bad_card = dict(good, hands=[["2H"], ["XS"], ["KS"], ["3S"]])
    bad_holder = dict(good, holder="north")
    code, out, err = _cli(
        [json.dumps(good), "{not json", json.dumps(bad_card), json.dumps(bad_holder), ""],
        capsys,
    )
    assert code == 1
    answers = [json.loads(line) for line in out]
    assert answers[0] == {"tricks": 1}
    assert answers[1]["error"].startswith("line 2: not JSON")
    assert answers[2] == {"error": "line 3: hands[1][0]: not a card: 'XS'"}
    assert answers[3] == {"error": "line 4: holder: expected a seat 0..3, got 'north'"}
    assert len(answers) == 4
    assert "line 1:" in err and " ms" in err


def test_cli_solve_reads_rules_like_a_record(capsys: pytest.CaptureFixture[str]) -> None:
    line = {
        "rules": {"preset": "esli"},
        "hands": [["2S"], ["3S"], ["AS"], ["4S"]],
        "trump": "H",
        "leader": 0,
        "holder": 0,
    }
    code, out, _ = _cli([json.dumps(line)], capsys)
    assert code == 0 and json.loads(out[0]) == {"tricks": 1}
    line["rules"] = {"preset": "esli", "partnership": "yes"}
    code, out, _ = _cli([json.dumps(line)], capsys)
    assert code == 1 and json.loads(out[0])["error"].startswith("line 1: rules: partnership")


def test_cli_solve_as_a_process() -> None:
    line = {
        "rules": {"preset": "standard"},
        "hands": [["2H", "3D"], ["AS", "4D"], ["KS", "5D"], ["3S", "6D"]],
        "trump": "H",
        "leader": 1,
        "holder": 0,
    }
    done = subprocess.run(
        [sys.executable, "-m", "batak", "solve"],
        input=json.dumps(line) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"tricks": 1}


@pytest.mark.parametrize("native", SEARCHES)
def test_a_node_budget_stops_the_search_and_keeps_what_it_found(native: bool) -> None:
    rules = preset("standard")
    deal = Deal.from_seed(rules, 3)
    h = deal.hands
    pos = Position(rules, (h[0], h[1], h[2], h[3]), Suit.C, 1, 1)
    solver = Solver(rules, Suit.C, 1, native=native)
    with pytest.raises(BudgetExceeded, match=r"stopped after 20[0-9] nodes"):
        solver.solve(pos, max_nodes=200)
    assert solver.table_size > 0
    # small endgames fit any sensible budget and agree with the plain minimax
    rng = random.Random(8)
    for _ in range(20):
        small, small_pos = random_endgame(rng, rules, 2)
        answer = Solver(rules, small_pos.trump, small_pos.holder).solve(small_pos, max_nodes=10**4)
        assert answer == brute(small, side_of(rules, small_pos.holder))


def test_answers_do_not_depend_on_what_the_solver_solved_before() -> None:
    # The table and the history that orders the leads carry over between calls; they
    # may change how fast an answer comes, never the answer.
    rules = preset("standard")
    rng = random.Random(21)
    positions = []
    while len(positions) < 40:
        _, pos = random_endgame(rng, rules, 4)
        if pos.trump is Suit.S and pos.holder == 0:
            positions.append(pos)
    alone = [Solver(rules, Suit.S, 0).solve(p) for p in positions]
    shared = Solver(rules, Suit.S, 0)
    forward = [shared.solve(p) for p in positions]
    backward = Solver(rules, Suit.S, 0)
    reverse = [backward.solve(p) for p in reversed(positions)][::-1]
    assert forward == alone == reverse


def test_the_leader_cashes_two_suits_while_the_trump_holders_follow() -> None:
    # Seat 0 leads the top spade and the top diamond; the only other trump (hearts)
    # holder, seat 2, has to follow both times, so both win; the 2C loses.
    rules = preset("standard")
    hands = [
        mask_of([parse_card(c) for c in ("AS", "AD", "2C")]),
        mask_of([parse_card(c) for c in ("3S", "3D", "AC")]),
        mask_of([parse_card(c) for c in ("4S", "4D", "2H")]),
        mask_of([parse_card(c) for c in ("5S", "5D", "KC")]),
    ]
    assert solve(rules, hands, Suit.H, leader=0, holder=0) == 2
    # seat 2 void in diamonds (and with a trump to lead back), or in both suits:
    # the count now comes from the search, checked against the plain minimax
    for seat2 in (("4S", "2H", "3H"), ("2H", "3H", "4C")):
        hands[2] = mask_of([parse_card(c) for c in seat2])
        deal = Deal.position(rules, hands, trump=Suit.H, holder=0, bid=1, leader=0)
        expected = brute(deal, side_of(rules, 0))
        assert solve(rules, hands, Suit.H, leader=0, holder=0) == expected


def test_the_benchmarks_print_their_tables(capsys: pytest.CaptureFixture[str]) -> None:
    # tiny runs: the figures are the machine's, only the shape of the answer is checked
    assert cli_main(["solve-bench", "--deals", "1", "--presets", "koz-maca"]) == 0
    out = capsys.readouterr().out
    assert "p50 ms" in out and "\n   13 " in out and "\n    1 " in out
    tiny = ["--deals", "1", "--presets", "koz-maca", "--par-nodes", "2000", "--step-nodes", "500"]
    code = cli_main(["review-bench", *tiny, "--seats", "none"])
    assert code == 0
    out = capsys.readouterr().out
    assert "whole review" in out and "par exact in " in out and " of 1 deals" in out
    assert cli_main(["review-bench", "--seats", "north"]) == 2
    assert "--seats: 'north' is not a seat 0..3" in capsys.readouterr().err
    assert cli_main(["review-bench", "--presets", "bridge"]) == 2
    assert "--presets: 'bridge' is not a preset" in capsys.readouterr().err


def _played_positions(rules: Rules, seed: int) -> list[Position]:
    """Every position of a deal played by 'easy' bots, from the first card to the last
    (tricks under way included), each with the contract of that deal."""
    from batak.ai import make_player

    players = [make_player("easy", seed * 4 + s) for s in range(4)]
    deal = Deal.from_seed(rules, seed, seed % 4)
    out = []
    while deal.phase is not Phase.DONE:
        if deal.phase is Phase.PLAY:
            contract = deal.contract
            assert contract is not None and contract.trump is not None
            h = deal.hands
            out.append(
                Position(
                    rules,
                    (h[0], h[1], h[2], h[3]),
                    contract.trump,
                    deal.trick_leader,
                    contract.seat,
                    deal.trump_broken,
                    tuple(deal.trick),
                )
            )
        seat = deal.to_act
        deal.apply(players[seat].choose(deal.observation(seat)))
    return out


@needs_c
@pytest.mark.parametrize("name", ["standard", "classic", "esli", "koz-maca"])
def test_the_c_search_is_the_python_search_node_for_node(name: str) -> None:
    # The same answers after the same number of nodes, with tables of the same size:
    # the C search tries the same cards in the same order and stores the same entries.
    rules = preset(name, overtake_when_trumped=name == "classic")
    for seed in (1, 2):
        positions = _played_positions(rules, seed)
        first = positions[0]
        fast = Solver(rules, first.trump, first.holder)
        slow = Solver(rules, first.trump, first.holder, native=False)
        assert fast.native and not slow.native
        # from the tenth card on (the full deals are the benchmark's), last first, so
        # that the earlier positions meet the table the later ones left
        for pos in reversed(positions[9:]):
            assert fast.solve(pos) == slow.solve(pos), pos
            assert fast.nodes == slow.nodes
            assert fast.table_size == slow.table_size


@needs_c
def test_the_c_search_refuses_what_is_not_a_position() -> None:
    from batak import _solver_core

    core = _solver_core.Core(0, (True, False, False, False), False, 0)
    with pytest.raises(ValueError, match="disjoint"):
        core.search(1, 1, 2, 4, (), 0, False, 1)
    with pytest.raises(ValueError, match="trick"):
        core.search(1, 2, 4, 8, (1,), 0, False, 1)
    with pytest.raises(ValueError, match="leader"):
        core.search(1, 2, 4, 8, (), 4, False, 1)
    with pytest.raises(ValueError, match="sizes"):
        core.search(3, 4, 8, 16, (), 0, False, 1)  # two cards against one each
    with pytest.raises(ValueError, match="sizes"):
        core.search((1 << 14) - 1, 0, 0, 0, (), 0, False, 1)  # 14 cards
    with pytest.raises(ValueError, match="side"):
        _solver_core.Core(0, (True, False), False, 0)
    assert core.nodes == 0 and core.size == 0
    # seat 3 led the 9S; seat 0's AS (spades are trump here) takes the trick
    assert core.search(1 << 12, 1 << 0, 1 << 1, 0, (7,), 3, False, 1) == 1
    assert core.nodes > 0
