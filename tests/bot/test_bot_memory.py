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
    answered through the registered templates of their buttons, so they say there is
    nothing to dispatch: sending 50 hands leaves the view store as it was (the
    templates, registered once) and no timer running."""
    import discord
    from discord.ui.view import ViewStore

    from cogs.batak_cog import FAMILIES
    from cogs.components import HandButton, Press, TableButton, view_of

    store = ViewStore(None)  # type: ignore[arg-type]  # no client: the store alone
    store.add_dynamic_items(*FAMILIES)
    registered = dict(store._dynamic_items)
    for move in range(50):
        view = view_of([HandButton(7, 1, move, f"c{n}", label=str(n)) for n in range(13)])
        view.add_item(TableButton(7, "show", label="Show"))
        # What discord.py does when a message with this view is sent:
        if view.is_dispatchable():
            store.add_view(view, 1000 + move)
        assert all(isinstance(i, Press) and i.custom_id for i in view.children)
        assert all(isinstance(getattr(i, "item", None), discord.ui.Button) for i in view.children)
    assert store._dynamic_items == registered
    assert not store._views and not store._synced_message_views
    assert not _timeout_tasks()


async def test_a_view_stored_regardless_keeps_nothing_and_takes_no_template() -> None:
    """The first answer to an interaction stores its view whatever it says
    (``InteractionResponse.send_message``), with a timer on an ephemeral one, and
    ``release`` stops it. A view of ours (only dynamic items) adds nothing to the store
    then, and taking it away leaves every template registered: a view mixing a plain
    button in would take its dynamic items' templates with it, so ours refuse one."""
    import discord
    import pytest
    from discord.ui.view import ViewStore

    from cogs.batak_cog import FAMILIES
    from cogs.components import release, view_of
    from cogs.components.panel import HouseItem, house_id
    from cogs.components.seats import seat_answer_view

    store = ViewStore(None)  # type: ignore[arg-type]
    store.add_dynamic_items(*FAMILIES)
    registered = dict(store._dynamic_items)
    menu: discord.ui.Select[discord.ui.View] = discord.ui.Select(custom_id=house_id(42, "opt"))
    for n, view in enumerate([seat_answer_view(42, 77, "en"), view_of([HouseItem(menu)])]):
        view.timeout = 900.0  # as discord.py sets it for an ephemeral answer
        store.add_view(view, 5000 + n)
        assert not store._views and not store._synced_message_views
        release(view)
    assert store._dynamic_items == registered
    await asyncio.sleep(0)  # the stopped timers finish cancelling
    assert not _timeout_tasks()
    # What a plain button would do (and why a view of ours refuses one):
    mixed = discord.ui.View(timeout=None)
    mixed.add_item(HouseItem(discord.ui.Button(custom_id=house_id(42, "reset"))))
    mixed.add_item(discord.ui.Button(custom_id="plain"))
    store.add_view(mixed, 6000)
    mixed.stop()
    assert store._dynamic_items != registered
    with pytest.raises(TypeError):
        view_of([discord.ui.Button(custom_id="plain")])


def _timeout_tasks() -> list[asyncio.Task[object]]:
    return [t for t in asyncio.all_tasks() if "timeout_task" in repr(t.get_coro()) and not t.done()]
