"""The fake against a real discord.py 2.7.1 client: echo_bot.py run as a subprocess."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest
import pytest_asyncio

from .driver import ComponentDisabled, Driver, InteractionFailed
from .fixtures import ECHO_BOT, BotProcess, running_bot
from .server import EVERYONE_LOCKED, Channel, Guild, User

pytestmark = pytest.mark.asyncio(loop_scope="module")


@dataclass
class World:
    d: Driver
    bot: BotProcess
    guild: Guild
    channel: Channel
    alice: User
    bob: User
    carol: User


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def w() -> AsyncIterator[World]:
    async with Driver() as d:
        alice, bob, carol = d.create_user("alice"), d.create_user("bob"), d.create_user("carol")
        # a locked-down server: the bot can only do what its invite asked for
        guild = d.create_guild("Cafe", members=[alice, bob], everyone_permissions=EVERYONE_LOCKED)
        d.create_guild("Elsewhere", members=[carol])
        env = {"DEV_GUILD_ID": str(guild.id)}
        async with running_bot(d, script=ECHO_BOT, env=env, ready_grace=0.3) as bot:
            yield World(d, bot, guild, d.channel(guild), alice, bob, carol)


async def until_logged(bot: BotProcess, text: str, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if text in bot.output():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{text!r} not in bot output:\n{bot.output()[-3000:]}")


async def test_start_up_and_guild_command_sync(w: World) -> None:
    fake = w.d.fake
    assert fake.identify_count == 1 and fake.bot_connected
    assert fake.global_commands == {}
    cmd = fake.guild_commands[w.guild.id]["echo"]
    assert cmd["id"].isdigit() and cmd["guild_id"] == str(w.guild.id)
    assert {o["name"] for o in cmd["options"]} >= {"say", "secret", "slow", "post"}
    assert fake.unhandled == []
    assert "ready as BatakBot" in w.bot.output()


async def test_slash_then_click_edits_the_message(w: World) -> None:
    r = await w.d.slash(w.alice, "echo say", {"text": "hello"})
    assert r.ack_type == 4 and r.ack_latency is not None and r.ack_latency < 1.0
    msg = r.response
    assert msg is not None and msg.content == "hello" and not msg.ephemeral
    assert [b["label"] for b in msg.buttons()] == ["Ping", "Secret", "Picture"]
    c = await w.d.click(w.bob, msg, "Ping")
    assert c.ack_type == 7 and msg.content == "pong 1"
    await w.d.click(w.alice, msg, "echo:ping")
    assert msg.content == "pong 2" and msg.edit_count == 2
    # deferred update, then an edit of @original carrying a new attachment
    p = await w.d.click(w.alice, msg, "Picture", wait="response")
    assert p.ack_type == 6 and msg.content == "with picture"
    assert w.d.images(msg)[0].getpixel((0, 0)) == (0, 90, 0)


async def test_ephemeral_visibility_and_disabled_buttons(w: World) -> None:
    r = await w.d.slash(w.alice, "echo say", {"text": "table"})
    s = await w.d.click(w.bob, r.response, "Secret")
    eph = s.response
    assert eph is not None and eph.ephemeral_to == w.bob.id and eph.content == "only for bob"
    assert eph in w.d.visible_to(w.bob) and eph not in w.d.visible_to(w.alice)
    assert r.response in w.d.visible_to(w.alice)
    assert r.response not in w.d.visible_to(w.carol)  # another server
    with pytest.raises(PermissionError):
        await w.d.click(w.alice, eph, "Again")
    with pytest.raises(ComponentDisabled):
        await w.d.click(w.bob, eph, "Off")
    a = await w.d.click(w.bob, eph, "Again")
    assert a.ack_type == 7 and eph.content == "again for bob" and eph.ephemeral_to == w.bob.id
    e = await w.d.slash(w.alice, "echo secret", {"text": "hand"})
    assert e.ephemeral and e.response is not None and e.response.content == "psst hand"
    assert w.d.images(e.response)[0].getpixel((0, 0)) == (9, 9, 9)  # multipart callback
    assert e.response.attachments[0]["ephemeral"] is True


async def test_modal_and_select(w: World) -> None:
    m = await w.d.slash(w.alice, "echo ask")
    assert m.ack_type == 9 and m.modal is not None and m.modal["title"] == "Tell me"
    s = await w.d.submit_modal(w.alice, m, {"answer": "forty-two"})
    assert s.response is not None and s.response.content == "you said forty-two"
    c = await w.d.slash(w.bob, "echo choose")
    assert c.response is not None
    await w.d.select(w.alice, c.response, "Pick one", ["b"])
    assert c.response.content == "chose b"
    with pytest.raises(ValueError):
        await w.d.select(w.alice, c.response, "echo:choose", ["z"])


async def test_deferred_then_edit_original_replaces_loading(w: World) -> None:
    r = await w.d.slash(w.alice, "echo slow", {"millis": 150}, wait="ack")
    assert r.ack_type == 5 and r.response is not None and r.response.loading
    await w.d.wait_response(r)
    assert r.response.content == "done after 150 ms" and not r.response.loading
    assert r.followup_ids == [] and w.d.images(r.response)[0].size == (32, 16)
    p = await w.d.slash(w.bob, "echo slow", {"millis": 10, "private": True}, wait="response")
    assert p.response is not None and p.response.ephemeral_to == w.bob.id
    assert w.d.loading_messages() == []


async def test_channel_post_edit_thread_and_ping(w: World) -> None:
    r = await w.d.slash(w.alice, "echo post", {"text": "lobby", "who": w.bob}, wait="response")
    assert r.response is not None and r.response.content.startswith("posted ")
    post = next(m for m in w.d.messages(w.channel) if m.content == "lobby (edited)")
    assert [a["filename"] for a in post.attachments] == ["table.png", "table.png"]
    assert [im.getpixel((0, 0)) for im in w.d.images(post)] == [(200, 30, 30), (0, 0, 200)]
    thread = w.d.threads(w.channel)[-1]
    assert thread.id == post.id and thread.name == "thread lobby"
    ping = w.d.messages(thread)[-1]
    assert ping.notified == [w.bob.id] and ping in w.d.notifications(w.bob)


async def test_deadline_and_already_acknowledged(w: World) -> None:
    with pytest.raises(InteractionFailed):
        # the bot answers after 300 ms, but the fake's clock jumps 3 s meanwhile
        task = asyncio.create_task(w.d.slash(w.alice, "echo late", {"millis": 300}, timeout=1.0))
        await asyncio.sleep(0.05)
        w.d.clock.advance(3.0)
        await task
    await until_logged(w.bot, "late answer refused: 404 10062")
    late = [r for r in w.d.fake.interactions.values() if r.name == "echo late"][-1]
    assert late.late_callback and late.failed and late in w.d.failed_interactions()
    r = await w.d.slash(w.alice, "echo double", wait="ack")
    second = await w.d.wait_for_message(lambda m: m.content.startswith("second ack"), 3.0)
    assert second.content == "second ack refused: 400 40060"
    assert r.rejected[0].code == 40060


async def test_answer_after_token_expiry_is_refused(w: World) -> None:
    r = await w.d.slash(w.alice, "echo stale", {"millis": 800})
    assert r.ack_type == 5
    w.d.clock.advance(15 * 60 + 1)
    await until_logged(w.bot, "stale answer refused: 401 50027")
    assert r.response is not None and r.response.loading  # still "thinking"


async def test_follow_up_while_loading_is_refused_as_deprecated(w: World) -> None:
    before = len(w.d.fake.deprecated_followups)
    r = await w.d.slash(w.alice, "echo followup", wait="response")
    await until_logged(w.bot, "follow-up while loading refused: 400 50035")
    assert r.response is not None and r.response.content == "refused: 400 50035"
    assert r.followup_ids == [] and len(w.d.fake.deprecated_followups) == before + 1
    assert "Create Followup Message" in r.rejected[-1].message


async def test_limits_and_ephemeral_channel_edit_are_refused(w: World) -> None:
    for what in ("content", "duplicate", "custom_id"):
        r = await w.d.slash(w.alice, "echo limits", {"what": what})
        assert r.response is not None and r.response.content.startswith("refused: 400 50035"), what
    r = await w.d.slash(w.alice, "echo secret_edit")
    msg = await w.d.wait_for_message(lambda m: m.content.startswith("channel edit"), 3.0)
    assert msg.content == "channel edit refused: 10008" and msg.ephemeral_to == w.alice.id
    assert r.response is not None and r.response.content == "ephemeral"


async def test_driver_checks_options_against_the_synced_schema(w: World) -> None:
    with pytest.raises(ValueError, match="no option"):
        await w.d.slash(w.alice, "echo say", {"txt": "x"})
    with pytest.raises(ValueError, match="required"):
        await w.d.slash(w.alice, "echo say", {})
    with pytest.raises(ValueError, match="not among"):
        await w.d.slash(w.alice, "echo limits", {"what": "nothing"})
    with pytest.raises(ValueError, match="integer"):
        await w.d.slash(w.alice, "echo slow", {"millis": "10"})
    with pytest.raises(ValueError, match="not registered"):
        await w.d.slash(w.alice, "batak new")


async def test_429_is_retried_by_discord_py(w: World) -> None:
    before = w.d.fake.served_429
    w.d.inject_429(r"/channels/\d+/messages$", method="POST", retry_after=0.2)
    r = await w.d.slash(w.alice, "echo post", {"text": "after429"}, wait="response")
    assert r.response is not None and r.response.content.startswith("posted")
    assert w.d.fake.served_429 == before + 1
    assert any(m.content == "after429 (edited)" for m in w.d.messages(w.channel))


async def test_gateway_drop_reconnects(w: World) -> None:
    r = await w.d.slash(w.alice, "echo say", {"text": "drop"})
    identified, resumed = w.d.fake.identify_count, w.d.fake.resume_count
    await w.d.drop_gateway()
    assert (w.d.fake.identify_count, w.d.fake.resume_count) == (identified, resumed + 1)
    c = await w.d.click(w.bob, r.response, "Ping")
    assert c.ack_type == 7


async def test_sigkill_restart_keeps_persistent_buttons(w: World) -> None:
    r = await w.d.slash(w.alice, "echo say", {"text": "before restart"})
    await w.d.click(w.alice, r.response, "Ping")
    old_pid = w.bot.pid
    await w.bot.kill()
    with pytest.raises(InteractionFailed, match="no bot is connected"):
        await w.d.click(w.bob, r.response, "Ping")
    await w.bot.start()
    assert w.bot.pid != old_pid and w.bot.starts == 2
    c = await w.d.click(w.bob, r.response, "Ping")
    assert c.ack_type == 7 and r.response is not None and r.response.content == "pong 2"
    assert w.bot.rss_bytes() > 10 * 2**20
    lat = w.d.latency_summary()
    assert lat["n"] > 10 and lat["p99"] < 1.0


async def test_a_global_429_is_waited_out_by_discord_py(w: World) -> None:
    """Another process of the same bot (here the test, with the bot's token) spends the
    second's 50 requests: the bot's channel post is answered 429 with ``global: true``,
    discord.py holds it until the second is over and sends it again; the interaction's own
    deferral and answer go through meanwhile (interaction endpoints are exempt).

    The fake's clock first moves on by a whole window, so that the test's requests open a
    new second, then stands still until the bot's post has been refused, and runs again from
    that refusal on: the bot is told to wait the whole second, and its retry, a second
    later on the wall clock, finds the next one. No sleep in the test, and nothing that
    depends on how fast the machine is. (Left in the window the bot's start-up requests had
    opened, and with the test's own loop unfreezing the clock, the bot could be told to
    wait a few milliseconds, meet the frozen second five times and give up, as discord.py
    does after five tries: that failed once in CI on a busy machine.)"""
    fake = w.d.fake
    limit = fake.global_limit
    assert limit is not None
    route = "POST /channels/{id}/messages"
    refused = limit.refused[route]
    fake.clock.advance(limit.window)
    frozen = fake.clock.now()
    running = fake.clock.now

    def now() -> float:
        """The frozen instant until the bot's post is refused, the running clock after."""
        return frozen if limit.refused[route] == refused else running()

    fake.clock.now = now  # type: ignore[method-assign]
    try:
        async with aiohttp.ClientSession() as s:
            headers = {"Authorization": "Bot fake-token"}
            for _ in range(limit.limit + 1):
                async with s.get(w.d.url + "/api/v10/users/@me", headers=headers) as resp:
                    status = resp.status
            assert status == 429  # the second's budget is spent
        assert limit.windows["token fake-token"] == (frozen, limit.limit)  # a new second
        post = asyncio.create_task(
            w.d.slash(w.alice, "echo post", {"text": "held back"}, wait="response")
        )
        await w.d.wait_until(lambda: limit.refused[route] > refused or post.done())
        assert limit.refused[route] == refused + 1  # the bot's post met the global limit
    finally:
        del fake.clock.now
    r = await post
    assert r.ack_type == 5 and not r.failed and r.response is not None
    assert r.response.content.startswith("posted")  # ... and went through on its retry
    assert any(m.content == "held back (edited)" for m in w.d.messages(w.channel))
    assert fake.served_429_by_scope["global"] >= 2
