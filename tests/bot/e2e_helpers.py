"""What the end-to-end tests of the real ``bot.py`` share: the fast settings, reading a
message's buttons, opening a table and a hand, playing through the hand's buttons,
the answers of an interaction, and the check that a run was clean."""

from __future__ import annotations

import asyncio
import re
from contextlib import AbstractAsyncContextManager

from tests.fakediscord.driver import Driver
from tests.fakediscord.fixtures import BotProcess, running_bot
from tests.fakediscord.server import (
    Channel,
    Guild,
    InteractionRecord,
    MessageRecord,
    RequestLogEntry,
    User,
)

FAST = {
    "BOT_DELAY_SECONDS": "0.02",
    "TABLE_EDIT_INTERVAL_SECONDS": "0.2",
    "TURN_TIMEOUT_SECONDS": "600",
}
# How long a driver wait may last before the test fails. The tests check what the bot
# does, not how fast: on a loaded machine a cold worker process can take seconds to
# draw the first picture. Discord's 3-second acknowledgement rule is still checked (the
# fake refuses a late answer and clean_run finds it).
PATIENCE = 60.0
CARD_ID = re.compile(r"^bt:\d+:\d:\d+:c([2-9TJQKA][SHDC])$")
LABEL = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")


def bot_in(
    d: Driver, guild: Guild, env: dict[str, str] | None = None
) -> AbstractAsyncContextManager[BotProcess]:
    """The real bot.py, fast, with its commands synced to ``guild`` (``env`` on top)."""
    return running_bot(d, env={"DEV_GUILD_ID": str(guild.id)} | FAST | (env or {}))


def ids(msg: MessageRecord) -> list[str]:
    return [str(b.get("custom_id", "")) for b in msg.buttons()]


def choices(msg: MessageRecord) -> list[str]:
    """The enabled game buttons of a hand (not Hint / Refresh)."""
    return [
        str(b["custom_id"])
        for b in msg.buttons()
        if not b.get("disabled")
        and str(b.get("custom_id", "")).startswith("bt:")
        and str(b["custom_id"]).split(":")[-1] not in ("hint", "ref")
    ]


def hand_cards(msg: MessageRecord) -> set[str]:
    return {m.group(1) for cid in ids(msg) if (m := CARD_ID.match(cid))}


def label(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + "♠♥♦♣"["SHDC".index(code[1])]


def one_button(msg: MessageRecord, suffix: str) -> str:
    return next(cid for cid in ids(msg) if cid.endswith(suffix))


def answers(rec: InteractionRecord) -> list[MessageRecord]:
    """The bot's answer to an interaction and its follow-ups. A press acknowledged as a
    deferred update (type 6) of a public message, the table message, has that message
    as its original response: no answer to the person (its token edits the table as
    the game goes on, :mod:`cogs.table_tokens`); its answer is a follow-up."""
    response = rec.response
    if rec.ack_type == 6 and response is not None and response.ephemeral_to is None:
        response = None
    return [m for m in [response, *rec.followups] if m is not None]


def message_edits(d: Driver, message_id: int) -> list[RequestLogEntry]:
    """The accepted edits of a message, in order: through the channel's route, or through
    the token of an interaction whose original response it is (``@original``)."""
    tokens = {tok for tok, rec in d.fake.tokens.items() if rec.original_message_id == message_id}
    return [
        r
        for r in d.fake.requests
        if r.method == "PATCH"
        and r.status == 200
        and (
            r.path.endswith(f"/messages/{message_id}")
            or (r.path.endswith("/@original") and r.path.split("/")[3] in tokens)
        )
    ]


def answer_text(rec: InteractionRecord) -> str:
    return "\n".join(m.text() for m in answers(rec))


async def open_table_with_bots(
    d: Driver, host: User, bots: int = 3, deals: int = 1, channel: Channel | None = None
) -> MessageRecord:
    """A table of the host and ``bots`` computer players, started; its message.
    ``channel``: where ``/batak new`` is given (default: the first one); the lobby is
    looked for in it or in a thread the bot opened, among what the host sees."""
    await d.slash(host, "batak new", {"deals": deals}, channel=channel, wait="response")
    lobby = await d.wait_for_message(
        lambda m: any(c.endswith(":start") for c in ids(m)),
        visible_to=host if channel is not None else None,
    )
    for _ in range(bots):
        await d.click(host, lobby, "Add bot", wait="response")
    await d.click(host, lobby, "Start", wait="response")
    # Start edits the table's text and buttons in at once, the picture follows (#29).
    await d.wait_until(lambda: any(c.endswith(":show") for c in ids(d.message(lobby.id))), 30)
    return d.message(lobby.id)


async def open_hand(
    d: Driver, user: User, table: MessageRecord, picture: bool = True
) -> MessageRecord:
    # Right after Start the hand's picture queues behind the drawing worker's start-up and
    # the table's first picture: seconds on a busy machine (the press itself is deferred
    # at once, so on Discord nothing fails).
    show = one_button(d.message(table.id), ":show")
    rec = await d.click(user, table, show, wait="response", timeout=PATIENCE)
    hand = rec.followups[-1] if rec.followups else rec.response
    assert hand is not None and d.is_ephemeral(hand) and hand.ephemeral_to == user.id
    # A picture not drawn within LATE_PICTURE comes with a later edit of the open hand
    # (cogs.pictures.LateDrawings): the hand is shown with its buttons first. While the
    # game moves faster than a starved worker draws, each drawing is stale when it is done
    # and the picture waits for a calmer moment: ``picture=False`` does not wait for it.
    if picture:
        await d.wait_until(lambda: bool(d.message(hand.id).attachments), PATIENCE)
    return d.message(hand.id)


def shown(msg: MessageRecord) -> tuple[str, list[tuple[str, str, bool]]]:
    """What a message says apart from its pictures: its text and its buttons (a picture
    drawn late may still come for the state they show)."""
    buttons = [
        (str(b.get("custom_id", "")), str(b.get("label", "")), bool(b.get("disabled")))
        for b in msg.buttons()
    ]
    return msg.content, buttons


async def refresh(d: Driver, user: User, hand: MessageRecord) -> MessageRecord:
    """Press Refresh as the hand shows it when the press is made: its id names the move,
    and the hand may move on (a computer's card) while the driver checks the press."""
    for _ in range(20):
        try:
            ref = one_button(d.message(hand.id), ":ref")
            await d.click(user, hand, ref, wait="response", timeout=20)
            return d.message(hand.id)
        except LookupError:
            await asyncio.sleep(0.05)  # read the hand again (the fake runs on this loop)
    raise AssertionError(f"no Refresh to press in {d.message(hand.id)!r}")


async def play_out(d: Driver, user: User, hand: MessageRecord, cards: int | None = None) -> int:
    """Pass or bid the least, then play the first legal card, until the match is over
    (the hand has no buttons left) or ``cards`` cards are played; the cards played."""
    played = 0
    for _ in range(400):
        if cards is not None and played >= cards:
            break
        if not any(c.endswith(":ref") for c in ids(d.message(hand.id))):
            break  # the match is over
        hand = await refresh(d, user, hand)
        options = choices(hand)
        if not options:
            await asyncio.sleep(0.05)  # a pause (the fake Discord runs on this loop)
            continue
        pick = next((c for c in options if c.endswith(":p")), options[0])
        try:
            await d.click(user, hand, pick, wait="response")
        except LookupError:
            continue  # the hand moved on between reading its buttons and the press
        if pick.split(":")[-1].startswith("c"):
            played += 1
    return played


async def play_until(
    d: Driver, user: User, hand: MessageRecord, cards: int, bot: BotProcess
) -> MessageRecord:
    """Click through the auction, trump and ``cards`` card plays."""
    played = await play_out(d, user, hand, cards)
    assert played >= cards, bot.output()[-3000:]
    return d.message(hand.id)


async def play_daily(d: Driver, user: User) -> str:
    """``/batak daily``, played through its private hand to the end; the hand's text."""
    # The first picture waits for the drawing worker to warm up (slow when busy).
    rec = await d.slash(user, "batak daily", wait="response", timeout=30)
    hand = rec.followups[-1] if rec.followups else rec.response
    assert hand is not None and hand.ephemeral_to == user.id
    for _ in range(120):
        hand = d.message(hand.id)
        options = choices(hand)
        if not options:
            break
        pick = next((c for c in options if c.endswith(":p")), options[0])
        await d.click(user, hand, pick, wait="response")
    final = d.message(hand.id).text()
    assert "Daily match finished" in final, final
    return final


def hand_labels(msg: MessageRecord) -> set[str]:
    """The cards of a hand message: its card buttons, or the hand line of its text."""
    labels = {label(c) for c in hand_cards(msg)}
    lines = msg.text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(("Table #", "Masa #")))
    return labels | set(LABEL.findall(lines[start + 1]))


def assert_no_leak(d: Driver, owner_hand: MessageRecord, other: User) -> None:
    seen = d.seen_text(other)
    secret = hand_labels(owner_hand)
    assert secret
    for code in hand_cards(owner_hand):
        assert f"c{code}" not in seen
    for text in secret:
        assert text not in seen, (text, seen[-1500:])


def clean_run(d: Driver, *bots: BotProcess) -> None:
    """No failed interaction, no message left at "loading", no traceback in any bot."""
    assert d.failed_interactions() == [], [b.all_output()[-3000:] for b in bots]
    assert d.loading_messages() == []
    for bot in bots:
        assert "Traceback" not in bot.all_output(), bot.all_output()[-6000:]
