"""End-to-end: replays, uploads, reviews and the daily comparison through the fake Discord."""

from __future__ import annotations

import io
import json

from PIL import Image

from tests.bot.e2e_helpers import (
    PATIENCE,
    answer_text,
    answers,
    bot_in,
    clean_run,
    ids,
    open_hand,
    open_table_with_bots,
    play_daily,
    play_out,
)
from tests.fakediscord.driver import Driver, Upload
from tests.fakediscord.server import InteractionRecord, MessageRecord

REVIEW_WAIT = 300.0  # a review is seconds of search in a low-priority worker


def replay_of(d: Driver, rec: InteractionRecord) -> tuple[MessageRecord, dict[str, object]]:
    for m in answers(rec):
        for a in m.attachments:
            if str(a["filename"]).startswith("batak-replay-"):
                return m, a
    raise AssertionError(f"no replay in {answer_text(rec)!r}")


async def test_replay_upload_and_review_of_a_finished_deal() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        async with bot_in(d, guild) as bot:
            table = await open_table_with_bots(d, alice)
            await play_out(d, alice, await open_hand(d, alice, table))
            summary = await d.wait_for_message(
                lambda m: any(c.startswith("br:") for c in ids(m)) and not m.ephemeral_to
            )

            # The Review button: a private answer with the par, the turn and the decisions.
            # (a match of one deal may get an extra deal: take the button's own deal)
            number = next(int(c.split(":")[2]) + 1 for c in ids(summary) if c.startswith("br:"))
            rec = await d.click(bob, summary, "Review", wait="response", timeout=REVIEW_WAIT)
            text = answer_text(rec)
            assert all(d.is_ephemeral(m) and m.ephemeral_to == bob.id for m in answers(rec))
            assert f"Review of deal {number}" in text and "Par" in text, text
            assert "urning point" in text, text  # found, or said that there was none
            assert "Alice" in text  # the one person's decisions are listed
            # /batak review of the same deal comes from the cache and says the same.
            again = await d.slash(
                alice, "batak review", {"deal": number}, wait="response", timeout=REVIEW_WAIT
            )
            assert answer_text(again) == text

            # /batak replay: the last finished deal, posted publicly, within 8 MB.
            rec = await d.slash(alice, "batak replay", wait="response", timeout=REVIEW_WAIT)
            msg, att = replay_of(d, rec)
            data = d.attachment_bytes(msg, att)
            assert not d.is_ephemeral(msg)
            assert len(data) <= 8 * 1024 * 1024
            frames = getattr(d.images(msg)[0], "n_frames", 1)
            assert frames == 2 + 13 + 1  # hands, auction, every trick, score

            # The same deal as an uploaded file (the history's JSON Lines) replays too.
            history = await d.slash(alice, "batak history", wait="response")
            jsonl = next(
                d.attachment_bytes(m, a)
                for m in answers(history)
                for a in m.attachments
                if str(a["filename"]).endswith(".jsonl")
            )
            good = Upload("match.jsonl", jsonl)
            rec = await d.slash(
                bob, "batak replay", {"file": good, "deal": 1}, wait="response", timeout=120
            )
            msg, att = replay_of(d, rec)
            assert d.is_ephemeral(msg) and msg.ephemeral_to == bob.id
            with Image.open(io.BytesIO(d.attachment_bytes(msg, att))) as im:
                assert getattr(im, "n_frames", 1) == 16

            # A bad file: a clear private error naming the field, nothing posted.
            record = json.loads(jsonl.decode().splitlines()[0])
            record["dealer"] = 7
            before = len(d.messages(include_ephemeral=False))
            bad = Upload("bad.jsonl", json.dumps(record).encode())
            rec = await d.slash(bob, "batak replay", {"file": bad}, wait="response")
            text = answer_text(rec)
            assert "not a valid batak-deal/1 record" in text and "dealer" in text, text
            assert all(d.is_ephemeral(m) for m in answers(rec))
            rec = await d.slash(bob, "batak replay", {"file": Upload("x.jsonl", b"\xff")})
            await d.wait_response(rec)
            assert "UTF-8" in answer_text(rec)
            # A fourth replay within 30 s: told privately when to try again, nothing read.
            rec = await d.slash(bob, "batak replay", {"file": Upload("x.jsonl", b"\xff")})
            await d.wait_response(rec)
            assert "ask for this again <t:" in answer_text(rec), answer_text(rec)
            assert all(d.is_ephemeral(m) for m in answers(rec))
            # A deal number the file does not have.
            rec = await d.slash(bob, "batak review", {"file": good, "deal": 50}, wait="response")
            count = len([line for line in jsonl.decode().splitlines() if line.strip()])
            assert f"choose a deal from 1 to {count}" in answer_text(rec)
            assert len(d.messages(include_ephemeral=False)) == before
            clean_run(d, bot)


async def test_the_daily_compared_only_after_finishing_it() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        async with bot_in(d, guild, {"DAILY_DEALS": "1"}) as bot:
            await play_daily(d, alice)
            # Bob has not played today's daily: no replay or review of it for him.
            rec = await d.slash(bob, "batak replay", wait="response")
            assert "no finished deal" in answer_text(rec)
            # Alice replays her own daily deal, privately.
            rec = await d.slash(alice, "batak replay", wait="response", timeout=120)
            msg, _att = replay_of(d, rec)
            assert msg.ephemeral_to == alice.id
            await play_daily(d, bob)
            rec = await d.slash(alice, "batak daily", wait="response")
            offer = answers(rec)[-1]
            assert "already" in offer.text() and any(c.startswith("bd:") for c in ids(offer))
            rec = await d.click(alice, offer, "Compare", wait="response", timeout=REVIEW_WAIT)
            text = answer_text(rec)
            assert "compared" in text and "Deal 1" in text, text
            assert "Alice" in text and "Bob" in text, text
            assert text.count("par ") >= 2, text
            clean_run(d, bot)
