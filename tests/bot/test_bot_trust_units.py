"""The pieces of trust without Discord: the exact custom_ids, names as data, option checks."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands
from hypothesis import given
from hypothesis import strategies as st

from batak import Match, preset
from cogs.batak_cog import FAMILIES
from cogs.components import (
    HandClick,
    TableClick,
    hand_view,
    matching,
    parse_hand_id,
    parse_table_id,
    table_view,
)
from cogs.components.panel import HouseClick, panel_view, parse_house_id, spectator_view
from cogs.components.tournament import TournamentClick, signup_view
from cogs.text.words import MAX_NAME, plain_name, safe_name
from cogs.tree import BadOption, check_options
from data import Game, Seat
from tables import Table


def _table(match: Match | None, status: str = "playing") -> Table:
    seats = tuple(Seat.human(100 + i, f"P{i}") for i in range(4))
    game = Game(
        id=42,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        host_id=100,
        kind="table",
        status=status,
        phase="play",
        move=0,
        to_act=None,
        settings={"rules": preset("standard").to_dict()},
        seats=seats,
        snapshot=None,
        snapshot_move=None,
        created_at="",
        updated_at="",
        finished_at=None,
        table_message_id=None,
    )
    return Table(game=game, match=match, rules=preset("standard"))


def _written_ids() -> list[str]:
    """Every custom_id the bot writes for a table, through a whole deal."""
    match = Match(preset("standard", deals=1), seed=5)
    out: list[str] = []
    while not match.is_over:
        table = _table(match)
        for seat in range(4):
            view = hand_view(table, seat, "en")
            assert view is not None
            out += [str(getattr(i, "custom_id", "")) for i in view.children]
        match.apply(match.legal_actions()[0], match.to_act)
    for status in ("lobby", "playing", "finished"):
        view = table_view(_table(match if status != "lobby" else None, status), "en")
        assert view is not None
        out += [str(getattr(i, "custom_id", "")) for i in view.children]
    # the host's rules panel (each option's value menu) and a spectator's view
    lobby = _table(None, "lobby")
    for option in (None, "min_bid", "fixed_trump", "tie_break"):
        out += [str(getattr(i, "custom_id", "")) for i in panel_view(lobby, "en", option).children]
    watched = spectator_view(_table(Match(preset("standard"), seed=5)), "en")
    assert watched is not None
    out += [str(getattr(i, "custom_id", "")) for i in watched.children]
    # a tournament's sign-up message, open and running
    for open_ in (True, False):
        out += [
            str(getattr(i, "custom_id", "")) for i in signup_view(7, "en", open_=open_).children
        ]
    return out


def _parse(cid: str) -> object | None:
    """What a press of ``cid`` is taken for: the family whose template matches it (as
    discord.py matches), then that family's strict reading."""
    found = matching(cid, FAMILIES)
    return found[0].read(cid) if found is not None else None


def test_every_id_the_bot_writes_is_taken_and_nothing_near_it() -> None:
    written = _written_ids()
    assert len(written) > 500
    assert any(cid.startswith("bh:") for cid in written)
    for cid in written:
        click = _parse(cid)
        assert isinstance(click, HandClick | TableClick | HouseClick | TournamentClick), cid
        prefix, number, *rest = cid.split(":")
        near = [
            cid.lower() if cid.lower() != cid else cid + "x",
            ":".join([prefix, "0" + number, *rest]),
            cid + ":1",
            cid.rsplit(":", 1)[0],
            " " + cid,
        ]
        if isinstance(click, HandClick):
            near.append(cid.replace(f":{click.move}:", f":0{click.move}:", 1))
        for forged in near:
            assert _parse(forged) is None, forged


@given(st.text(max_size=40))
def test_an_id_is_taken_only_in_the_form_the_bot_writes(text: str) -> None:
    click = parse_hand_id(text) or parse_table_id(text)
    if isinstance(click, HandClick):
        assert text == f"bt:{click.table}:{click.seat}:{click.move}:{click.code}"
    elif isinstance(click, TableClick):
        assert text == f"bx:{click.table}:{click.what}"
    house = parse_house_id(text)
    if house is not None:
        tail = f":{house.option}" if house.option is not None else ""
        assert text == f"bh:{house.table}:{house.what}{tail}"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("**BIG** ||x||", "\\*\\*BIG\\*\\* \\|\\|x\\|\\|"),
        ("[x](https://e.vil)", "\\[x\\](https:\u200b//e.vil)"),
        ("@everyone", "@\u200beveryone"),
        ("<@123456789012345678>", "\\<@\u200b123456789012345678>"),
        ("a\u202eb\u200bc\ufeffd", "abcd"),
        ("```x```", "\\`\\`\\`x\\`\\`\\`"),
        ("line\nbreak", "line break"),
        ("snake_case", "snake\\_case"),
        ("Ayşe Yılmaz", "Ayşe Yılmaz"),
    ],
)
def test_a_name_is_data_in_a_message(raw: str, shown: str) -> None:
    assert safe_name(raw) == shown


@given(st.text())
def test_a_plain_name_is_short_one_line_and_has_no_invisible_characters(raw: str) -> None:
    name = plain_name(raw)
    assert len(name) <= MAX_NAME and "\n" not in name and name == name.strip()
    assert not any(
        ch in name
        for ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\u200d\ufeff"
    )


def _command() -> app_commands.Command[None, ..., None]:
    @app_commands.command(name="board", description="d")
    @app_commands.choices(by=[app_commands.Choice(name="rating", value="rating")])
    async def board(
        interaction: discord.Interaction[discord.Client],
        by: str = "rating",
        deals: app_commands.Range[int, 1, 20] | None = None,
        user: discord.User | None = None,
    ) -> None:
        return None

    return board


@pytest.mark.parametrize(
    "options",
    [
        [{"name": "by", "type": 3, "value": "wins"}],
        [{"name": "by", "type": 4, "value": 1}],
        [{"name": "deals", "type": 4, "value": 21}],
        [{"name": "deals", "type": 4, "value": True}],
        [{"name": "user", "type": 6, "value": "abc"}],
        [{"name": "nope", "type": 3, "value": "x"}],
        [
            {"name": "by", "type": 3, "value": "rating"},
            {"name": "by", "type": 3, "value": "rating"},
        ],
        ["by"],
    ],
)
def test_an_option_the_command_does_not_declare_is_refused(options: list[object]) -> None:
    with pytest.raises(BadOption):
        check_options(_command(), options)


def test_declared_options_pass() -> None:
    check_options(
        _command(),
        [
            {"name": "by", "type": 3, "value": "rating"},
            {"name": "deals", "type": 4, "value": 20},
            {"name": "user", "type": 6, "value": "123456789012345678"},
        ],
    )
