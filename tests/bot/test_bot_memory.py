"""bot.py's memory housekeeping: start-up objects frozen out of the collector's way."""

from __future__ import annotations

import asyncio
import gc

import bot


def test_settle_memory_freezes_what_is_alive() -> None:
    before = gc.get_freeze_count()
    try:
        bot.settle_memory()
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()


async def test_our_views_leave_discord_py_nothing_to_keep() -> None:
    """discord.py stores every view that has something to dispatch, and gives the view
    of an ephemeral message a 15-minute timeout (a sleeping task) until then. Ours are
    answered from the custom_id by the cog, so they say there is nothing to dispatch:
    sending 50 hands leaves the view store empty and no timer running."""
    import discord
    from discord.ui.view import ViewStore

    from cogs.components import HandButton, TableButton, view_of

    store = ViewStore(None)  # type: ignore[arg-type]  # no client: the store alone
    for move in range(50):
        view = view_of([HandButton(7, 1, move, f"c{n}", label=str(n)) for n in range(13)])
        view.add_item(TableButton(7, "show", label="Show"))
        # What discord.py does when a message with this view is sent:
        if view.is_dispatchable():
            store.add_view(view, 1000 + move)
        assert all(isinstance(i, discord.ui.Button) and i.custom_id for i in view.children)
    assert not store._views and not store._dynamic_items and not store._synced_message_views
    assert not _timeout_tasks()


def _timeout_tasks() -> list[asyncio.Task[object]]:
    return [t for t in asyncio.all_tasks() if "timeout_task" in repr(t.get_coro()) and not t.done()]
