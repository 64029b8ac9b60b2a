"""The token of a press on a public message, as the bot uses it for its table message
(:mod:`cogs.table_tokens`), in the fake as in Discord's documentation
(discord/discord-api-docs, developers/interactions/receiving-and-responding.mdx):

* acknowledged with ``DEFERRED_UPDATE_MESSAGE`` (type 6: "ACK an interaction and edit the
  original message later"), its ``@original`` is the message the button is on, and
  Edit Original Interaction Response edits that (public) message;
* a follow-up with the ``EPHEMERAL`` flag is seen only by the person who pressed
  (Create Followup Message);
* those webhook routes are not counted in the global limit (Followup Messages ›
  Endpoints; rate-limits.mdx › Global Rate Limit) but have a bucket per token
  (rate-limits.mdx: webhooks are a top-level resource, ``webhook_id + webhook_token``;
  the fake's ``--rate-limits`` answers 5 edits per 2 s);
* the token is refused after 15 minutes (401 / 50027).
"""

from __future__ import annotations

from typing import Any

from .driver import Driver
from .server import FLAG_EPHEMERAL
from .test_fake_protocol import Api, api, world

__all__ = ["api"]  # the fixture, shared with the protocol tests

ROW = {
    "type": 1,
    "components": [{"type": 2, "style": 3, "label": "Join", "custom_id": "bx:1:join"}],
}


async def test_a_deferred_update_lets_the_token_edit_the_public_message(
    driver: Driver, api: Api
) -> None:
    alice, bob, channel = world(driver)
    fake = driver.fake
    _, posted, _ = await api.call(
        "POST", f"/channels/{channel.id}/messages", {"content": "table", "components": [ROW]}
    )
    table = fake.messages[int(posted["id"])]
    driver.use_discord_rate_limits()

    async def press() -> Any:
        data = {"custom_id": "bx:1:join", "component_type": 2}
        rec = fake.new_interaction(3, bob, channel, data, table)
        cb = f"/interactions/{rec.id}/{rec.token}/callback"
        assert (await api.call("POST", cb, {"type": 6}, auth=False))[0] in (200, 204)
        return rec

    rec = await press()
    assert rec.ack_type == 6 and rec.response is table and not rec.ephemeral
    hook = f"/webhooks/{fake.application_id}/{rec.token}"
    status, answer, _ = await api.call(
        "POST",
        hook,
        {"content": "You sit in seat 2.", "flags": FLAG_EPHEMERAL},
        auth=False,
        params={"wait": "true"},
    )
    assert status == 200 and answer["id"] != posted["id"]
    private = fake.messages[int(answer["id"])]
    assert private.ephemeral_to == bob.id
    assert private in driver.visible_to(bob) and private not in driver.visible_to(alice)

    counted = sum(fake.global_limit.counted.values()) if fake.global_limit else 0
    for i in range(5):
        status, edited, _ = await api.call(
            "PATCH", f"{hook}/messages/@original", {"content": f"bob seated {i}"}, auth=False
        )
        assert status == 200 and edited["id"] == posted["id"]
    assert table.content == "bob seated 4" and table in driver.visible_to(alice)
    assert fake.global_limit is not None and sum(fake.global_limit.counted.values()) == counted
    # The token's own bucket: a sixth edit within 2 s is refused (not the global limit).
    status, body, _ = await api.call(
        "PATCH", f"{hook}/messages/@original", {"content": "too fast"}, auth=False
    )
    assert status == 429 and body["global"] is False and 0 < body["retry_after"] <= 2
    # A fresher press has a bucket of its own.
    fresh = await press()
    status, _, _ = await api.call(
        "PATCH",
        f"/webhooks/{fake.application_id}/{fresh.token}/messages/@original",
        {"content": "through the fresher token"},
        auth=False,
    )
    assert status == 200 and table.content == "through the fresher token"

    driver.clock.advance(15 * 60 + 1)
    status, err, _ = await api.call(
        "PATCH", f"{hook.replace(rec.token, fresh.token)}/messages/@original", {"content": "x"}
    )
    assert (status, err["code"]) == (401, 50027) and table.content == "through the fresher token"
