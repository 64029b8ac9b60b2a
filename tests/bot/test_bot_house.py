"""House rules and spectators without Discord: reading the rules text, the engine's
refusals naming the option, the host's lobby changes, watching on and off, the hands of a
finished deal, the panel's custom ids."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_bot_service import ALICE, BOB, CHANNEL, GUILD, make_service, play_out

from batak import Rules, RulesError
from cogs.components.panel import HOUSE_ACTIONS, house_id, parse_house_id
from cogs.text.house import complete, house_line, panel_text, parse_rules, read_value
from cogs.text.rules import rules_text
from cogs.text.spectators import dealt_hands_text
from cogs.text.summaries import deal_summary_text, public_summary
from cogs.watch import spectator_text
from tables import ServiceError, TableService


# ----------------------------------------------------------------------------- reading
def test_parse_rules_reads_every_kind_of_value() -> None:
    got = parse_rules(
        "min_bid=6, partnership=on overtake-when-trumped=yes fixed_trump=h "
        "forced_bid=none deals=3 scoring=TRICKS blind_bidding=off"
    )
    assert got == {
        "min_bid": 6,
        "partnership": True,
        "overtake_when_trumped": True,
        "fixed_trump": "H",
        "forced_bid": None,
        "deals": 3,
        "scoring": "tricks",
        "blind_bidding": False,
    }
    assert parse_rules("preset=Classic") == {"preset": "classic"}
    assert parse_rules("   ") == {}


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("min_bid", "'min_bid': write each option as name=value"),
        ("min_bid=", "write each option as name=value"),
        ("trumps=S", "'trumps': no such option"),
        ("min_bid=5 min_bid=6", "min_bid: given twice"),
        ("partnership=maybe", "partnership: 'maybe' is not allowed; expected on or off"),
        ("deals=eight", "deals: 'eight' is not allowed; expected a number"),
        ("preset=bridge", "preset: 'bridge' is not a preset"),
        ("x=1 " * 200, "rules: at most 400 characters"),
    ],
)
def test_parse_rules_names_what_is_wrong(text: str, named: str) -> None:
    with pytest.raises(RulesError) as err:
        parse_rules(text)
    assert named in str(err.value)


def test_read_value_leaves_the_judging_to_the_engine() -> None:
    # read, not judged: 14 is a number; the engine refuses it, naming the option
    assert read_value("min_bid", "14") == 14
    with pytest.raises(RulesError, match=r"^min_bid: 14 is not allowed"):
        Rules.from_dict({"min_bid": 14})


def test_autocomplete_finishes_the_last_word() -> None:
    assert complete("")[:2] == ["min_bid=", "forced_bid="]
    assert complete("par") == ["partnership="]
    assert complete("partnership=") == ["partnership=on", "partnership=off"]
    assert complete("min_bid=6 trump_lead=f") == ["min_bid=6 trump_lead=free"]
    assert "min_bid=" not in " ".join(complete("min_bid=6 m"))  # given already
    assert complete("nonsense=") == []


# ----------------------------------------------------------------------------- the service
async def test_new_table_with_house_rules_is_casual(env: Any) -> None:
    service, _rec, _timers, _store = env
    table = await service.create_table(
        GUILD, CHANNEL, ALICE, "Alice", preset_name="classic", options=parse_rules("min_bid=6")
    )
    assert table.rules == Rules.from_preset("classic", min_bid=6)
    assert not table.settings.rated
    text = public_summary(table, "en")
    assert "House rules: min_bid=6" in text and "Casual table" in text
    assert house_line(table.rules, "en") == "House rules: min_bid=6"
    # the match length alone is no house rule
    assert house_line(Rules.from_preset("esli", deals=2), "en") is None


@pytest.mark.parametrize(
    ("preset", "options", "option"),
    [
        ("classic", "all_pass=dealer-forced", "forced_bid"),  # a combination
        ("standard", "min_bid=14", "min_bid"),
        ("standard", "forced_bid=none", "forced_bid"),
        ("standard", "fixed_trump=X", "fixed_trump"),
        ("standard", "trump_lead=never", "trump_lead"),
        ("standard", "deals=21", "deals"),
    ],
)
async def test_invalid_rules_are_refused_naming_the_option(
    env: Any, preset: str, options: str, option: str
) -> None:
    service, rec, _timers, store = env
    with pytest.raises(ServiceError) as err:
        await service.create_table(
            GUILD, CHANNEL, ALICE, "Alice", preset_name=preset, options=parse_rules(options)
        )
    assert err.value.key == "error.bad_rules"
    assert str(err.value.params["reason"]).startswith(f"{option}:")
    assert service.tables == {} and rec.events == []
    assert await store.games.open_games() == []  # nothing was made


async def test_the_host_changes_the_rules_in_the_lobby(env: Any) -> None:
    service, rec, _timers, _store = env
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice")
    await service.join(table.id, BOB, "Bob")
    assert table.settings.rated
    with pytest.raises(ServiceError) as err:
        await service.set_rules(table.id, BOB, {"min_bid": 6})
    assert err.value.key == "error.host_only"
    before = table.game
    with pytest.raises(ServiceError) as err:
        await service.set_rules(table.id, ALICE, {"all_pass": "dealer-must-bid", "min_bid": 0})
    assert err.value.key == "error.bad_rules" and "min_bid" in str(err.value.params["reason"])
    assert table.game is before and table.settings.rated  # nothing changed

    await service.set_rules(table.id, ALICE, {"partnership": True, "tie_break": "share"})
    assert table.rules.partnership and table.rules.tie_break == "share"
    assert not table.settings.rated and rec.kinds("changed")
    # back to the preset: the table was announced casual, and stays casual
    await service.set_rules(table.id, ALICE, Rules().to_dict())
    assert table.rules == Rules() and not table.settings.rated
    await service.set_watching(table.id, ALICE, False)
    assert not table.settings.watching and "Watching is off" in public_summary(table, "en")

    await service.set_rules(table.id, ALICE, {"preset": "koz-maca", "min_bid": 7})
    assert table.rules == Rules.from_preset("koz-maca", min_bid=7)
    text = rules_text(table.rules, "en", table=table.id)
    assert (
        text.startswith("**İhaleli Batak — Koz Maça") and f"in force at table #{table.id}" in text
    )
    assert "House rules: min_bid=7" in text and "at least 7" in text
    panel = panel_text(table.rules, table.id, False, False, "en")
    assert "`min_bid` = **7** ✱" in panel and "`fixed_trump` = **S**" in panel

    await service.start(table.id, ALICE)
    with pytest.raises(ServiceError) as err:
        await service.set_rules(table.id, ALICE, {"min_bid": 8})
    assert err.value.key == "error.already_started"
    assert table.match is not None and table.match.rules.min_bid == 7


async def test_switching_the_preset_in_the_lobby_keeps_a_rated_table_rated(env: Any) -> None:
    service, _rec, _timers, _store = env
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=3)
    await service.set_rules(table.id, ALICE, {"preset": read_value("preset", "Classic")})
    assert table.rules == Rules.from_preset("classic", deals=3)  # the length is kept
    assert table.settings.rated and house_line(table.rules, "en") is None
    with pytest.raises(RulesError, match=r"^preset: 'bridge' is not a preset"):
        read_value("preset", "bridge")


async def test_house_rules_are_played_recorded_and_kept(env: Any) -> None:
    from batak.records import loads

    service, _rec, timers, store = env
    options = parse_rules("min_bid=6 trump_lead=free overtake_when_trumped=on deals=1")
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", options=options)
    await service.start(table.id, ALICE)
    assert table.match is not None and table.match.rules.trump_lead == "free"
    await play_out(service, timers, table)
    assert table.summary is not None and not table.summary.rated
    assert await store.standings.leaderboard(GUILD) == []
    deals = loads(await store.matches.match_records_jsonl([table.summary.id]))
    assert len(deals) == len(table.match.finished) >= 1  # more after a tie for first
    for deal in deals:
        assert deal.rules.min_bid == 6 and deal.rules.trump_lead == "free"
        assert deal.rules.overtake_when_trumped
    # every contract of the match honours the house minimum
    assert all(c.bid >= 6 or c.forced for d in table.match.finished if (c := d.contract))
    text = deal_summary_text(table, 0, "en")
    assert "The hands as dealt:" in text
    # the rematch plays the same house rules
    again = await service.rematch(table.id, ALICE, "Alice")
    assert again.rules == table.rules and not again.settings.rated


async def test_watching_who_may_and_the_hands_of_a_finished_deal(env: Any) -> None:
    service, _rec, timers, _store = env
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=1)
    with pytest.raises(ServiceError) as err:
        service.watchable(table.id, BOB)
    assert err.value.key == "error.not_started"
    await service.start(table.id, ALICE)
    with pytest.raises(ServiceError) as err:
        service.watchable(table.id, ALICE)
    assert err.value.key == "error.watch_seated"
    assert service.watchable(table.id, BOB) is table
    match = table.match
    assert match is not None
    hands = list(match.deal.hands)
    text = spectator_text(table, "en")
    assert text.startswith(f"👁 Watching table #{table.id}") and "as dealt" not in text
    await play_out(service, timers, table)
    dealt = dealt_hands_text(table, 0, "en")
    lines = dealt.splitlines()
    assert lines[0] == "The hands as dealt:" and len(lines) == 5
    from cogs.text.spectators import hand_line

    for seat in range(4):
        assert lines[seat + 1].endswith(hand_line(hands[seat]))
        assert len(hand_line(hands[seat]).split(" · ")) == 4
    assert dealt in spectator_text(table, "en")  # the match is over: shown to spectators


async def test_watching_off_is_refused(env: Any) -> None:
    service, _rec, _timers, _store = env
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=1)
    with pytest.raises(ServiceError) as err:
        await service.set_watching(table.id, BOB, False)
    assert err.value.key == "error.host_only"
    await service.set_watching(table.id, ALICE, False)
    await service.start(table.id, ALICE)
    with pytest.raises(ServiceError) as err:
        service.watchable(table.id, BOB)
    assert err.value.key == "error.watching_off"


async def test_house_rules_and_watching_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    service, _rec, _timers, store = await make_service(path)
    table = await service.create_table(
        GUILD, CHANNEL, ALICE, "Alice", options={"fixed_trump": "D", "blind_bidding": True}
    )
    await service.set_watching(table.id, ALICE, False)
    await service.start(table.id, ALICE)
    await service.close()
    await store.close()
    service2: TableService
    service2, _rec2, _timers2, store2 = await make_service(path)
    try:
        await service2.restore()
        again = service2.get(table.id)
        assert again.rules == Rules.from_dict({"fixed_trump": "D", "blind_bidding": True})
        assert not again.settings.watching and not again.settings.rated
    finally:
        await service2.close()
        await store2.close()


# ----------------------------------------------------------------------------- components
def test_panel_ids_round_trip_and_forgeries_are_refused() -> None:
    for what in HOUSE_ACTIONS:
        if what == "set":
            continue
        click = parse_house_id(house_id(12, what))
        assert click is not None and (click.table, click.what, click.option) == (12, what, None)
    click = parse_house_id(house_id(12, "set", "min_bid"))
    assert click is not None and click.option == "min_bid"
    for forged in (
        "bh:12:set",
        "bh:12:set:seed",
        "bh:12:opt:min_bid",
        "bh:012:watch",
        "bh:0:watch",
        "bh:12:peek",
        "bh:12",
        "bx:12:watch",
        "bh:١٢:watch",
    ):
        assert parse_house_id(forged) is None, forged


async def test_the_table_picture_names_house_rules(env: Any) -> None:
    from cogs import pictures

    service, _rec, _timers, _store = env
    plain = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=1)
    await service.start(plain.id, ALICE)
    drawing = pictures.table_picture(plain, "en")
    assert drawing is not None and drawing.view.preset == "standard"
    house = await service.create_table(
        GUILD, CHANNEL + 1, BOB, "Bob", options={"blind_bidding": True}
    )
    await service.start(house.id, BOB)
    drawing = pictures.table_picture(house, "tr")
    assert drawing is not None and drawing.view.preset == "Masa kuralları"
