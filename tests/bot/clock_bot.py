"""``bot.py`` on a clock the test moves: the store's clock (every timestamp the bot
stores, the seasons' ``now``) is read from the file ``BATAK_TEST_CLOCK``, a JSON object
``{"at": ISO instant, "real": Unix time}`` — the bot's "now" is ``at`` plus the real
time passed since ``real``. The bot itself carries no test code: this script puts the
clock in (the store takes ``clock=``) and runs ``bot.main()``."""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from data import Store


def set_clock(path: Path, at: datetime) -> None:
    """Move the bot's clock to ``at`` (from now on, it runs on from there)."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"at": at.isoformat(), "real": time.time()}), encoding="utf-8")
    tmp.replace(path)  # the bot never reads half a file


def clock() -> datetime:
    saved = json.loads(Path(os.environ["BATAK_TEST_CLOCK"]).read_text(encoding="utf-8"))
    return datetime.fromisoformat(saved["at"]) + timedelta(seconds=time.time() - saved["real"])


def run_on_clock() -> int:
    """``bot.main()`` with every store opened on :func:`clock` (only in the bot's own
    process: importing this module, as the tests do for :func:`set_clock`, patches
    nothing)."""
    import bot

    opened = Store.open.__func__  # type: ignore[attr-defined]

    async def open_on_clock(cls: type[Store], *args: Any, **kw: Any) -> Store:
        kw.setdefault("clock", clock)
        return await opened(cls, *args, **kw)  # type: ignore[no-any-return]

    Store.open = classmethod(open_on_clock)  # type: ignore[method-assign,assignment]
    return bot.main()


if __name__ == "__main__":
    sys.exit(run_on_clock())
