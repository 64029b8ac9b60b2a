"""A Turkish player presses a card the rules do not allow (a disabled button, sent as an
old client would): the real bot refuses it in Turkish, the engine's English nowhere."""

from __future__ import annotations

import asyncio

from tests.bot.e2e_helpers import (
    LABEL,
    bot_in,
    choices,
    clean_run,
    ids,
    open_hand,
    open_table_with_bots,
    refresh,
)
from tests.bot.test_bot_refusals import ENGLISH, words
from tests.fakediscord.driver import Driver

SLOW = 30.0


def disabled_cards(ids_and_states: list[tuple[str, bool]]) -> list[str]:
    return [cid for cid, disabled in ids_and_states if disabled and cid.split(":")[-1][0] == "c"]


async def test_an_illegal_card_is_refused_in_turkish() -> None:
    async with Driver() as d:
        ayse = d.create_user("ayse", locale="tr")
        guild = d.create_guild("Kahve", owner=ayse)
        async with bot_in(d, guild) as bot:
            table = await open_table_with_bots(d, ayse, bots=3)
            hand = await open_hand(d, ayse, table)
            refused = None
            for _ in range(400):
                hand = await refresh(d, ayse, hand)
                options = choices(hand)
                if not any(c.endswith(":ref") for c in ids(hand)):
                    break  # the deal is over without a refusable card: see the assert
                if not options:
                    await asyncio.sleep(0.05)  # a pause (the fake Discord runs on this loop)
                    continue
                states = [
                    (str(b.get("custom_id", "")), bool(b.get("disabled"))) for b in hand.buttons()
                ]
                illegal = disabled_cards(states)
                if illegal and any(c.split(":")[-1][0] == "c" for c in options):
                    before = d.message(table.id).text()
                    await d.click_custom_id(ayse, hand, illegal[0], wait="response", timeout=SLOW)
                    refused = d.message(hand.id).text()
                    assert d.message(table.id).text() == before  # nothing was played
                    break
                pick = next((c for c in options if c.endswith(":p")), options[0])
                await d.click(ayse, hand, pick, wait="response", timeout=SLOW)
            assert refused is not None, bot.output()[-3000:]
            line = next(ln for ln in refused.splitlines() if "⚠️" in ln)
            assert "Bu hamleye izin yok: " in line, line
            assert LABEL.search(line), line  # the cards allowed instead are named
            assert not words(line) & ENGLISH, line
            print(f"\nrefused in Turkish: {line}")
            clean_run(d, bot)
