"""End-to-end (real bot.py against the fake Discord): a rated match without a Hint
button (the command refuses), personal settings drawn into that person's pictures, the
leaderboard without computers, the history as a picture with its records and one match
opened, a casual lobby."""

from __future__ import annotations

from batak.records import loads
from images.theme import DARK, LIGHT
from tests.bot.e2e_helpers import (
    PATIENCE,
    answer_text,
    answers,
    bot_in,
    choices,
    clean_run,
    ids,
    open_hand,
    open_table_with_bots,
    play_out,
    refresh,
)
from tests.fakediscord.driver import Driver
from tests.fakediscord.server import MessageRecord


def light(d: Driver, msg: MessageRecord) -> bool:
    """Whether the message's first picture is drawn light (its corner, near the theme's
    background; the dark theme's corner is near the dark one's)."""
    (im, *_) = d.images(msg)
    corner = im.convert("RGB").getpixel((2, 2))
    near = {
        name: sum(abs(a - b) for a, b in zip(corner, th.bg, strict=True))
        for name, th in (("light", LIGHT), ("dark", DARK))
    }
    assert min(near.values()) < 30, corner
    return near["light"] < near["dark"]


async def test_rated_match_personal_pictures_leaderboard_and_history() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        async with bot_in(d, guild) as bot:
            mine = await d.slash(
                alice,
                "batak settings me",
                {"theme": "light", "four_colour": True},
                wait="response",
            )
            said = answer_text(mine)
            assert "Saved" in said and "four colours" in said and "light" in said

            table = await open_table_with_bots(d, alice, deals=3)  # fewer is a try-out
            hand = await open_hand(d, alice, table)
            assert light(d, hand)  # her own choice, on her own hand

            # No Hint button at a rated table, even on her turn; the command says why
            while not choices(hand):
                hand = await refresh(d, alice, hand)
            assert not any(c.endswith(":hint") for c in ids(hand)), ids(hand)
            cmd = await d.slash(alice, "batak hint", wait="response")
            assert "No hints at a rated table" in answer_text(cmd)

            await play_out(d, alice, hand)  # to the end of the match
            result = await d.wait_for_message(lambda m: "Winner" in m.text() and not m.ephemeral_to)
            assert not light(d, result)  # public pictures stay the server's
            # her first rated match: how far along she is, never a rating number yet
            assert "Alice: " in result.text()
            assert "· still settling in: 1 of 5 rated matches" in result.text()

            # the all-time board (the default is the current season's)
            board = await d.slash(bob, "batak leaderboard", {"season": "all"}, wait="response")
            said = answer_text(board)
            lines = said.splitlines()
            ranked = [line for line in lines if line[:1].isdigit()]
            # one rated match: named apart, neither ranked nor given a number
            assert ranked == [] and "?" not in said
            assert "Still settling in, not ranked until 5 rated matches: Alice" in lines
            assert any(line.startswith("Computer players: normal ") for line in lines)
            assert any(d.images(m) for m in answers(board)), "the leaderboard is a picture"

            # a language of one's own, over the Discord locale and the server's
            await d.slash(bob, "batak settings me", {"language": "de"}, wait="response")
            stats = await d.slash(bob, "batak stats", {"user": alice}, wait="response")
            assert "Statistik von Alice" in answer_text(stats)

            history = await d.slash(alice, "batak history", wait="response")
            said = answer_text(history)
            assert "rated" in said and "/batak history match:" in said
            msg = next(m for m in answers(history) if m.attachments)
            names = [a["filename"] for a in msg.attachments]
            assert "history.png" in names and any(n.endswith(".jsonl") for n in names)
            assert light(d, msg)  # asked privately: drawn her way
            att = next(a for a in msg.attachments if a["filename"].endswith(".jsonl"))
            # one deal, or more when it ended level (the tie-break's extra deals)
            deals = loads(d.attachment_bytes(msg, att).decode("utf-8"))
            assert deals and all(deal.is_over for deal in deals)
            match_id = int(said.split("/batak history match:")[1].split()[0])
            one = await d.slash(alice, "batak history", {"match": match_id}, wait="response")
            said = answer_text(one)
            assert f"Match #{match_id}" in said and "Deal 1:" in said and "Places: " in said
            missing = await d.slash(alice, "batak history", {"match": 999}, wait="response")
            assert "There is no match #999" in answer_text(missing)

            # a casual table says so in its lobby
            await d.slash(bob, "batak new", {"casual": True}, wait="response")
            lobby = await d.wait_for_message(
                lambda m: "Casual table" in m.text() and any(c.endswith(":start") for c in ids(m))
            )
            assert "no hints" in lobby.text()
            clean_run(d, bot)
