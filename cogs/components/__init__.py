"""Message components: the ``custom_id`` codec, the restart-proof buttons, the views.

- :mod:`.codec` what a button's ``custom_id`` carries, and the action codes;
- :mod:`.buttons` the buttons and the views that carry them;
- :mod:`.views` the buttons of the table message and of a hand.
"""

from .buttons import Components, HandButton, TableButton, release, view_of
from .codec import (
    HAND_RE,
    HAND_TOOLS,
    HINT,
    REFRESH,
    TABLE_ACTIONS,
    TABLE_RE,
    HandClick,
    TableClick,
    button_code,
    hand_id,
    has_component,
    parse_button_code,
    parse_custom_id,
    table_id,
)
from .views import hand_view, table_view

__all__ = [
    "HAND_RE",
    "HAND_TOOLS",
    "HINT",
    "REFRESH",
    "TABLE_ACTIONS",
    "TABLE_RE",
    "Components",
    "HandButton",
    "HandClick",
    "TableButton",
    "TableClick",
    "button_code",
    "hand_id",
    "hand_view",
    "has_component",
    "parse_button_code",
    "parse_custom_id",
    "release",
    "table_id",
    "table_view",
    "view_of",
]
