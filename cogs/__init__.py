"""The Discord layer of batak-bot: a thin shell over the table service (:mod:`tables`).

It translates interactions into calls of the service and the service's events into
messages; every table's state, its timers and computer players live in :mod:`tables`.

- :mod:`cogs.batak_cog` — the ``/batak`` command group (slash commands, where clicks come in).
- :mod:`cogs.announcements` — what a table posts in its channel (service listener).
- :mod:`cogs.hands` — the hand message and the handling of button clicks.
- :mod:`cogs.components` — button ``custom_id`` codec, dynamic buttons, views.
- :mod:`cogs.text` — the words of the messages; :mod:`cogs.pictures` — their pictures.
- :mod:`cogs.replies` — answering an interaction, errors, the reader's language.
- :mod:`cogs.i18n` — the one translation layer.
"""
