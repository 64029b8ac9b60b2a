"""Message components: the ``custom_id`` codec, the restart-proof buttons, the views.

- :mod:`.codec` what a button's ``custom_id`` carries, and the action codes;
- :mod:`.buttons` the :class:`discord.ui.DynamicItem` buttons and view helpers;
- :mod:`.views` the buttons of the table message and of a hand.
"""

from .buttons import HandButton, TableButton, release, view_of
from .codec import (
    HAND_RE,
    TABLE_ACTIONS,
    TABLE_RE,
    button_code,
    hand_id,
    has_component,
    parse_button_code,
    table_id,
)
from .views import hand_view, table_view

__all__ = [
    "HAND_RE",
    "TABLE_ACTIONS",
    "TABLE_RE",
    "HandButton",
    "TableButton",
    "button_code",
    "hand_id",
    "hand_view",
    "has_component",
    "parse_button_code",
    "release",
    "table_id",
    "table_view",
    "view_of",
]
