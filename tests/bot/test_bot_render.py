"""Public text and pictures never show an unplayed card; catalogues are complete."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

from batak import Match, card_code, card_label, cards_of, preset
from batak.players import make_player
from cogs.components import HAND_RE, TABLE_RE, button_code, hand_id, parse_button_code, table_id
from cogs.i18n import catalogues, missing_keys, resolve, t
from cogs.text.summaries import hand_text, match_result_text, public_summary
from cogs.text.words import players
from data import Game, Seat
from images import build as img_build
from tables import Table

ROOT = Path(__file__).resolve().parents[2]


def fake_table(
    match: Match | None,
    status: str = "playing",
    *,
    seats: tuple[Seat, ...] | None = None,
    table_id: int = 7,
    **settings: Any,
) -> Table:
    """A table of the service, not stored: host 1 in channel 2 of server 1, Alice and Carol
    with two computers unless ``seats`` says otherwise, ``settings`` over the defaults."""
    if seats is None:
        seats = (Seat.human(1, "Alice"), Seat.bot("easy"), Seat.human(3, "Carol"), Seat.bot("hard"))
    game = Game(
        id=table_id,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        host_id=1,
        kind="table",
        status=status,
        phase="play",
        move=0,
        to_act=None,
        settings={"language": "en", "pace": "live"} | settings,
        seats=seats,
        snapshot=None,
        snapshot_move=None,
        table_message_id=None,
        created_at="",
        updated_at="",
        finished_at=None,
    )
    rules = match.rules if match is not None else preset("standard")
    return Table(game=game, match=match, rules=rules)


def unplayed(match: Match) -> set[int]:
    out: set[int] = set()
    if match.is_over:
        return out
    for hand in match.deal.hands:
        out |= set(cards_of(hand))
    return out


def test_public_text_and_table_view_never_show_an_unplayed_card() -> None:
    for name in ("standard", "kanli", "esli"):
        match = Match(preset(name, deals=2), seed=5)
        bots = [make_player("easy", s) for s in range(4)]
        table = fake_table(match)
        steps = 0
        while not match.is_over:
            hidden = unplayed(match)
            for lang in ("en", "tr"):
                text = public_summary(table, lang, "note")
                for c in hidden:
                    assert card_label(c) not in text, (name, card_label(c), text)
            if steps % 7 == 0:
                view = img_build.table_view_from_match(match, players(table, "en"), 0)
                shown: set[str] = set()
                for trick in (view.trick, view.last_trick):
                    if trick is not None:
                        shown |= set(trick.cards)
                assert not shown & {card_code(c) for c in hidden}
                names = {f.name for f in fields(view)}
                assert "hand" not in names and "hands" not in names
            seat = match.to_act
            assert seat is not None
            match.apply(bots[seat].choose(match.observation(seat)), seat)
            steps += 1
        text = match_result_text(table, None, "en")
        assert "Alice" in text


def test_hand_text_shows_only_the_owners_cards() -> None:
    match = Match(preset("standard"), seed=11)
    table = fake_table(match)
    text = hand_text(table, 0, "en")
    mine = set(cards_of(match.deal.hands[0]))
    for seat in (1, 2, 3):
        for c in cards_of(match.deal.hands[seat]):
            assert card_label(c) not in text
    assert any(card_label(c) in text for c in mine)


def test_button_codes_round_trip_and_ids_fit() -> None:
    match = Match(preset("standard"), seed=3)
    for action in match.legal_actions():
        code = button_code(action)
        assert parse_button_code(code) == action
    for code in ("cTH", "tS", "b13", "p"):
        parsed = parse_button_code(code)
        assert parsed is not None and button_code(parsed) == code
    for bad in ("x", "b99", "cZZ", "t", "tX", "c1H", ""):
        assert parse_button_code(bad) is None
    big = hand_id(10**17, 3, 999_999, "cTH")
    assert len(big) <= 100 and re.fullmatch(HAND_RE, big)
    assert re.fullmatch(TABLE_RE, table_id(10**17, "rematch"))


def test_catalogues_are_complete_and_every_key_used_exists() -> None:
    assert all(not keys for keys in missing_keys().values())
    en = catalogues()["en"]
    code = [*(ROOT / "cogs").rglob("*.py"), *(ROOT / "tables").rglob("*.py")]
    source = "\n".join(p.read_text() for p in code)
    used = set(re.findall(r"""\bt\(\s*"([a-z_.\-]+)\"""", source))
    used |= set(re.findall(r"""ServiceError\(\s*"([a-z_.]+)\"""", source))
    used |= set(re.findall(r"""\bls\([^()]*?"([a-z_.\-]+)"\)""", source))
    assert used, "the scan found nothing"
    dynamic = {
        f"{p}.{v}"
        for p in ("preset",)
        for v in ("standard", "classic", "esli", "koz-maca", "kanli")
    }
    dynamic |= {f"level.{v}" for v in ("easy", "normal", "hard", "expert", "auto")}
    dynamic |= {f"pace.{v}" for v in ("live", "async")}
    dynamic |= {"period.all", "period.month", "leaderboard.title_rating", "leaderboard.title_wins"}
    dynamic |= {f"rules.trump_lead.{v}" for v in ("after-trump-played", "after-ruff", "free")}
    dynamic |= {f"rules.scoring.{v}" for v in ("tens", "tricks")}
    missing = sorted(k for k in used | dynamic if k not in en)
    assert missing == []
    for path in (ROOT / "locales").glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, text in data.items():
            if key.startswith("_"):
                continue
            wanted = set(re.findall(r"{(\w+)[}:]", json.dumps(en[key])))
            assert set(re.findall(r"{(\w+)[}:]", json.dumps(text))) == wanted, (path.name, key)


def test_locale_resolution() -> None:
    assert resolve("tr", "en") == "tr"
    assert resolve("en-US", "tr") == "en"
    assert resolve("ja", "tr") == "tr"
    assert resolve("ja", None) == "en"
    assert resolve("pt-BR", "tr") == "pt"
    assert t("button.pass", "tr") == "Pas"
    assert t("no.such.key", "tr") == "no.such.key"
