"""Only buttons that can do something: the button sets of the hand, the table message and
the host's panel, in every state of a deal and every language.

A button that would only be refused in the state shown is not drawn (Hint where the table
gives no hints, Add bot at a full table, Watch where watching is off); a greyed one says
why on itself. Cards are the hand: a greyed card is not a refused button but a card that
cannot be played now."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import discord

from batak import Match, preset
from batak.players import make_player
from cogs.components import LABEL_LIMIT, button_label, hand_view, hints_offered, table_view
from cogs.components.panel import panel_view
from cogs.i18n import catalogues, t
from data import Seat
from tables import Table
from tests.bot.test_bot_render import fake_table

LANGS = sorted(catalogues())
EXPLAINING = (
    "button.waiting",
    "button.table_full",
    "button.rematch_open",
    "button.preset_rules_already",
)
"""The labels of greyed buttons: each says why the button cannot be pressed."""
FOUR = (Seat.human(1, "Alice"), Seat.bot("easy"), Seat.human(3, "Ayşe"), Seat.bot("hard"))
CARD = re.compile(r"^bt:\d+:\d:\d+:c[2-9TJQKA][SHDC]$")


def table_of(
    match: Match | None,
    status: str = "playing",
    *,
    seats: tuple[Seat, ...] | None = None,
    **settings: Any,
) -> Table:
    return fake_table(match, status, seats=seats or FOUR, table_id=9, **settings)


def buttons(view: discord.ui.View | None) -> list[Any]:
    """The buttons (and menus) of a view, as drawn (inside our dynamic items)."""
    return [getattr(item, "item", item) for item in (view.children if view else [])]


def codes(view: discord.ui.View | None) -> list[str]:
    return [str(b.custom_id).split(":")[-1] for b in buttons(view)]


def explains(label: str, lang: str) -> bool:
    """The label is one of the greyed buttons' own texts (any name or number in it)."""
    for key in EXPLAINING:
        parts = re.split(r"\{[a-z_]+\}", catalogues()[lang][key])
        if re.fullmatch(".+?".join(re.escape(p) for p in parts), label):
            return True
    return False


def check_greyed(view: discord.ui.View | None, lang: str) -> None:
    """Every label fits Discord; every greyed button other than a card explains itself."""
    for b in buttons(view):
        label = getattr(b, "label", None) or ""
        assert len(label) <= LABEL_LIMIT, label
        if getattr(b, "disabled", False) and not CARD.match(str(b.custom_id)):
            assert explains(label, lang), (lang, label)


def hands_of_a_deal(**settings: Any) -> Iterator[tuple[Table, int, int | None]]:
    """Every seat's hand at every move of a deal: (table, seat, seat to act), each to
    be looked at before the next (the match moves on)."""
    match = Match(preset("standard", deals=1), seed=11)
    players = [make_player("easy", s) for s in range(4)]
    while not match.is_over:
        table = table_of(match, **settings)
        to_act = match.to_act
        for seat in range(4):
            yield table, seat, to_act
        assert to_act is not None
        match.apply(players[to_act].choose(match.observation(to_act)), to_act)


def test_no_hint_button_at_rated_tables() -> None:
    rated = table_of(None)  # a table is rated unless it says otherwise
    assert rated.settings.rated and not hints_offered(rated)
    for table, seat, to_act in hands_of_a_deal():
        view = hand_view(table, seat, "en")
        assert "hint" not in codes(view), (seat, table.match and table.match.move_number)
        # the person to act has Refresh; the others a greyed "Waiting for ..." and Refresh
        assert codes(view)[-1] == "ref"
        if seat != to_act:
            assert codes(view)[-2:] == ["wait", "ref"]
        check_greyed(view, "en")


def test_no_hint_button_at_casual_tables_without_hints() -> None:
    for table, seat, _ in itertools.islice(hands_of_a_deal(rated=False), 40):
        assert "hint" not in codes(hand_view(table, seat, "en"))


def test_hint_at_casual_tables_with_hints_on_the_turn_only() -> None:
    assert hints_offered(table_of(None, rated=False, hints=True))
    for table, seat, to_act in hands_of_a_deal(rated=False, hints=True):
        view = hand_view(table, seat, "en")
        hint = [b for b in buttons(view) if str(b.custom_id).endswith(":hint")]
        if seat == to_act:
            assert len(hint) == 1 and not hint[0].disabled and hint[0].label == "Hint"
        else:
            assert hint == []
            waiting = next(b for b in buttons(view) if str(b.custom_id).endswith(":wait"))
            assert waiting.disabled
            assert table.match is not None and to_act is not None
            name = table.seats[to_act].name or f"Computer {to_act + 1}"
            assert waiting.label == f"Waiting for {name}"
        check_greyed(view, "en")


def test_the_daily_match_has_no_hint_button() -> None:
    table = table_of(Match(preset("standard"), seed=3), rated=False, hints=True)
    daily = Table(game=replace(table.game, kind="daily"), match=table.match, rules=table.rules)
    assert hints_offered(table) and not hints_offered(daily)
    seat = daily.match.to_act if daily.match is not None else None
    assert seat is not None
    assert "hint" not in codes(hand_view(daily, seat, "en"))


def test_every_greyed_button_explains_itself_in_every_language() -> None:
    full = tuple(Seat.human(i + 1, f"P{i}") for i in range(4))
    long_name = (Seat.human(1, "A" * 120), Seat.bot("easy"), Seat.bot("easy"), Seat.bot("easy"))
    for lang in LANGS:
        for table, seat, _ in itertools.islice(
            hands_of_a_deal(rated=False, hints=True), 0, None, 7
        ):
            check_greyed(hand_view(table, seat, lang), lang)
        match = Match(preset("standard"), seed=2)
        assert match.to_act is not None
        long_table = table_of(match, seats=long_name)
        waiting = hand_view(long_table, (match.to_act + 1) % 4, lang)
        check_greyed(waiting, lang)
        for view in (
            table_view(table_of(None, "lobby"), lang),
            table_view(table_of(None, "lobby", seats=full), lang),
            table_view(table_of(match), lang),
            table_view(table_of(match, watching=False), lang),
            table_view(table_of(match, "finished"), lang),
            table_view(table_of(match, "finished"), lang, rematch=12),
            panel_view(table_of(None, "lobby"), lang),
        ):
            check_greyed(view, lang)


def test_a_full_lobby_says_so_and_offers_no_computer() -> None:
    empty = (Seat.human(1, "Alice"), Seat(), Seat(), Seat())
    open_seats = codes(table_view(table_of(None, "lobby", seats=empty), "en"))
    assert open_seats[:3] == ["join", "leave", "bot"]
    full = tuple(Seat.human(i + 1, f"P{i}") for i in range(4))
    view = table_view(table_of(None, "lobby", seats=full), "en")
    join = buttons(view)[0]
    assert join.custom_id.endswith(":join") and join.disabled and join.label == "Table full"
    assert "bot" not in codes(view) and "start" in codes(view)


def test_watch_only_where_watching_is_on() -> None:
    match = Match(preset("standard"), seed=2)
    assert "watch" in codes(table_view(table_of(match), "en"))
    assert "watch" not in codes(table_view(table_of(match, watching=False), "en"))


def test_rematch_button_names_the_rematch_once_open() -> None:
    match = Match(preset("standard"), seed=2)
    (open_,) = buttons(table_view(table_of(match, "finished"), "en"))
    assert not open_.disabled and open_.label == "Rematch"
    (done,) = buttons(table_view(table_of(match, "finished"), "en", rematch=12))
    assert done.disabled and done.label == "Rematch open: table #12"


def test_preset_button_greyed_only_when_the_rules_are_the_preset() -> None:
    lobby = table_of(None, "lobby")
    (reset,) = [b for b in buttons(panel_view(lobby, "en")) if b.custom_id.endswith(":reset")]
    assert reset.disabled and reset.label == t("button.preset_rules_already", "en")
    house = Table(game=lobby.game, match=None, rules=preset("standard", min_bid=6))
    (reset,) = [b for b in buttons(panel_view(house, "en")) if b.custom_id.endswith(":reset")]
    assert not reset.disabled and reset.label == "Back to the preset"


def test_button_label_keeps_discords_limit() -> None:
    assert button_label("Hint") == "Hint"
    cut = button_label("x" * 200)
    assert len(cut) == LABEL_LIMIT and cut.endswith("…")
