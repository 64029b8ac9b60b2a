"""Engine state -> what a message shows: text (translated) and pictures (``images``).

Two kinds of output, kept apart on purpose:

- **public**: the table message, deal summaries, results. Built only from what
  every seat may see (calls, contract, trump, cards already played, tricks,
  scores). Never a card still in a hand.
- **private**: one seat's hand, for its owner's ephemeral message.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from batak import SUITS, Action, Bid, ChooseTrump, Pass, Play, card_label, cards_of
from batak.ai.hints import Hint
from batak.cards import SUIT_MASKS, Suit
from batak.deal import Observation, Phase
from data import MatchSummary, Seat, Standing
from images import build as img_build
from images.auction import render_auction
from images.hand import render_hand
from images.leaderboard import render_leaderboard
from images.results import render_deal_summary, render_match_result
from images.table import render_table
from images.views import LeaderboardRow, LeaderboardView, Player

from . import workers
from .i18n import t
from .service import Table

log = logging.getLogger(__name__)

SUIT_KEYS = {Suit.S: "suit.S", Suit.H: "suit.H", Suit.D: "suit.D", Suit.C: "suit.C"}


# ----------------------------------------------------------------------------- names
def seat_name(seat: Seat, index: int, lang: str) -> str:
    """A seat's display name (never a mention: public text must not ping)."""
    if seat.is_empty:
        return t("seat.empty", lang)
    if seat.is_bot:
        return t("seat.bot", lang, n=index + 1)
    name = seat.name or t("seat.player", lang, n=index + 1)
    if seat.is_away:
        return t("seat.away", lang, name=name)
    return name


def seat_names(table: Table, lang: str) -> list[str]:
    return [seat_name(s, i, lang) for i, s in enumerate(table.seats)]


def players(table: Table, lang: str) -> list[Player]:
    return [
        Player(name, is_bot=s.is_bot)
        for name, s in zip(seat_names(table, lang), table.seats, strict=True)
    ]


def table_language(table: Table) -> str:
    return str(table.settings.get("language", "en"))


# ----------------------------------------------------------------------------- actions
def action_text(action: Action, lang: str) -> str:
    """A person's words for an action: "bid 7", "pass", "trump ♥ Hearts", "A♠"."""
    if isinstance(action, Bid):
        return t("action.bid", lang, n=action.tricks)
    if isinstance(action, Pass):
        return t("action.pass", lang)
    if isinstance(action, ChooseTrump):
        return t("action.trump", lang, suit=suit_text(action.suit, lang))
    assert isinstance(action, Play)
    return card_label(action.card)


def suit_text(suit: Suit, lang: str) -> str:
    return f"{suit.symbol} {t(SUIT_KEYS[suit], lang)}"


def button_code(action: Action) -> str:
    """The short action code a button carries: p, b7, tH, cTH."""
    if isinstance(action, Bid):
        return f"b{action.tricks}"
    if isinstance(action, Pass):
        return "p"
    if isinstance(action, ChooseTrump):
        return f"t{action.suit.letter}"
    assert isinstance(action, Play)
    from batak import card_code

    return f"c{card_code(action.card)}"


def parse_button_code(code: str) -> Action | None:
    """The inverse of :func:`button_code`; None for anything else (a forged id)."""
    from batak import BIDS, PASS, PLAYS, TRUMPS, parse_card

    try:
        if code == "p":
            return PASS
        if code[:1] == "b" and code[1:].isdigit() and int(code[1:]) in BIDS:
            return BIDS[int(code[1:])]
        if code[:1] == "t" and len(code) == 2 and code[1] in "SHDC":
            return TRUMPS["SHDC".index(code[1])]
        if code[:1] == "c" and len(code) == 3:
            return PLAYS[parse_card(code[1:])]
    except ValueError:
        return None
    return None


# ----------------------------------------------------------------------------- public text
def _phase_line(table: Table, obs: Observation, names: Sequence[str], lang: str) -> str:
    match = table.match
    assert match is not None
    if match.is_over:
        return t("summary.over", lang)
    who = names[obs.to_act] if obs.to_act is not None else "?"
    key = {
        Phase.AUCTION: "summary.to_bid",
        Phase.TRUMP: "summary.to_trump",
        Phase.PLAY: "summary.to_play",
    }.get(obs.phase, "summary.over")
    return t(key, lang, name=who)


def public_summary(table: Table, lang: str, note: str | None = None) -> str:
    """The screen-reader text of the table message: public facts only."""
    names = seat_names(table, lang)
    rules = table.rules
    head = t(
        "summary.head",
        lang,
        table=table.id,
        preset=t(f"preset.{rules.preset}", lang),
        deals=rules.deals,
    )
    if table.match is None:
        lines = [head, t("lobby.title", lang)]
        for i, (name, seat) in enumerate(zip(names, table.seats, strict=True)):
            if seat.is_bot:
                level = t(f"level.{seat.bot_level}", lang)
                lines.append(t("lobby.seat_bot", lang, n=i + 1, name=name, level=level))
            else:
                lines.append(t("lobby.seat", lang, n=i + 1, name=name))
        lines.append(t("lobby.pace", lang, pace=t(f"pace.{table.pace}", lang)))
        lines.append(t("lobby.help", lang))
        return "\n".join(lines)
    match = table.match
    obs = match.observation(0)  # any seat: only the public fields are read below
    lines = [
        head,
        t(
            "summary.deal",
            lang,
            n=min(match.deal_number, max(rules.deals, match.deal_number)),
            of=max(rules.deals, match.deal_number),
            dealer=names[obs.dealer],
        ),
    ]
    if obs.calls and obs.phase is Phase.AUCTION:
        calls = ", ".join(
            f"{names[s]}: {t('action.pass', lang) if b is None else b}" for s, b in obs.calls
        )
        lines.append(t("summary.calls", lang, calls=calls))
    if obs.contract is not None:
        c = obs.contract
        trump = suit_text(c.trump, lang) if c.trump is not None else t("summary.no_trump_yet", lang)
        key = "summary.contract_forced" if c.forced else "summary.contract"
        lines.append(t(key, lang, name=names[c.seat], bid=c.bid, trump=trump))
    if obs.phase is Phase.PLAY:
        if obs.trick:
            leader = obs.trick_leader if obs.trick_leader is not None else 0
            played = ", ".join(
                f"{names[(leader + i) % 4]} {card_label(card)}" for i, card in enumerate(obs.trick)
            )
            lines.append(t("summary.trick", lang, cards=played))
        elif obs.tricks:
            last = obs.tricks[-1]
            played = ", ".join(
                f"{names[last.seat_of(i)]} {card_label(card)}" for i, card in enumerate(last.cards)
            )
            lines.append(t("summary.last_trick", lang, cards=played, winner=names[last.winner]))
        won = ", ".join(f"{names[s]} {obs.tricks_won[s]}" for s in range(4))
        lines.append(t("summary.tricks", lang, tricks=won))
    totals = ", ".join(f"{names[s]} {match.totals[s]}" for s in range(4))
    lines.append(t("summary.totals", lang, totals=totals))
    lines.append(_phase_line(table, obs, names, lang))
    if note:
        lines.append(note)
    return "\n".join(lines)


def deal_summary_text(table: Table, index: int, lang: str) -> str:
    match = table.match
    assert match is not None
    deal = match.finished[index]
    names = seat_names(table, lang)
    assert deal.scores is not None and deal.contract is not None
    c = deal.contract
    holder_tricks = deal.tricks_won[c.seat]
    if table.rules.partnership:
        holder_tricks += deal.tricks_won[(c.seat + 2) % 4]
    made = holder_tricks >= c.bid
    lines = [
        t("deal.title", lang, n=index + 1),
        t(
            "deal.made" if made else "deal.down",
            lang,
            name=names[c.seat],
            bid=c.bid,
            tricks=holder_tricks,
        ),
        ", ".join(f"{names[s]} {deal.scores[s]:+d}" for s in range(4)),
    ]
    return "\n".join(lines)


def match_result_text(table: Table, summary: MatchSummary | None, lang: str) -> str:
    match = table.match
    assert match is not None
    names = seat_names(table, lang)
    winners = " & ".join(names[s] for s in match.winners)
    lines = [t("result.title", lang, table=table.id), t("result.winner", lang, names=winners)]
    order = sorted(range(4), key=lambda s: -match.totals[s])
    places = match.placements()
    for s in order:
        line = t("result.line", lang, place=places[s], name=names[s], total=match.totals[s])
        if summary is not None:
            p = summary.players[s]
            if p.user_id is not None:
                line += " " + t("result.rating", lang, change=f"{p.rating_change:+.1f}")
        lines.append(line)
    return "\n".join(lines)


# ----------------------------------------------------------------------------- private text
def hand_text(table: Table, seat: int, lang: str, notice: str | None = None) -> str:
    """The hand message: the seat's cards, what is on the table, what to do."""
    match = table.match
    assert match is not None
    obs = match.observation(seat)
    names = seat_names(table, lang)
    lines: list[str] = []
    if notice:
        lines.append(notice)
    lines.append(t("hand.title", lang, table=table.id, seat=seat + 1, name=names[seat]))
    if obs.hand is None:
        lines.append(t("hand.blind", lang))
    else:
        parts = []
        for suit in SUITS:
            cards = [card_label(c) for c in reversed(cards_of(obs.hand & SUIT_MASKS[suit]))]
            parts.append(" ".join(cards) if cards else f"{suit.symbol} –")
        lines.append(" · ".join(parts))
    if table.is_daily:
        lines.append(public_summary(table, lang))
    else:
        if obs.contract is not None:
            c = obs.contract
            trump = (
                suit_text(c.trump, lang) if c.trump is not None else t("summary.no_trump_yet", lang)
            )
            lines.append(t("summary.contract", lang, name=names[c.seat], bid=c.bid, trump=trump))
        if obs.phase is Phase.PLAY and obs.trick:
            leader = obs.trick_leader if obs.trick_leader is not None else 0
            played = ", ".join(
                f"{names[(leader + i) % 4]} {card_label(card)}" for i, card in enumerate(obs.trick)
            )
            lines.append(t("summary.trick", lang, cards=played))
        elif obs.phase is Phase.PLAY and obs.tricks:
            last = obs.tricks[-1]
            played = ", ".join(
                f"{names[last.seat_of(i)]} {card_label(card)}" for i, card in enumerate(last.cards)
            )
            lines.append(t("summary.last_trick", lang, cards=played, winner=names[last.winner]))
        elif obs.phase is Phase.AUCTION and obs.calls:
            calls = ", ".join(
                f"{names[s]}: {t('action.pass', lang) if b is None else b}" for s, b in obs.calls
            )
            lines.append(t("summary.calls", lang, calls=calls))
    if match.is_over:
        lines.append(t("hand.over", lang))
    elif obs.to_act == seat:
        key = {
            Phase.AUCTION: "hand.your_bid",
            Phase.TRUMP: "hand.your_trump",
            Phase.PLAY: "hand.your_card",
        }[obs.phase]
        lines.append(t(key, lang))
    elif obs.to_act is not None:
        lines.append(t("hand.waiting", lang, name=names[obs.to_act]))
    return "\n".join(lines)


# ----------------------------------------------------------------------------- pictures
@dataclass(frozen=True, slots=True)
class Picture:
    filename: str
    data: bytes
    description: str


@dataclass(frozen=True, slots=True)
class Drawing:
    """A picture to draw: an immutable view model (built on the event loop, from one
    consistent state of the table) and the renderer that turns it into PNG bytes (run
    in a worker thread by :func:`draw`)."""

    filename: str
    description: str
    view: Any
    renderer: Callable[[Any], bytes]


async def draw(drawing: Drawing | None) -> Picture | None:
    """Render in the drawing worker process (see :mod:`cogs.workers`); a failed drawing
    is logged and the message goes without."""
    if drawing is None:
        return None
    try:
        data = await workers.DRAWING.run(drawing.renderer, drawing.view)
    except Exception:
        log.exception("drawing %s failed", drawing.filename)
        return None
    return Picture(drawing.filename, data, drawing.description)


def _prepare(
    filename: str, description: str, build: Callable[[], Any], renderer: Callable[[Any], bytes]
) -> Drawing | None:
    try:
        return Drawing(filename, description, build(), renderer)
    except Exception:
        log.exception("preparing %s failed", filename)
        return None


def table_picture(table: Table, lang: str) -> Drawing | None:
    """The public table (or auction) picture; None in the lobby."""
    match = table.match
    if match is None:
        return None
    names = players(table, lang)
    name = f"batak-table-{table.id}.png"
    if match.deal.phase is Phase.AUCTION and not match.is_over:
        return _prepare(
            name,
            t("alt.table", lang),
            lambda: img_build.auction_view_from_match(match, names, 0),
            partial(render_auction, lang=lang),
        )
    return _prepare(
        name,
        t("alt.table", lang),
        lambda: img_build.table_view_from_match(match, names, 0, spectator=True),
        partial(render_table, lang=lang),
    )


def _hand_view(obs: Observation, lang: str) -> Any:
    view = img_build.hand_view_from_observation(obs, t("hand.picture_title", lang))
    if obs.hand is None:  # blind bidding
        view = replace(view, subtitle=t("hand.picture_hidden", lang))
    return view


def hand_picture(table: Table, seat: int, lang: str) -> Drawing | None:
    match = table.match
    if match is None:
        return None
    obs = match.observation(seat)
    return _prepare(
        "hand.png",
        t("alt.hand", lang),
        lambda: _hand_view(obs, lang),
        partial(render_hand, lang=lang),
    )


def daily_table_picture(table: Table, lang: str) -> Drawing | None:
    """The daily match's table drawn from the player's seat (only their own view)."""
    match = table.match
    if match is None:
        return None
    names = players(table, lang)
    return _prepare(
        "daily-table.png",
        t("alt.table", lang),
        lambda: img_build.table_view_from_match(match, names, 0),
        partial(render_table, lang=lang),
    )


def deal_picture(table: Table, index: int, lang: str) -> Drawing | None:
    match = table.match
    if match is None:
        return None
    names = players(table, lang)
    return _prepare(
        f"batak-deal-{table.id}-{index + 1}.png",
        t("alt.deal", lang),
        lambda: img_build.deal_summary_view(match, names, index),
        partial(render_deal_summary, lang=lang),
    )


def result_picture(table: Table, lang: str) -> Drawing | None:
    match = table.match
    if match is None:
        return None
    names = players(table, lang)
    return _prepare(
        f"batak-result-{table.id}.png",
        t("alt.result", lang),
        lambda: img_build.match_result_view(match, names),
        partial(render_match_result, lang=lang),
    )


def leaderboard_picture(
    rows: Sequence[tuple[Standing, str]], title: str, subtitle: str, lang: str
) -> Drawing | None:
    return _prepare(
        "leaderboard.png",
        t("alt.leaderboard", lang),
        lambda: LeaderboardView(
            rows=tuple(
                LeaderboardRow(
                    rank=s.rank or i + 1,
                    name=name,
                    rating=s.rating,
                    wins=s.wins,
                    matches=s.matches,
                )
                for i, (s, name) in enumerate(rows[:10])
            ),
            title=title,
            subtitle=subtitle,
        ),
        partial(render_leaderboard, lang=lang),
    )


# ----------------------------------------------------------------------------- hints
def _pct(x: float | None, lang: str) -> str:
    return t("hint.percent", lang, n=round(100 * (x or 0.0)))


def hint_text(action: Action, h: Hint, lang: str) -> str:
    """A hint in the reader's language from the AI's structured reason."""
    kind = h.kind
    tricks = f"{h.tricks:.1f}" if h.tricks is not None else "?"
    chance = _pct(h.chance, lang)
    trump = suit_text(h.trump, lang) if h.trump is not None else "?"
    honours = " ".join(card_label(c) for c in h.honours)
    extra = (
        t("hint.extra_honours", lang, honours=honours, count=h.trump_count)
        if honours
        else t("hint.extra_count", lang, count=h.trump_count)
    )
    card = card_label(h.card) if h.card is not None else action_text(action, lang)
    params = {
        "bid": h.bid,
        "tricks": tricks,
        "chance": chance,
        "trump": trump,
        "extra": extra,
        "card": card,
        "worlds": h.worlds,
    }
    if kind in ("bid", "bid-forced", "pass", "pass-forced") and h.trump is not None:
        params["base"] = t("hint.base", lang, **params)
        key = f"hint.{kind}"
        if kind == "pass" and h.bid is None:
            key = "hint.pass-plain"
        return t(key, lang, **params)
    if kind in ("pass", "pass-forced"):
        return t("hint.pass-none", lang)
    if kind == "pass-blind" and h.bid is None:
        return t("hint.pass-blind-none", lang, **params)
    if kind in ("bid-blind", "pass-blind", "trump", "only"):
        return t(f"hint.{kind}", lang, **params)
    if kind in ("draw-trumps", "cash", "lead", "win", "duck", "discard"):
        goal = "hint.outlook-make" if h.holder_side else "hint.outlook-beat"
        params["outlook"] = t(goal, lang, **params)
        return t(f"hint.{kind}", lang, **params)
    return t("hint.suggest", lang, action=action_text(action, lang))
