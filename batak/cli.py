"""The ``python -m batak`` command line: self-play, a terminal match, a benchmark.

This module is the engine's only door to the outside world (files, the
terminal); the rest of the package stays free of I/O.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from batak.cards import (
    HAND_SUIT_ORDER,
    SUIT_MASKS,
    Suit,
    card_label,
    parse_card,
    sort_hand,
)
from batak.deal import (
    PASS,
    Action,
    Bid,
    ChooseTrump,
    Deal,
    IllegalAction,
    Observation,
    Phase,
    Play,
)
from batak.match import Match
from batak.players import PLAYER_KINDS, Player, make_player
from batak.records import dumps
from batak.rules import PRESET_NAMES, Rules, RulesError, preset
from batak.scoring import contract_made, side_tricks


def _players_arg(text: str) -> list[str]:
    kinds = [k.strip() for k in text.split(",")]
    if len(kinds) != 4:
        raise argparse.ArgumentTypeError("give four players, e.g. random,random,easy,easy")
    for kind in kinds:
        try:
            make_player(kind)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return kinds


def _arena_kind(text: str) -> str:
    from batak.ai.experimental import EXPERIMENTS
    from batak.ai.oracle import ORACLE

    if text == ORACLE or text in EXPERIMENTS:
        return text
    level, sep, rev = text.partition("@")
    if level in EXPERIMENTS:
        raise argparse.ArgumentTypeError(
            f"{text!r}: an experimental player plays from this checkout only, not LEVEL@REV"
        )
    if level not in PLAYER_KINDS:
        raise argparse.ArgumentTypeError(
            f"{level!r} is not a level; expected one of {', '.join(PLAYER_KINDS)}, "
            f"LEVEL@REV or {ORACLE}, or an experimental player: {', '.join(EXPERIMENTS)}"
        )
    if sep and not rev.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: give a git revision after '@'")
    return text


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m batak", description="İhaleli Batak engine")
    sub = parser.add_subparsers(dest="command", required=True)

    sp = sub.add_parser("selfplay", help="computer players play deals; write batak-deal/1 records")
    sp.add_argument("--deals", type=int, default=10, help="number of deals (default 10)")
    sp.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    sp.add_argument("--preset", choices=PRESET_NAMES, default="standard")
    sp.add_argument(
        "--players",
        type=_players_arg,
        default=["random"] * 4,
        help=f"four of: {', '.join(PLAYER_KINDS)} (comma-separated)",
    )
    sp.add_argument("--out", default="-", help="JSON Lines file to write ('-' = stdout)")

    pl = sub.add_parser("play", help="play a match in the terminal against three computers")
    pl.add_argument("--preset", choices=PRESET_NAMES, default="standard")
    pl.add_argument("--deals", type=int, default=None, help="number of deals (1-20)")
    pl.add_argument("--seed", type=int, default=None, help="match seed (default: random)")
    pl.add_argument("--opponents", default="easy", help=f"one of: {', '.join(PLAYER_KINDS)}")
    pl.add_argument("--no-color", action="store_true", help="plain text, no ANSI colours")

    be = sub.add_parser("bench", help="measure engine speed on one core")
    be.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    be.add_argument("--preset", choices=PRESET_NAMES, default="standard")

    from batak.ai.sprt import MIN_SAMPLES  # pure arithmetic: cheap to import here

    ar = sub.add_parser("arena", help="duplicate deals: does one computer level beat another?")
    ar.add_argument(
        "--candidate",
        type=_arena_kind,
        default="hard",
        help=f"one of: {', '.join(PLAYER_KINDS)}, LEVEL@REV for a git revision's player, "
        "oracle (sees all four hands: the ceiling), or an experimental player "
        "(batak.ai.experimental; a wrong name lists them)",
    )
    ar.add_argument(
        "--baseline",
        type=_arena_kind,
        default="normal",
        help="as --candidate (default normal); e.g. hard@HEAD~3 or hard@abc1234",
    )
    ar.add_argument("--deals", type=int, default=100, help="duplicate deals (default 100)")
    ar.add_argument("--preset", choices=PRESET_NAMES, default="standard")
    ar.add_argument("--seed", type=int, default=0, help="arena seed (default 0)")
    ar.add_argument(
        "--budget",
        type=float,
        default=None,
        help="hard level's budget per decision in seconds (default 0.25)",
    )
    ar.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ar.add_argument(
        "--pure-revisions",
        action="store_true",
        help="do not compile a LEVEL@REV player's modules (slower, same decisions)",
    )
    ar.add_argument(
        "--play-only",
        action="store_true",
        help="replay the baseline table's auction and trump at every table",
    )
    ar.add_argument(
        "--scores",
        metavar="FILE",
        help="also write each deal's scores to FILE (JSON Lines), for a later --paired",
    )
    ar.add_argument(
        "--paired",
        metavar="FILE",
        help="compare this run deal by deal with an earlier run's --scores FILE "
        "(same baseline, preset, seed and mode)",
    )
    ar.add_argument(
        "--sprt",
        action="store_true",
        help="sequential test on the standing per deal: stop as soon as the candidate is "
        "shown better than --sprt-m0 (H1: mean >= --sprt-m1) or not, at most --max-deals",
    )
    ar.add_argument(
        "--sprt-m0", type=float, default=0.0, help="H0: mean standing <= m0 (default 0)"
    )
    ar.add_argument(
        "--sprt-m1", type=float, default=0.5, help="H1: mean standing >= m1 (default 0.5)"
    )
    ar.add_argument(
        "--non-inferiority",
        type=float,
        metavar="MARGIN",
        default=None,
        help="with --sprt: test 'not worse by MARGIN or more' instead (H0 mean <= -MARGIN, "
        "H1 mean >= 0)",
    )
    ar.add_argument("--alpha", type=float, default=0.05, help="SPRT false-'better' rate")
    ar.add_argument("--beta", type=float, default=0.05, help="SPRT missed-'better' rate")
    ar.add_argument(
        "--max-deals", type=int, default=2000, help="with --sprt: deals at most (default 2000)"
    )
    ar.add_argument(
        "--sprt-min-deals",
        type=int,
        default=MIN_SAMPLES,
        help=f"with --sprt: deals before it may decide (default {MIN_SAMPLES}: the "
        "variance of fewer can be far too low)",
    )

    au = sub.add_parser(
        "audit",
        help="blunder audit: every card decision of self-play deals judged by the exact solver",
        description=(
            "Self-play deals of each level on each preset; every card decision with a real "
            "choice is solved double-dummy in deals sampled from the seat's own view. A clear "
            "blunder costs its side a trick or more in (nearly) every sample; also counts "
            "contracts that the double-dummy par misses by two tricks or more."
        ),
    )
    au.add_argument("--levels", default="easy,normal,hard", help="comma-separated computer levels")
    au.add_argument("--presets", default="standard,esli", help="comma-separated presets")
    au.add_argument("--deals", type=int, default=10, help="deals per level and preset")
    au.add_argument("--samples", type=int, default=20, help="sampled deals per decision")
    au.add_argument("--seed", type=int, default=0, help="deal seed (default 0)")
    au.add_argument(
        "--share",
        type=float,
        default=0.9,
        help="share of the samples a card must cost a trick in to be a clear blunder",
    )
    au.add_argument("--nodes", type=int, default=100_000, help="solver nodes per sampled solve")
    au.add_argument("--json", action="store_true", help="print the rows as JSON")

    sub.add_parser(
        "solve",
        help="double-dummy: one JSON position a line on stdin, its best-play trick count out",
        description=(
            "Each stdin line is a JSON object: rules (as in a record), hands (four lists of "
            "card codes of equal length), trump, leader, holder, and optionally trump_broken "
            'and trick. Each answer line is {"tricks": N} (the holder\'s side, from here, '
            'best play on both sides) or {"error": "line L: field: problem"}; the exit '
            "status is 1 when any line had an error. Timing goes to stderr."
        ),
    )
    pb = sub.add_parser(
        "playout-bench", help="simulator play-outs per second of CPU time (one core)"
    )
    pb.add_argument("--seconds", type=float, default=3.0, help="CPU time per figure")
    pb.add_argument("--preset", choices=PRESET_NAMES, default="standard")
    sb = sub.add_parser("solve-bench", help="double-dummy solver time by cards left (p50/p95)")
    sb.add_argument("--deals", type=int, default=3, help="deals per preset (default 3)")
    sb.add_argument(
        "--presets",
        default="standard,classic,esli,koz-maca",
        help="comma-separated presets (default standard,classic,esli,koz-maca)",
    )
    sb.add_argument("--seed", type=int, default=0, help="deal seed (default 0)")
    sb.add_argument(
        "--python",
        action="store_true",
        help="search in Python even where the C search is built (same nodes, slower)",
    )
    rb = sub.add_parser(
        "review-bench",
        help="post-deal review: time per deal, how often the par is exact within the budget",
    )
    rb.add_argument("--deals", type=int, default=3, help="deals per preset (default 3)")
    rb.add_argument(
        "--presets",
        default="standard,classic,esli,koz-maca",
        help="comma-separated presets (default standard,classic,esli,koz-maca)",
    )
    rb.add_argument("--seed", type=int, default=0, help="deal seed (default 0)")
    rb.add_argument(
        "--seats",
        default="0",
        help="comma-separated seats whose decisions are judged, or 'none' (default 0)",
    )
    rb.add_argument("--par-nodes", type=int, default=None, help="solver nodes for the par")
    rb.add_argument("--step-nodes", type=int, default=None, help="solver nodes per later position")
    db = sub.add_parser(
        "decision-bench",
        help="CPU time per decision of the computer levels (p50/p95/max) on fixed positions",
    )
    db.add_argument("--deals", type=int, default=4, help="deals per preset (default 4)")
    db.add_argument("--presets", default="standard,esli", help="comma-separated presets")
    db.add_argument("--levels", default="hard", help="comma-separated computer levels")
    db.add_argument("--seed", type=int, default=0, help="deal seed (default 0)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "selfplay":
            return cmd_selfplay(args)
        if args.command == "play":
            return cmd_play(args)
        if args.command == "arena":
            return cmd_arena(args)
        if args.command == "solve":
            return cmd_solve(sys.stdin, sys.stdout, sys.stderr)
        if args.command == "audit":
            return cmd_audit(args)
        if args.command == "solve-bench":
            return cmd_solve_bench(args)
        if args.command == "review-bench":
            return cmd_review_bench(args)
        if args.command == "playout-bench":
            return cmd_playout_bench(args)
        if args.command == "decision-bench":
            return cmd_decision_bench(args)
        return cmd_bench(args)
    except RulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nbye", file=sys.stderr)
        return 130


# --- selfplay --------------------------------------------------------------------


def selfplay_records(
    rules: Rules, deals: int, seed: int, kinds: Sequence[str]
) -> list[dict[str, object]]:
    """Play ``deals`` deals with the named players; the dealer moves right each deal."""
    players = [make_player(kind, seed * 4 + i) for i, kind in enumerate(kinds)]
    records = []
    rng = random.Random(seed)
    for index in range(deals):
        deal = Deal.from_seed(rules, rng.randrange(1 << 62), index % 4)
        while deal.phase is not Phase.DONE:
            seat = deal.to_act
            deal.apply(players[seat].choose(deal.observation(seat)))
        records.append(deal.to_record())
    return records


def cmd_selfplay(args: argparse.Namespace) -> int:
    if args.deals < 1:
        print("error: --deals must be at least 1", file=sys.stderr)
        return 2
    records = selfplay_records(preset(args.preset), args.deals, args.seed, args.players)
    text = dumps(records)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"wrote {len(records)} records to {args.out}", file=sys.stderr)
    return 0


# --- bench -----------------------------------------------------------------------


def cmd_bench(args: argparse.Namespace) -> int:
    rules = preset(args.preset)
    rng = random.Random(1)
    rnd = rng.random
    seconds = args.seconds
    print(f"batak engine bench, preset {args.preset}, one core, {seconds:g} s per figure")

    # Full random deals: auction, trump, 13 tricks, the legal set asked before every action.
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        deal = Deal.from_seed(rules, n, n % 4)
        while deal.phase is not Phase.DONE:
            actions = deal.legal_actions()
            deal.apply(actions[int(rnd() * len(actions))])
        n += 1
    elapsed = time.perf_counter() - start
    print(f"full random deals:     {n / elapsed:10,.0f} deals/s  ({n} deals)")

    # Legal-move queries on positions taken from random play.
    positions: list[Deal] = []
    deal = Deal.from_seed(rules, 10**6, 0)
    while len(positions) < 2000:
        if deal.phase is Phase.DONE:
            deal = Deal.from_seed(rules, 10**6 + len(positions), 0)
            continue
        if deal.phase is Phase.PLAY:
            positions.append(deal.copy())
        actions = deal.legal_actions()
        deal.apply(actions[int(rnd() * len(actions))])
    q = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for pos in positions:
            pos._legal = -1  # measure the computation, not the cache
            pos.legal_actions()
        q += len(positions)
    elapsed = time.perf_counter() - start
    print(f"legal-move queries:    {q / elapsed:10,.0f} queries/s (legal_actions, uncached)")
    return 0


def cmd_decision_bench(args: argparse.Namespace) -> int:
    """CPU time per decision of the named levels (``batak.ai.speed``)."""
    from batak.ai.speed import print_bench

    names = _bench_presets(args.presets)
    if names is None:
        return 2
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    bad = [x for x in levels if x not in PLAYER_KINDS]
    if bad or args.deals < 1:
        print("error: --levels takes computer levels, --deals at least 1", file=sys.stderr)
        return 2
    print_bench(levels, names, args.deals, args.seed)
    return 0


def cmd_playout_bench(args: argparse.Namespace) -> int:
    """Play-outs of whole 13-card deals by the simulator's card policy, per CPU second."""
    from batak.ai import sim

    rules = preset(args.preset)
    rng = random.Random(2)
    deals: list[tuple[sim.Table, list[int], int]] = []
    for i in range(256):
        cards = list(range(52))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[13 * s : 13 * s + 13]) for s in range(4)]
        trump = rules.fixed_trump if rules.fixed_trump is not None else i % 4
        deals.append((sim.Table.of(rules, int(trump), i % 4, 6), hands, i % 4))
    broken = rules.trump_lead == "free"
    compiled = not sim.__file__.endswith(".py")
    print(
        f"simulator play-outs, preset {args.preset}, whole deals (52 cards), "
        f"{'compiled (mypyc)' if compiled else 'pure Python'}; CPU time of this process"
    )
    n = 0
    start = time.process_time()
    while time.process_time() - start < args.seconds:
        for table, hands, leader in deals:
            sim.rollout(table, list(hands), [], leader, broken, [0] * 4)
        n += len(deals)
    elapsed = time.process_time() - start
    print(f"{'perfect information:':21}{n / elapsed:10,.0f} play-outs/s  ({n} play-outs)")
    return 0


# --- play in the terminal ----------------------------------------------------------


SEAT_NAMES = ("You", "Right", "Partner", "Left")


class Terminal:
    """A small text UI; colours only on a real terminal."""

    def __init__(self, out: TextIO, inp: Callable[[str], str], color: bool) -> None:
        self.out = out
        self.inp = inp
        self.color = color

    def paint(self, text: str, code: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.color else text

    def card(self, card: int) -> str:
        label = card_label(card)
        return self.paint(label, "31") if card // 13 in (1, 2) else self.paint(label, "1")

    def say(self, text: str = "") -> None:
        print(text, file=self.out)


def _seat_name(seat: int, partnership: bool) -> str:
    if seat == 2 and not partnership:
        return "Across"
    return SEAT_NAMES[seat]


def _says(seat: int, partnership: bool, verb: str, verbs: str) -> str:
    """``"You take"`` / ``"Right takes"``: the seat's name with the verb agreeing."""
    return f"{_seat_name(seat, partnership)} {verb if seat == 0 else verbs}"


def _show_table(ui: Terminal, match: Match, obs: Observation) -> None:
    partnership = match.rules.partnership
    ui.say()
    contract = obs.contract
    head = f"Deal {match.deal_number}/{match.rules.deals}"
    if contract is not None:
        trump = contract.trump.symbol if contract.trump is not None else "?"
        forced = " (forced)" if contract.forced else ""
        head += (
            f" · contract {_seat_name(contract.seat, partnership)} {contract.bid}{forced}"
            f" · trump {trump}"
        )
        if obs.phase is Phase.PLAY:
            head += " · trump broken" if obs.trump_broken else " · trump not broken"
    ui.say(ui.paint(head, "1;36"))
    tricks = " ".join(f"{_seat_name(s, partnership)} {obs.tricks_won[s]}" for s in range(4))
    totals = " ".join(f"{_seat_name(s, partnership)} {match.totals[s]}" for s in range(4))
    ui.say(f"tricks: {tricks}   totals: {totals}")
    if obs.tricks and not obs.trick:
        last = obs.tricks[-1]
        shown = ", ".join(
            f"{_seat_name(last.seat_of(i), partnership)} {ui.card(c)}"
            for i, c in enumerate(last.cards)
        )
        ui.say(f"last trick: {shown} → {_seat_name(last.winner, partnership)}")
    if obs.trick:
        leader = obs.trick_leader or 0
        shown = ", ".join(
            f"{_seat_name((leader + i) % 4, partnership)} {ui.card(c)}"
            for i, c in enumerate(obs.trick)
        )
        ui.say(f"on the table: {shown}")


def _show_hand(ui: Terminal, hand: int, legal: int) -> list[int]:
    """Print the hand by suit, numbering the legal cards; returns them in number order."""
    numbered: list[int] = []
    for suit in HAND_SUIT_ORDER:
        cells = []
        for c in sort_hand(hand & SUIT_MASKS[suit]):
            if (legal >> c) & 1:
                numbered.append(c)
                cells.append(f"{len(numbered)}:{ui.card(c)}")
            else:
                cells.append(ui.paint(card_label(c), "2"))
        ui.say(f"  {suit.symbol} " + ("  ".join(cells) if cells else "–"))
    return numbered


class Quit(Exception):
    """The person asked to stop (q, quit, exit or the end of input): a normal end."""


def _ask(ui: Terminal, prompt: str, parse: Callable[[str], Action | None]) -> Action:
    while True:
        try:
            text = ui.inp(prompt).strip()
        except EOFError:
            ui.say()
            raise Quit from None
        if text.lower() in ("q", "quit", "exit"):
            raise Quit
        action = parse(text)
        if action is not None:
            return action


def _human_turn(ui: Terminal, match: Match, obs: Observation) -> Action:
    legal = obs.legal
    if obs.phase is Phase.AUCTION:
        if obs.hand is not None:
            _show_hand(ui, obs.hand, 0)
        else:
            ui.say("  (blind bidding: your hand is shown after the auction)")
        bids = [a.tricks for a in legal if isinstance(a, Bid)]
        options = ", ".join(str(b) for b in bids[:3]) + (f" … {bids[-1]}" if len(bids) > 3 else "")
        can_pass = PASS in legal
        prompt = f"Your bid ({options}{', or p to pass' if can_pass else ''}): "

        def parse_bid(text: str) -> Action | None:
            if text.lower() in ("p", "pass", "0") and can_pass:
                return PASS
            if text.lower() in ("p", "pass"):
                ui.say("  The dealer may not pass now: everyone else passed. Please bid.")
                return None
            if text.isdigit() and int(text) in bids:
                return Bid(int(text))
            ui.say(f"  Please type a bid from {bids[0]} to 13{' or p' if can_pass else ''}.")
            return None

        return _ask(ui, prompt, parse_bid)
    if obs.phase is Phase.TRUMP:
        assert obs.hand is not None
        _show_hand(ui, obs.hand, 0)

        def parse_trump(text: str) -> Action | None:
            try:
                return ChooseTrump(Suit.parse(text))
            except ValueError:
                ui.say("  Please type a suit: S, H, D or C (or ♠ ♥ ♦ ♣).")
                return None

        return _ask(ui, "You hold the contract. Trump suit (S/H/D/C): ", parse_trump)
    assert obs.hand is not None
    legal_mask = 0
    for a in legal:
        assert isinstance(a, Play)
        legal_mask |= 1 << a.card
    numbered = _show_hand(ui, obs.hand, legal_mask)

    def parse_card_input(text: str) -> Action | None:
        if text.isdigit() and 1 <= int(text) <= len(numbered):
            return Play(numbered[int(text) - 1])
        try:
            card = parse_card(text)
        except ValueError:
            ui.say(f"  Please type a number 1-{len(numbered)} or a card such as AS, 10H, 7♣.")
            return None
        if not (legal_mask >> card) & 1:
            ui.say(f"  Not allowed: {match.deal.explain_illegal(Play(card))}.")
            return None
        return Play(card)

    return _ask(ui, "Your card: ", parse_card_input)


def play_terminal(
    rules: Rules,
    seed: int,
    opponents: str,
    ui: Terminal,
) -> Match:
    """Play one match: seat 0 is the person, seats 1-3 computer players."""
    match = Match(rules, seed)
    bots: list[Player | None] = [None] + [make_player(opponents, seed + s) for s in (1, 2, 3)]
    partnership = rules.partnership
    ui.say(ui.paint(f"İhaleli Batak — {rules.describe()}", "1"))
    ui.say(
        "Type q to quit. Seats in playing order: You → Right → "
        f"{'Partner' if partnership else 'Across'} → Left."
    )
    shown_deal = 0
    while not match.is_over:
        if match.deal_number != shown_deal:
            shown_deal = match.deal_number
            dealer = _seat_name(match.deal.dealer, partnership)
            ui.say(ui.paint(f"\n=== Deal {shown_deal} · dealer: {dealer} ===", "1;33"))
        seat = match.deal.to_act
        obs = match.observation(seat)
        before = len(match.finished)
        was_auction = obs.phase is Phase.AUCTION
        bot = bots[seat]
        if bot is None:
            _show_table(ui, match, obs)
            action = _human_turn(ui, match, obs)
        else:
            action = bot.choose(obs)
        # every action is echoed, the person's own included ("You play 9♥")
        if isinstance(action, Play):
            ui.say(f"{_says(seat, partnership, 'play', 'plays')} {ui.card(action.card)}")
        elif isinstance(action, Bid):
            ui.say(f"{_says(seat, partnership, 'bid', 'bids')} {action.tricks}")
        elif isinstance(action, ChooseTrump):
            trump = f"{action.suit.symbol} {action.suit.english}"
            ui.say(f"{_says(seat, partnership, 'name', 'names')} {trump} as trump")
        else:
            ui.say(_says(seat, partnership, "pass", "passes"))
        try:
            match.apply(action, seat)
        except IllegalAction as exc:  # cannot happen for legal choices; kept for safety
            ui.say(f"  Not allowed: {exc}")
            continue
        deal = match.deal if len(match.finished) == before else match.finished[-1]
        if deal.tricks and not deal.trick and isinstance(action, Play):
            last = deal.tricks[-1]
            ui.say(f"  → {_says(last.winner, partnership, 'take', 'takes')} the trick")
        if was_auction and deal.phase is not Phase.AUCTION and deal.contract is not None:
            c = deal.contract
            how = "everyone passed, so the dealer plays a forced" if c.forced else "contract:"
            ui.say(ui.paint(f"  {_seat_name(c.seat, partnership)} — {how} {c.bid}", "1"))
        if len(match.finished) > before:
            _deal_summary(ui, match)
    top = match.winners
    names = " and ".join(_seat_name(s, partnership) for s in top)
    ui.say(
        ui.paint(
            f"\nMatch over. Winner: {names}. Totals: "
            + ", ".join(f"{_seat_name(s, partnership)} {match.totals[s]}" for s in range(4)),
            "1;32",
        )
    )
    return match


def _deal_summary(ui: Terminal, match: Match) -> None:
    deal = match.finished[-1]
    partnership = match.rules.partnership
    assert deal.contract is not None and deal.scores is not None
    c = deal.contract
    holder_tricks = side_tricks(match.rules, deal.tricks_won, c.seat)
    verdict = "made it" if contract_made(match.rules, c, deal.tricks_won) else "went down (battı)"
    ui.say(
        ui.paint(
            f"Deal over: {_seat_name(c.seat, partnership)} bid {c.bid}, took {holder_tricks} — "
            f"{verdict}.",
            "1",
        )
    )
    for s in range(4):
        ui.say(
            f"  {_seat_name(s, partnership):8} tricks {deal.tricks_won[s]:2}  "
            f"score {deal.scores[s]:+4}  total {match.totals[s]:+5}"
        )


def cmd_play(args: argparse.Namespace) -> int:
    overrides = {} if args.deals is None else {"deals": args.deals}
    rules = preset(args.preset, **overrides)
    try:
        make_player(args.opponents)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    color = not args.no_color and sys.stdout.isatty() and os.environ.get("NO_COLOR") is None
    ui = Terminal(sys.stdout, input, color)
    try:
        play_terminal(rules, seed, args.opponents, ui)
    except Quit:
        ui.say(f"Bye. (seed {seed}: deal the same cards again with --seed {seed})")
        return 0  # stopping is a normal end, not an error of make's or the shell's
    ui.say(f"(seed {seed}: play the same cards again with --seed {seed})")
    return 0


# --- arena -----------------------------------------------------------------------


def cmd_arena(args: argparse.Namespace) -> int:
    from batak.ai.arena import (
        ScoresError,
        ScoresFile,
        check_pairable,
        deal_standing,
        format_paired,
        format_result,
        paired,
        read_scores,
        run_arena,
        scores_text,
    )
    from batak.ai.revision import RevisionError
    from batak.ai.sprt import Sprt, SprtSpec

    if args.deals < 1 or args.jobs < 1 or args.max_deals < 1:
        print("error: --deals, --max-deals and --jobs must be at least 1", file=sys.stderr)
        return 2
    test: Sprt | None = None
    if args.sprt:
        try:
            if args.non_inferiority is not None:
                spec = SprtSpec.non_inferior(
                    args.non_inferiority, args.alpha, args.beta, args.sprt_min_deals
                )
            else:
                spec = SprtSpec(
                    args.sprt_m0, args.sprt_m1, args.alpha, args.beta, args.sprt_min_deals
                )
        except ValueError as exc:
            print(f"error: --sprt: {exc}", file=sys.stderr)
            return 2
        test = Sprt(spec)
        args.deals = args.max_deals
    elif args.non_inferiority is not None:
        print("error: --non-inferiority needs --sprt", file=sys.stderr)
        return 2
    earlier = None
    if args.paired is not None:
        # Read and check before the run, so that a wrong file does not cost a whole arena.
        this_run = ScoresFile(
            args.candidate, args.baseline, args.preset, args.seed, args.play_only, []
        )
        try:
            earlier = read_scores(Path(args.paired).read_text(encoding="utf-8"))
            check_pairable(this_run, earlier)
        except (OSError, UnicodeDecodeError, ScoresError) as exc:
            print(f"error: cannot use {args.paired} for --paired: {exc}", file=sys.stderr)
            return 2
    rules = preset(args.preset)
    started = time.perf_counter()

    def progress(done: int) -> None:
        if sys.stderr.isatty() or done % 10 == 0 or done == args.deals:
            where = ""
            if test is not None and test.n >= 2:
                # where the sequential test stands, so that a run stopped by hand says so
                where = (
                    f"; LLR {test.llr:+.2f} (bounds {test.spec.lower:+.2f} .. "
                    f"{test.spec.upper:+.2f}), mean {test.mean:+.3f} +- {test.ci95:.3f}"
                )
            end = "" if sys.stderr.isatty() else "\n"
            print(f"\r{done}/{args.deals} deals{where}", end=end, file=sys.stderr, flush=True)

    try:
        result = run_arena(
            rules,
            args.candidate,
            args.baseline,
            args.deals,
            args.seed,
            budget=args.budget,
            play_only=args.play_only,
            jobs=args.jobs,
            progress=progress,
            compile_revisions=not args.pure_revisions,
            stop=None if test is None else (lambda r: test.add(deal_standing(r)) is not None),
        )
    except RevisionError as exc:
        print(f"\nerror: {exc}", file=sys.stderr)
        return 2
    print(file=sys.stderr)
    print(format_result(result))
    if test is not None:
        print(test.report())
    if args.scores is not None:
        try:
            Path(args.scores).write_text(scores_text(result), encoding="utf-8")
        except OSError as exc:
            print(f"error: cannot write {args.scores}: {exc}", file=sys.stderr)
            return 2
    if earlier is not None:
        try:
            print(format_paired(paired(result, earlier), args.candidate, earlier.candidate))
        except ScoresError as exc:
            print(f"error: cannot pair with {args.paired}: {exc}", file=sys.stderr)
            return 2
    budget = f", hard budget {args.budget:g} s" if args.budget is not None else ""
    print(
        f"(seed {args.seed}, {args.jobs} job(s){budget}, "
        f"{time.perf_counter() - started:.0f} s wall)"
    )
    return 0


# --- blunder audit -------------------------------------------------------------------


def cmd_audit(args: argparse.Namespace) -> int:
    import json

    from batak.ai import PLAYER_KINDS
    from batak.ai.audit import AuditRow, format_audit, run_audit

    names = _bench_presets(args.presets)
    if names is None:
        return 2
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    for level in levels:
        if level not in PLAYER_KINDS:
            print(f"error: --levels: {level!r} is not a level", file=sys.stderr)
            return 2
    if args.deals < 1 or args.samples < 1 or args.nodes < 1 or not 0 < args.share <= 1:
        print(
            "error: --deals, --samples and --nodes must be at least 1, --share in (0, 1]",
            file=sys.stderr,
        )
        return 2
    started = time.perf_counter()

    def progress(row: AuditRow) -> None:
        if sys.stderr.isatty() or row.deals == args.deals:
            end = "\n" if row.deals == args.deals else ""
            print(
                f"\r{row.level} {row.preset}: {row.deals}/{args.deals} deals",
                end=end,
                file=sys.stderr,
                flush=True,
            )

    rows = run_audit(
        levels,
        names,
        args.deals,
        args.seed,
        samples=args.samples,
        nodes=args.nodes,
        share=args.share,
        progress=progress,
    )
    if args.json:
        print(json.dumps([r.as_dict() for r in rows], indent=1))
    else:
        print(format_audit(rows, args.samples, args.share))
        print(f"(seed {args.seed}, {time.perf_counter() - started:.0f} s wall)")
    return 0


# --- double-dummy solver --------------------------------------------------------------


def cmd_solve(inp: TextIO, out: TextIO, err: TextIO) -> int:
    """Answer every position line; a bad line gets an error line and the rest go on."""
    import json

    from batak.solver import PositionError, Solver, position_from_json

    status = 0
    for number, line in enumerate(inp, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            answer: dict[str, object] = {"error": f"line {number}: not JSON: {exc.msg}"}
        else:
            try:
                pos = position_from_json(data)
            except PositionError as exc:
                answer = {"error": f"line {number}: {exc}"}
            else:
                solver = Solver(pos.rules, pos.trump, pos.holder)
                start = time.perf_counter()
                cpu = time.process_time()
                answer = {"tricks": solver.solve(pos)}
                ms = 1000 * (time.perf_counter() - start)
                cpu_ms = 1000 * (time.process_time() - cpu)
                print(
                    f"line {number}: {ms:.1f} ms ({cpu_ms:.1f} ms CPU), {solver.nodes} nodes, "
                    f"{pos.hands[pos.leader].bit_count()} cards a hand",
                    file=err,
                )
        if "error" in answer:
            status = 1
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return status


def cmd_solve_bench(args: argparse.Namespace) -> int:
    """Solver time per position by cards left, positions taken from bot-played deals."""
    import statistics

    from batak.solver import Solver, deal_position, native_search

    names = _bench_presets(args.presets)
    if names is None:
        return 2
    if args.deals < 1:
        print("error: --deals must be at least 1", file=sys.stderr)
        return 2
    times: dict[int, list[float]] = {}
    nodes: dict[int, list[int]] = {}
    native = native_search() and not args.python
    search = "in C (batak/_solver_core.c)" if native else "in Python"
    print(
        f"double-dummy solver, searching {search}: {args.deals} deal(s) each of "
        f"{', '.join(names)}; every trick "
        "start of the deals as played by 'easy' bots; a fresh solver per position; "
        "times are this process's CPU time (one core), so a busy machine does not inflate them "
        f"(load average {', '.join(f'{x:.1f}' for x in os.getloadavg())})"
    )
    for p, name in enumerate(names):
        rules = preset(name)
        for record in selfplay_records(rules, args.deals, args.seed * 1000 + p, ["easy"] * 4):
            deal = _replay_record(record)
            contract = deal.contract
            assert contract is not None and contract.trump is not None
            replay = Deal(rules, list(deal.initial_hands), deal.dealer)
            for action in _actions_of(deal):
                if replay.phase is Phase.PLAY and not replay.trick:
                    h = replay.hands
                    pos = deal_position(replay)
                    solver = Solver(rules, contract.trump, contract.seat, native=native)
                    start = time.process_time()
                    wall = time.perf_counter()
                    solver.solve(pos)
                    left = h[0].bit_count()
                    times.setdefault(left, []).append(1000 * (time.process_time() - start))
                    nodes.setdefault(left, []).append(solver.nodes)
                    if left == 13:
                        print(
                            f"  {name} full deal: {times[13][-1]:.0f} ms CPU, "
                            f"{1000 * (time.perf_counter() - wall):.0f} ms wall, "
                            f"{solver.nodes} nodes",
                            file=sys.stderr,
                        )
                replay.apply(action)
    print(
        f"{'cards':>5} {'positions':>9} {'p50 ms':>9} {'p95 ms':>9} {'max ms':>9} {'p50 nodes':>10}"
    )
    for left in sorted(times, reverse=True):
        ts = times[left]
        print(
            f"{left:>5} {len(ts):>9} {statistics.median(ts):>9.1f} {_pct(ts, 0.95):>9.1f} "
            f"{max(ts):>9.1f} {statistics.median(nodes[left]):>10.0f}"
        )
    return 0


def _bench_presets(text: str) -> list[str] | None:
    names = [n.strip() for n in text.split(",") if n.strip()]
    for name in names:
        if name not in PRESET_NAMES:
            print(f"error: --presets: {name!r} is not a preset", file=sys.stderr)
            return None
    return names


def cmd_review_bench(args: argparse.Namespace) -> int:
    """Post-deal reviews of bot-played deals: CPU time per review (the double-dummy
    part and the judged decisions apart) and how often the par came out exact."""
    import statistics

    from batak.review import PAR_NODES, STEP_NODES, costliest, double_dummy_path, judge_seat

    names = _bench_presets(args.presets)
    if names is None:
        return 2
    if args.deals < 1:
        print("error: --deals must be at least 1", file=sys.stderr)
        return 2
    seats: list[int] = []
    if args.seats.strip() != "none":
        for part in args.seats.split(","):
            if part.strip() not in ("0", "1", "2", "3"):
                print(f"error: --seats: {part.strip()!r} is not a seat 0..3", file=sys.stderr)
                return 2
            seats.append(int(part))
    par_nodes = PAR_NODES if args.par_nodes is None else args.par_nodes
    step_nodes = STEP_NODES if args.step_nodes is None else args.step_nodes
    if par_nodes < 1 or step_nodes < 1:
        print("error: --par-nodes and --step-nodes must be at least 1", file=sys.stderr)
        return 2
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"post-deal review: {args.deals} deal(s) each of {', '.join(names)} played by 'easy' "
        f"bots; par budget {par_nodes} nodes, {step_nodes} per later position; decisions "
        f"judged for seat(s) {','.join(map(str, seats)) or 'none'}; CPU time of this "
        f"process (load average {load})"
    )
    dd_times: list[float] = []
    judge_times: list[float] = []
    exact = 0
    solved = 0
    positions = 0
    about_cards: list[int] = []
    for p, name in enumerate(names):
        rules = preset(name)
        for record in selfplay_records(rules, args.deals, args.seed * 1000 + p, ["easy"] * 4):
            deal = _replay_record(record)
            start = time.process_time()
            path = double_dummy_path(deal, par_nodes=par_nodes, step_nodes=step_nodes)
            dd_times.append(time.process_time() - start)
            start = time.process_time()
            for seat in seats:
                costliest(judge_seat(deal, seat))
            judge_times.append(time.process_time() - start)
            solved += sum(1 for v in path if v is not None)
            positions += len(path)
            if path[0] is not None:
                exact += 1
                shown = f"par {path[0]}"
            else:
                first = next(k for k, v in enumerate(path) if v is not None)
                about_cards.append(first)
                shown = f"about {path[first]} (after {first} cards)"
            print(
                f"  {name}: {shown}, {dd_times[-1]:.2f} s double-dummy, "
                f"{judge_times[-1]:.2f} s decisions",
                file=sys.stderr,
            )
    deals = len(dd_times)
    totals = [a + b for a, b in zip(dd_times, judge_times, strict=True)]
    print(f"{'part':<13} {'p50 s':>7} {'p95 s':>7} {'max s':>7}")
    for label, values in (
        ("double-dummy", dd_times),
        ("decisions", judge_times),
        ("whole review", totals),
    ):
        print(
            f"{label:<13} {statistics.median(values):>7.2f} {_pct(values, 0.95):>7.2f} "
            f"{max(values):>7.2f}"
        )
    print(
        f"par exact in {exact} of {deals} deals ({100 * exact / deals:.0f}%), 'about N' in "
        f"{deals - exact}"
        + (
            f" (counted after {statistics.median(about_cards):.0f} cards, median)"
            if about_cards
            else ""
        )
        + f"; positions solved {solved} of {positions} ({100 * solved / positions:.0f}%)"
    )
    return 0


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def _replay_record(record: dict[str, object]) -> Deal:
    from batak.records import deal_from_record

    return deal_from_record(record)


def _actions_of(deal: Deal) -> list[Action]:
    """The deal's actions in order: calls, the trump choice when there was one, cards."""
    actions: list[Action] = [PASS if bid is None else Bid(bid) for _, bid in deal.calls]
    contract = deal.contract
    assert contract is not None and contract.trump is not None
    if deal.rules.fixed_trump is None:
        actions.append(ChooseTrump(contract.trump))
    actions.extend(Play(c) for t in deal.tricks for c in t.cards)
    return actions
