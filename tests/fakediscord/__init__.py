"""A local fake of Discord's REST API v10 and gateway v10, and a driver for end-to-end tests.

``server.FakeDiscord`` is the protocol side (aiohttp, 127.0.0.1, random port) and enforces
the Discord rules a bot can trip over; ``driver.Driver`` is the API tests use; ``fixtures``
starts a real bot process pointed at the fake through ``sitecustomize.py``.
"""
