"""The Discord side of tournaments without Discord: who may open one, the button ids,
the words of the sign-up message and the standings, the organiser role setting shown."""

from __future__ import annotations

from dataclasses import replace

from batak.swiss import TableResult, standings
from cogs.components.tournament import parse_tournament_id, tournament_id
from cogs.text.standings import settings_text
from cogs.text.tournament import final_text, round_text, signup_text, standings_text
from cogs.tournament import may_organise, standing_rows
from data import Entrant, GuildSettings, Tournament, TournamentTable
from tables.tournament import Board

TOUR = Tournament(
    id=7, guild_id=1, channel_id=2, organiser_id=900, status="running", rounds=3,
    current_round=1, pace="live", round_deadline_s=7200, settings={"language": "en"},
    signup_message_id=None, round_deadline_at="2026-06-01T20:00:00.000+00:00",
    announced_round=0, winner_id=None, created_at="2026-06-01T18:00:00.000+00:00",
    finished_at=None, final_announced_at=None,
)  # fmt: skip


def board() -> Board:
    names = {1: "Ana", 2: "Ben", 3: "**Cem**", 4: "Dia", 5: "Eda"}
    entrants = tuple(
        Entrant(u, n, u, "2026-06-01", 1 if u == 5 else None) for u, n in names.items()
    )
    tables = (
        TournamentTable(7, 1, 1, (1, 2, 3, None), 41, (1, 2, 3, 4), (30, 20, 10, 0), "x"),
        TournamentTable(7, 1, 2, (4, 5, None, None), 42, (2, 1, 3, 4), (5, 9, 1, 0), "x"),
    )
    lines = standings(
        list(names),
        [TableResult(t.players, t.placements or (), t.totals or ()) for t in tables],
        withdrawn={5},
    )
    return Board(TOUR, entrants, tuple(lines), tables)


def test_who_may_open_a_tournament() -> None:
    g = GuildSettings(1)
    assert may_organise(True, [], g)
    assert not may_organise(False, [55], g)
    g = replace(g, tournament_role=55)
    assert may_organise(False, [3, 55], g)
    assert not may_organise(False, [3], g)


def test_only_the_ids_the_bot_writes_are_read() -> None:
    assert tournament_id(7, "join") == "bz:7:join"
    click = parse_tournament_id("bz:7:leave")
    assert click is not None and (click.tournament, click.what) == (7, "leave")
    for forged in ("bz:07:join", "bz:0:join", "bz:7:start", "bz:7:join:x", "bx:7:join"):
        assert parse_tournament_id(forged) is None, forged


def test_the_words_of_a_tournament() -> None:
    b = board()
    text = signup_text(replace(b, tournament=replace(TOUR, status="signup")), "en")
    assert "**Tournament #7**" in text and "rounds: 3" in text and "2 h" in text
    assert "Signed up (4): Ana, Ben, \\*\\*Cem\\*\\*, Dia" in text  # a name is never markup
    assert "Eda" not in text  # withdrawn
    rt = round_text(b, 1, "en")
    assert "round 1 of 3** has begun" in rt and "<t:1780344000:f>" in rt
    assert "Table 1: Ana, Ben, \\*\\*Cem\\*\\*, computer → table #41" in rt
    assert "Table 2: Dia, Eda, computer, computer → table #42" in rt
    st = standings_text(b, 1, "en")
    lines = st.splitlines()
    assert lines[0].startswith("**Tournament #7 · standings after round 1 of 3**")
    assert lines[1] == "1. Ana · 3 pts · opp. 3 · score 30"
    assert lines[2] == "2. Eda · 3 pts · opp. 2 · score 9 (withdrawn)"
    ft = final_text(b, 1, "tr")
    assert ft.startswith("🏆 **Turnuva #7 bitti.** Kazanan: <@1>.")
    rows = standing_rows(b)
    assert [r.name for r in rows][:2] == ["Ana", "Eda"] and rows[1].withdrawn


def test_the_organiser_role_is_shown_in_the_settings() -> None:
    g = GuildSettings(1)
    assert "May open tournaments: Manage Server (no organiser role)" in settings_text(g, "en")
    shown = settings_text(replace(g, tournament_role=55), "en")
    assert "May open tournaments: Manage Server, and <@&55>" in shown
