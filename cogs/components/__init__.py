"""Message components: the ``custom_id`` codec, the buttons (discord.py dynamic items),
the views.

- :mod:`.codec` what a hand or table button's ``custom_id`` carries, and the action
  codes;
- :mod:`.buttons` :class:`Press`, the base of every button (and menu) of ours: a
  ``DynamicItem`` whose template is its family's id, that draws the button and receives
  its presses; the hand and table buttons; the views that carry them;
- :mod:`.seats` the seat buttons; :mod:`.panel` the host's rules panel and the
  spectators' buttons (the Review and Compare buttons are :mod:`cogs.review`'s);
- :mod:`.views` the buttons of the table message and of a hand.

The cog registers the families once (``bot.add_dynamic_items``); discord.py then turns
each press into an item of its family, which sends it to
:meth:`cogs.batak_cog.BatakCog.pressed`.
"""

from .buttons import (
    Components,
    HandButton,
    Prebuilt,
    Press,
    TableButton,
    dispatched,
    matching,
    release,
    view_of,
)
from .codec import (
    HAND_RE,
    HAND_TOOLS,
    HINT,
    REFRESH,
    TABLE_ACTIONS,
    TABLE_RE,
    WAIT,
    HandClick,
    TableClick,
    button_code,
    hand_id,
    has_component,
    parse_button_code,
    parse_hand_id,
    parse_table_id,
    table_id,
)
from .views import (
    LABEL_LIMIT,
    button_label,
    hand_components,
    hand_view,
    hints_offered,
    table_view,
)

__all__ = [
    "HAND_RE",
    "HAND_TOOLS",
    "HINT",
    "LABEL_LIMIT",
    "REFRESH",
    "TABLE_ACTIONS",
    "TABLE_RE",
    "WAIT",
    "Components",
    "HandButton",
    "HandClick",
    "Prebuilt",
    "Press",
    "TableButton",
    "TableClick",
    "button_code",
    "button_label",
    "dispatched",
    "hand_components",
    "hand_id",
    "hand_view",
    "has_component",
    "hints_offered",
    "matching",
    "parse_button_code",
    "parse_hand_id",
    "parse_table_id",
    "release",
    "table_id",
    "table_view",
    "view_of",
]
