"""Pictures of the game for Discord: table, auction, results, hand, leaderboard.

Every renderer takes a plain-data view (:mod:`images.views`) and returns PNG
bytes; :mod:`images.build` makes the views from a ``batak.Match``. Card art is
drawn by this package and the only font is the bundled DejaVu Sans
(``images/fonts``, with its licence). ``theme`` is ``"dark"`` (default) or
``"light"``; ``four_colour=True`` draws ♦ blue and ♣ green.

>>> from images import render_table, table_view_from_match
>>> png = render_table(table_view_from_match(match, ["Ayşe", "Mehmet", "Şule", "Emre"]))
"""

from .auction import render_auction
from .build import (
    auction_view_from_match,
    deal_summary_view,
    hand_view_from_match,
    hand_view_from_observation,
    match_result_view,
    players_of,
    table_view_from_match,
    table_view_from_observation,
)
from .hand import render_hand
from .leaderboard import render_leaderboard
from .results import render_deal_summary, render_match_result
from .table import render_table
from .theme import DARK, LIGHT, Theme
from .views import (
    AuctionView,
    ContractView,
    DealSummaryView,
    HandView,
    LeaderboardRow,
    LeaderboardView,
    MatchResultView,
    Player,
    TableView,
    TrickView,
)


def warm_up() -> None:
    """Build the caches (palettes, backgrounds, card sprites) ahead of the first picture.

    Takes a second or two; call it once at start-up (in a thread) so the first
    tables do not pay for it.
    """
    from .cards import card_shadowed
    from .felt import background
    from .palette import palette_for
    from .table import CARD_W, MINI_W
    from .views import RANKS, SUITS

    for theme in (DARK, LIGHT):
        palette_for(theme)
        background(theme)
        for suit in SUITS:
            for rank in RANKS:
                for width in (CARD_W, MINI_W):
                    card_shadowed(rank + suit, width, False, 0.0, theme.shadow_alpha)
    # one picture of each kind in both themes loads the fonts and the shared sprites
    from .samples import handmade_samples, render_sample

    for sample in handmade_samples():
        render_sample(sample)


__all__ = [
    "DARK",
    "LIGHT",
    "AuctionView",
    "ContractView",
    "DealSummaryView",
    "HandView",
    "LeaderboardRow",
    "LeaderboardView",
    "MatchResultView",
    "Player",
    "TableView",
    "Theme",
    "TrickView",
    "auction_view_from_match",
    "deal_summary_view",
    "hand_view_from_match",
    "hand_view_from_observation",
    "match_result_view",
    "players_of",
    "render_auction",
    "render_deal_summary",
    "render_hand",
    "render_leaderboard",
    "render_match_result",
    "render_table",
    "table_view_from_match",
    "table_view_from_observation",
    "warm_up",
]
