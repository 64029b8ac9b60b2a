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


async def test_a_released_hand_view_leaves_discord_py_nothing_to_keep() -> None:
    """discord.py gives the view of an ephemeral message a 15-minute timeout and keeps
    it (with a sleeping task) in its view store; ``release`` ends that at once, and the
    dynamic buttons stay registered for the clicks to come."""
    from discord.ui.view import ViewStore

    from cogs.components import HandButton, TableButton, release, view_of

    store = ViewStore(None)  # type: ignore[arg-type]  # no bot: only the store is measured
    store.add_dynamic_items(HandButton, TableButton)
    registered = dict(store._dynamic_items)
    views = []
    for move in range(50):
        view = view_of([HandButton(7, 1, move, f"c{n}", label=str(n)) for n in range(13)])
        view.timeout = 15 * 60.0  # what discord.py does for an ephemeral message
        store.add_view(view, 1000 + move)
        views.append(view)
    assert len(_timeout_tasks()) == 50  # discord.py would keep all of them for 15 minutes

    for view in views:
        release(view)
    await asyncio.sleep(0)
    assert all(v.is_finished() for v in views)
    assert not _timeout_tasks()
    assert store._dynamic_items == registered  # clicks on old messages still reach the cog
    release(None)  # messages without buttons


def _timeout_tasks() -> list[asyncio.Task[object]]:
    return [t for t in asyncio.all_tasks() if "timeout_task" in repr(t.get_coro()) and not t.done()]
