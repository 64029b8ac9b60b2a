"""Point discord.py at the local fake Discord, so ``bot.py`` itself carries no test code.

Python imports ``sitecustomize`` at start-up from ``sys.path``; the test fixtures put this
directory on ``PYTHONPATH`` and set ``BATAK_FAKE_DISCORD=http://127.0.0.1:PORT``. Without
that variable this module does nothing.

Names verified in discord.py 2.7.1: ``discord.http.Route.BASE`` (a ClassVar read in
``Route.__init__``, also used by webhook/async_.py for interaction callbacks and follow-ups),
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (a ``yarl.URL``; ``Client.connect``
does not call GET /gateway, it uses this default), and ``discord.asset.Asset.BASE`` (CDN).
"""

import os

_URL = os.environ.get("BATAK_FAKE_DISCORD", "").rstrip("/")

if _URL:
    import discord.asset
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = _URL + "/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        _URL.replace("http://", "ws://", 1).replace("https://", "wss://", 1) + "/gateway"
    )
    discord.asset.Asset.BASE = _URL
