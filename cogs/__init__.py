"""The Discord layer of batak-bot: a thin shell over the engine, images and store.

- :mod:`cogs.service` — the Discord-agnostic table service (locks, timers, computer players).
- :mod:`cogs.batak_cog` — the ``/batak`` command group, buttons and messages.
- :mod:`cogs.i18n` — the one translation layer.
"""
