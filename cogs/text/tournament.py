"""A tournament's words: the sign-up message, a round's tables, the standings (points,
then the tie-breaks) and the final result. Names are data (:func:`safe_name`), never
markup; nobody is pinged."""

from __future__ import annotations

from datetime import datetime

from tables.tournament import Board

from ..i18n import t
from .words import clip, safe_name

MAX_LINES = 32
"""Standings lines a message lists (the picture shows 16)."""


def _name(board: Board, user_id: int | None, lang: str) -> str:
    if user_id is None:
        return t("tournament.computer", lang)
    return safe_name(board.name_of(user_id))


def rounds_text(board: Board, lang: str) -> str:
    n = board.tournament.rounds
    return t("tournament.rounds_auto", lang) if n is None else t("tournament.rounds_n", lang, n=n)


def signup_text(board: Board, lang: str) -> str:
    """The sign-up message: the format, the organiser, who signed up."""
    tour = board.tournament
    head = t(
        "tournament.signup",
        lang,
        id=tour.id,
        rounds=rounds_text(board, lang),
        pace=t(f"pace.{tour.pace}", lang),
        hours=max(1, tour.round_deadline_s // 3600),
        organiser=f"<@{tour.organiser_id}>",
        join=t("button.sign_up", lang),
    )
    people = [e for e in board.entrants if e.active]
    if not people:
        return clip(head + "\n" + t("tournament.nobody", lang))
    names = ", ".join(safe_name(e.name or str(e.user_id)) for e in people)
    return clip(head + "\n" + t("tournament.entrants", lang, count=len(people), names=names))


def round_text(board: Board, round_no: int, lang: str) -> str:
    """A round has begun: its tables and who sits at each, and the deadline."""
    tour = board.tournament
    due = tour.round_deadline_at
    deadline = f"<t:{int(datetime.fromisoformat(due).timestamp())}:f>" if due else "—"
    lines = [
        t(
            "tournament.round_started",
            lang,
            id=tour.id,
            round=round_no,
            rounds=tour.rounds or round_no,
            deadline=deadline,
        )
    ]
    for row in board.tables:
        if row.round_no != round_no:
            continue
        players = ", ".join(_name(board, p, lang) for p in row.players)
        lines.append(
            t("tournament.table_line", lang, no=row.table_no, players=players, table=row.game_id)
        )
    return clip("\n".join(lines))


def standings_lines(board: Board, lang: str) -> list[str]:
    out = []
    for s in board.standings[:MAX_LINES]:
        line = t(
            "tournament.standing_line",
            lang,
            rank=s.rank,
            name=safe_name(board.name_of(s.player)),
            points=s.points,
            opp=s.opponents_points,
            score=s.score,
        )
        if s.withdrawn:
            line += " " + t("tournament.withdrawn_mark", lang)
        out.append(line)
    return out


def standings_text(board: Board, round_no: int, lang: str) -> str:
    """The standings after ``round_no`` (points, opponents' points, score)."""
    tour = board.tournament
    head = t(
        "tournament.standings_after",
        lang,
        id=tour.id,
        round=round_no,
        rounds=tour.rounds or round_no,
    )
    return clip("\n".join([head, *standings_lines(board, lang)]))


def final_text(board: Board, winner_id: int | None, lang: str) -> str:
    """The tournament is over: the winner (named, not pinged) and the final standings."""
    tour = board.tournament
    winner = "—" if winner_id is None else f"<@{winner_id}>"
    head = t("tournament.final", lang, id=tour.id, winner=winner)
    return clip("\n".join([head, *standings_lines(board, lang)]))
