"""The texts of the messages, in the reader's language (all through :mod:`cogs.i18n`).

- :mod:`.words` names of seats, actions, suits and people; the length limit;
- :mod:`.summaries` the table message, deal and match results, a hand;
- :mod:`.hints` the hint; :mod:`.rules` the rules of a preset;
- :mod:`.standings` leaderboards, statistics, history, the server's settings.
"""
