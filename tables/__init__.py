"""The table service: every table's state, one lock per table, computer players, timers
and the worker processes (:mod:`.timers`, :mod:`.workers`).

Nothing here imports discord. The Discord cog calls the service's coroutines and
is told what happened through a :class:`TableListener`; tests drive the same
service with a fake listener and :class:`tables.timers.FakeTimers`.

The rule of the service: an action is checked against the engine, committed to
the store (append-only log, optimistic move numbers) and only then acknowledged.
On start-up :meth:`TableService.restore` rebuilds every open table by replaying
its stored log through the engine.

- :mod:`.errors` what the service refuses; :mod:`.model` its settings and a table;
- :mod:`.events` what it reports (frozen snapshots); :mod:`.listener` who is told;
- :mod:`.computer` the computer players and hints;
- :mod:`.registry` the tables and their locks, look-ups and loading, shared by the parts;
- :mod:`.play` turns, timers, the match end; :mod:`.seats` seats in play;
- :mod:`.lobby` opening, joining, leaving, starting; :mod:`.notify` turn-notice settings;
- :mod:`.house` the host's lobby changes: house rules and watching;
- :mod:`.tables` the :class:`TableService` itself: those parts put together (each an
  object given the registry, no mixins), the daily match, restart.
"""

from .computer import computer_choice, computer_decision, hint_for, make_computer
from .errors import IllegalMove, ServiceError, StaleAction
from .events import (
    ActionApplied,
    DealFinished,
    HostChanged,
    MatchFinished,
    Moment,
    RecordingFailed,
    SeatChanged,
    SeatRequestChanged,
    SeatTimedOut,
    TableChanged,
    TableClosed,
    TableEvent,
    TurnStarted,
)
from .listener import NullListener, TableListener
from .model import (
    BOT_LEVELS,
    DAILY,
    TABLE,
    Actor,
    ActResult,
    CloseReason,
    Pace,
    ServiceConfig,
    Table,
    TableSettings,
    TableStatus,
    as_pace,
    can_be_rated,
    is_preset_unchanged,
    is_tryout,
    phase_of,
)
from .tables import TableService

__all__ = [
    "BOT_LEVELS",
    "DAILY",
    "TABLE",
    "ActResult",
    "ActionApplied",
    "Actor",
    "CloseReason",
    "DealFinished",
    "HostChanged",
    "IllegalMove",
    "MatchFinished",
    "Moment",
    "NullListener",
    "Pace",
    "RecordingFailed",
    "SeatChanged",
    "SeatRequestChanged",
    "SeatTimedOut",
    "ServiceConfig",
    "ServiceError",
    "StaleAction",
    "Table",
    "TableChanged",
    "TableClosed",
    "TableEvent",
    "TableListener",
    "TableService",
    "TableSettings",
    "TableStatus",
    "TurnStarted",
    "as_pace",
    "can_be_rated",
    "computer_choice",
    "computer_decision",
    "hint_for",
    "is_preset_unchanged",
    "is_tryout",
    "make_computer",
    "phase_of",
]
