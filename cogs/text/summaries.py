"""The texts of the messages, built from the engine's state.

- **public**: the table message, deal summaries, results. Built only from what
  every seat may see (calls, contract, trump, cards already played, tricks,
  scores). Never a card still in a hand.
- **private**: one seat's hand, for its owner's ephemeral message.
"""

from __future__ import annotations

from collections.abc import Sequence

from batak import PASS, card_label, cards_of, scoring
from batak.cards import HAND_SUIT_ORDER, SUIT_MASKS
from batak.deal import Observation, Phase
from batak.rules import MIN_RATED_DEALS
from data import PROVISIONAL_MATCHES, MatchPlayer, MatchSummary, display_rating
from tables import RecordingFailed, SeatChanged, SeatTimedOut, Table

from ..i18n import t
from .house import house_line, told_as_try_out
from .spectators import dealt_hands_text
from .words import (
    action_text,
    deadline_text,
    name_at,
    seat_name,
    seat_names,
    suit_text,
    table_language,
)

HAND_SUITS = HAND_SUIT_ORDER
"""The order of suits in a hand, the same in its text line, its buttons and its picture."""


def _trick_line(table: Table, obs: Observation, lang: str) -> str | None:
    """The cards on the table (or the last trick), named by who played them then."""
    match = table.match
    assert match is not None
    if obs.trick:
        leader = obs.trick_leader if obs.trick_leader is not None else 0
        first = match.move_number - len(obs.trick)
        played = ", ".join(
            f"{name_at(table, (leader + i) % 4, first + i, lang)} {card_label(card)}"
            for i, card in enumerate(obs.trick)
        )
        return t("summary.trick", lang, cards=played)
    if obs.tricks:
        last = obs.tricks[-1]
        first = match.move_number - len(last.cards)
        played = ", ".join(
            f"{name_at(table, last.seat_of(i), first + i, lang)} {card_label(card)}"
            for i, card in enumerate(last.cards)
        )
        winner = name_at(table, last.winner, match.move_number - 1, lang)
        return t("summary.last_trick", lang, cards=played, winner=winner)
    return None


# ----------------------------------------------------------------------------- public text
def rated_key(table: Table) -> str:
    """The lobby's line on whether the table is rated (and if not, why: a try-out, too
    short to be rated; and whether it gives hints)."""
    if table.settings.rated:
        return "lobby.rated"
    hints = "_hints" if table.settings.hints else ""
    return f"lobby.tryout{hints}" if told_as_try_out(table.rules) else f"lobby.casual{hints}"


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
    line = t(key, lang, name=who)
    deadline = table.deadline_now()
    if deadline is not None:
        line += " " + deadline_text(deadline, lang)
    return line


def public_summary(table: Table, lang: str, note: str | None = None, *, turn: bool = True) -> str:
    """The screen-reader text of the table message: public facts only. ``turn=False``
    leaves out whose turn it is (the daily hand says it in its own words)."""
    names = seat_names(table, lang)
    rules = table.rules
    head = t(
        "summary.head",
        lang,
        table=table.id,
        preset=t(f"preset.{rules.preset}", lang),
        deals=rules.deals,
    )
    lines = [head, *_house_lines(table, lang)]
    if table.match is None:
        lines.append(t("lobby.title", lang))
        for i, (name, seat) in enumerate(zip(names, table.seats, strict=True)):
            if seat.is_bot:
                level = t(f"level.{seat.bot_level}", lang)
                lines.append(t("lobby.seat_bot", lang, n=i + 1, name=name, level=level))
            else:
                lines.append(t("lobby.seat", lang, n=i + 1, name=name))
        lines.append(t("lobby.pace", lang, pace=t(f"pace.{table.pace}", lang)))
        lines.append(t(rated_key(table), lang, min=MIN_RATED_DEALS))
        lines.append(t("lobby.help", lang))
        return "\n".join(lines)
    match = table.match
    obs = match.observation(0)  # any seat: only the public fields are read below
    lines += [
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
        trick = _trick_line(table, obs, lang)
        if trick is not None:
            lines.append(trick)
        won = ", ".join(f"{names[s]} {obs.tricks_won[s]}" for s in range(4))
        lines.append(t("summary.tricks", lang, tricks=won))
    totals = ", ".join(f"{names[s]} {match.totals[s]}" for s in range(4))
    lines.append(t("summary.totals", lang, totals=totals))
    if turn:
        lines.append(_phase_line(table, obs, names, lang))
    if note:
        lines.append(note)
    return "\n".join(lines)


def _house_lines(table: Table, lang: str) -> list[str]:
    """The table's house rules, and whether watching is off (public facts)."""
    lines = []
    house = house_line(table.rules, lang)
    if house is not None:
        lines.append(house)
    if not table.settings.watching:
        lines.append(t("watch.off_line", lang))
    return lines


def deal_summary_text(table: Table, index: int, lang: str) -> str:
    match = table.match
    assert match is not None
    deal = match.finished[index]
    names = seat_names(table, lang)
    assert deal.scores is not None and deal.contract is not None
    c = deal.contract
    holder_tricks = scoring.side_tricks(deal.rules, deal.tricks_won, c.seat)
    made = scoring.contract_made(deal.rules, c, deal.tricks_won)
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
        dealt_hands_text(table, index, lang),  # the deal is over: its hands are public
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
        if summary is not None and summary.rated:
            rating = rating_line(summary.players[s], lang)
            if rating is not None:
                line += " " + rating
        lines.append(line)
    if summary is not None and summary.computers_finished:
        lines.append(t("result.by_computers", lang))
    elif summary is not None and not summary.rated:
        key = "result.tryout" if told_as_try_out(table.rules) else "result.casual"
        lines.append(t(key, lang, min=MIN_RATED_DEALS))
    return "\n".join(lines)


def rating_line(p: MatchPlayer, lang: str) -> str | None:
    """What a rated result says of a person's rating: the new rating and its change
    once they are settled; while they are still settling in (their first
    :data:`~data.models.PROVISIONAL_MATCHES` rated matches) how far along they are,
    never a number that means little yet. Nothing for a computer player, or when the
    count was not read."""
    if p.user_id is None or p.rated_matches is None:
        return None
    if p.rated_matches < PROVISIONAL_MATCHES:
        return t("result.settling", lang, n=p.rated_matches, of=PROVISIONAL_MATCHES)
    after = display_rating(p.rating_after)
    change = after - display_rating(p.rating_before)
    return t("result.rating", lang, rating=str(after), change=f"{change:+d}")


def result_link_text(table: Table, lang: str) -> str:
    """One line in the channel of a table played in a thread: who won, where to look."""
    match = table.match
    assert match is not None
    names = seat_names(table, lang)
    winners = " & ".join(names[s] for s in match.winners)
    where = f"<#{table.game.thread_id or table.game.channel_id}>"
    return t("result.link", lang, table=table.id, names=winners, where=where)


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
        for suit in HAND_SUITS:
            cards = [card_label(c) for c in reversed(cards_of(obs.hand & SUIT_MASKS[suit]))]
            parts.append(" ".join(cards) if cards else f"{suit.symbol} –")
        lines.append(" · ".join(parts))
    if table.is_daily:
        # the table's facts without its turn line: the lines below say whose turn it is
        lines.append(public_summary(table, lang, turn=False))
    else:
        if obs.contract is not None:
            c = obs.contract
            trump = (
                suit_text(c.trump, lang) if c.trump is not None else t("summary.no_trump_yet", lang)
            )
            lines.append(t("summary.contract", lang, name=names[c.seat], bid=c.bid, trump=trump))
        trick = _trick_line(table, obs, lang) if obs.phase is Phase.PLAY else None
        if trick is not None:
            lines.append(trick)
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
        deadline = table.deadline_now()
        if deadline is not None:
            lines.append(deadline_text(deadline, lang))
    elif obs.to_act is not None:
        lines.append(t("hand.waiting", lang, name=names[obs.to_act]))
    return "\n".join(lines)


def turn_notice_text(table: Table, mention: int | None = None) -> str:
    """The turn notice: who is to act and until when (``mention``: ping them)."""
    lang = table_language(table)
    match = table.match
    if not table.playing or match is None or match.is_over or table.to_act is None:
        if table.status == "cancelled":
            return t("table.cancelled", lang, table=table.id)
        return t("result.title", lang, table=table.id)
    seat = table.to_act
    what = {Phase.AUCTION: "bid", Phase.TRUMP: "trump", Phase.PLAY: "play"}.get(
        match.deal.phase, "play"
    )
    if mention is not None:
        content = t(f"turn.{what}", lang, mention=f"<@{mention}>", table=table.id)
    else:
        name = seat_names(table, lang)[seat]
        content = f"#{table.id} · " + t(f"summary.to_{what}", lang, name=name)
    deadline = table.deadline_now()
    if deadline is not None:
        content += "\n" + deadline_text(deadline, lang)
    if mention is not None and table.pace == "async":
        content += "\n" + t("turn.async_hint", lang)
    return content


def event_note(event: RecordingFailed | SeatChanged | SeatTimedOut) -> str:
    """The line an event leaves on the table message (and, for a seat change or a seat
    handed to a computer, posts at the table), from the event's snapshot, in the
    table's language."""
    lang = event.at.language
    match event:
        case RecordingFailed(attempt=attempt, retry_in=retry_in):
            return t("note.recording_retry", lang, attempt=attempt, seconds=f"{retry_in:.0f}")
        case SeatChanged(seat=seat, change=change, name=name):
            name = name or t("seat.player", lang, n=seat + 1)
            return t(f"seat.{change}", lang, name=name, seat=seat + 1)
        case SeatTimedOut(seat=seat, action=action, handed_over=handed_over):
            if handed_over:
                key = "note.handed_over"
            elif action == PASS:
                key = "note.timeout_pass"
            else:
                key = "note.timeout"
            name = seat_name(event.at.seats[seat], seat, lang)
            return t(key, lang, name=name, action=action_text(action, lang))
