"""Colour themes: a dark one that sits on Discord's dark mode, and a light one."""

from __future__ import annotations

from dataclasses import dataclass

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class Theme:
    name: str
    bg: Colour
    panel: Colour
    panel_border: Colour
    text: Colour
    dim: Colour
    faint: Colour
    felt: Colour
    felt_centre: Colour
    felt_edge: Colour
    felt_text: Colour
    accent: Colour
    accent_text: Colour
    good: Colour
    bad: Colour
    team_colours: tuple[Colour, Colour]
    row_alt: Colour
    shadow_alpha: int


DARK = Theme(
    name="dark",
    bg=(30, 31, 34),
    panel=(43, 45, 49),
    panel_border=(66, 69, 75),
    text=(242, 243, 245),
    dim=(181, 186, 193),
    faint=(120, 124, 132),
    felt=(22, 84, 58),
    felt_centre=(32, 108, 74),
    felt_edge=(14, 52, 36),
    felt_text=(196, 226, 208),
    accent=(250, 196, 60),
    accent_text=(30, 31, 34),
    good=(87, 200, 120),
    bad=(240, 96, 96),
    team_colours=((88, 151, 242), (240, 140, 60)),
    row_alt=(37, 39, 43),
    shadow_alpha=150,
)

LIGHT = Theme(
    name="light",
    bg=(240, 241, 244),
    panel=(255, 255, 255),
    panel_border=(208, 212, 218),
    text=(32, 34, 38),
    dim=(84, 90, 100),
    faint=(150, 155, 165),
    felt=(44, 128, 86),
    felt_centre=(58, 150, 103),
    felt_edge=(30, 98, 64),
    felt_text=(226, 244, 233),
    accent=(232, 160, 0),
    accent_text=(255, 255, 255),
    good=(30, 150, 70),
    bad=(214, 48, 49),
    team_colours=((40, 110, 220), (220, 110, 20)),
    row_alt=(246, 247, 249),
    shadow_alpha=70,
)

THEMES = {"dark": DARK, "light": LIGHT}


def get_theme(theme: str | Theme) -> Theme:
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[theme]
    except KeyError:
        raise ValueError(f"unknown theme {theme!r}; choose from {sorted(THEMES)}") from None


# medal colours of the first three places (leaderboard)
MEDALS: dict[int, Colour] = {1: (236, 184, 40), 2: (176, 184, 196), 3: (205, 127, 70)}
