"""End-to-end smoke test: the real ``bot.py`` against the local fake Discord.

Lobby -> start with three computer players -> the person bids and plays a few cards
through the buttons of their ephemeral hand; nothing of a hand leaks to anyone else.
"""

from __future__ import annotations

import re
from typing import Any

from tests.fakediscord.driver import Driver
from tests.fakediscord.fixtures import running_bot
from tests.fakediscord.server import MessageRecord

FAST = {
    "BOT_DELAY_SECONDS": "0.05",
    "TABLE_EDIT_INTERVAL_SECONDS": "0.2",
    "TURN_TIMEOUT_SECONDS": "600",
}
CARD_ID = re.compile(r"^bt:\d+:\d:\d+:c([2-9TJQKA][SHDC])$")


def buttons(msg: MessageRecord) -> list[dict[str, Any]]:
    return list(msg.buttons())


def hand_cards(msg: MessageRecord) -> set[str]:
    out = set()
    for b in buttons(msg):
        m = CARD_ID.match(str(b.get("custom_id", "")))
        if m:
            out.add(m.group(1))
    return out


def enabled(msg: MessageRecord, prefix: str = "") -> list[dict[str, Any]]:
    return [
        b
        for b in buttons(msg)
        if not b.get("disabled")
        and str(b.get("custom_id", "")).startswith("bt:")
        and str(b.get("custom_id", "")).split(":")[-1] not in ("hint", "ref")
        and str(b.get("custom_id", "")).split(":")[-1].startswith(prefix)
    ]


async def test_lobby_start_with_bots_and_play_cards() -> None:
    async with Driver() as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        env = {"DEV_GUILD_ID": str(guild.id)} | FAST
        async with running_bot(d, env=env) as bot:
            r = await d.slash(alice, "batak new", {"deals": 1}, wait="response")
            assert not r.failed
            lobby = await d.wait_for_message(
                lambda m: any(b.get("label") == "Start" for b in m.buttons())
            )
            await d.click(alice, lobby, "Add bot", wait="response")
            await d.click(alice, lobby, "Start", wait="response")
            table = await d.wait_for_message(
                lambda m: m.id == lobby.id
                and any(b.get("label") == "Show hand" for b in m.buttons())
            )
            # Alice opens her hand: an ephemeral message only she sees.
            opened = await d.click(alice, table, "Show hand", wait="response")
            hand = opened.followups[-1] if opened.followups else opened.response
            assert hand is not None and d.is_ephemeral(hand)
            played = 0
            for _ in range(60):
                if played >= 3:
                    break
                await d.click(alice, hand, "Refresh", wait="response")
                hand = d.message(hand.id)
                choices = enabled(hand)
                if not choices:
                    continue
                pick = choices[-1] if choices[0]["custom_id"].endswith(":p") else choices[0]
                await d.click(alice, hand, pick["custom_id"], wait="response")
                if pick["custom_id"].split(":")[-1].startswith("c"):
                    played += 1
            assert played >= 1, bot.output()[-3000:]
            # Bob never saw any of Alice's cards that are still in her hand.
            hand = d.message(hand.id)
            secret = hand_cards(hand)
            seen = d.seen_text(bob)
            for code in secret:
                label = ("10" if code[0] == "T" else code[0]) + "♠♥♦♣"["SHDC".index(code[1])]
                assert f"c{code}" not in seen
                assert label not in seen, (label, seen[-2000:])
            assert d.failed_interactions() == []
            assert "Traceback" not in bot.output(), bot.output()[-4000:]
