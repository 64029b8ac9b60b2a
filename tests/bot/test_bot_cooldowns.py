"""Fair shares: a few heavy requests per person, then a private "try again <when>"."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.cooldowns import LIMITS, Cooldown, Cooldowns, Limit
from cogs.i18n import catalogues
from cogs.replies import Languages, fail
from cogs.review import Reviews
from cogs.text.refusals import error_text
from data import Store
from tests.bot.test_bot_replies import FakeInteraction


class Clock:
    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_few_uses_then_a_cooldown_until_the_oldest_leaves_the_window() -> None:
    clock = Clock()
    limits = Cooldowns({"replay": Limit(3, 30.0)}, clock)
    for _ in range(3):
        limits.use("replay", 7)
        clock.now += 1
    with pytest.raises(Cooldown) as refused:
        limits.use("replay", 7)
    first = 1_700_000_000.0
    assert refused.value.retry_at == first + 30
    assert refused.value.key == "error.cooldown"
    assert refused.value.params == {"when": f"<t:{int(first) + 30}:R>"}
    # a refused request does not count: waiting until then is enough
    clock.now = first + 29.5
    with pytest.raises(Cooldown):
        limits.use("replay", 7)
    clock.now = first + 30
    limits.use("replay", 7)  # the first use left the window
    with pytest.raises(Cooldown) as again:
        limits.use("replay", 7)
    assert again.value.retry_at == first + 31  # the second use leaves next


def test_people_and_kinds_have_their_own_windows() -> None:
    clock = Clock()
    limits = Cooldowns({"replay": Limit(2, 30.0), "daily": Limit(1, 60.0)}, clock)
    limits.use("replay", 1)
    limits.use("replay", 1)
    with pytest.raises(Cooldown):
        limits.use("replay", 1)
    limits.use("replay", 2)  # someone else
    limits.use("daily", 1)  # another kind
    with pytest.raises(Cooldown) as daily:
        limits.use("daily", 1)
    assert daily.value.retry_at == clock.now + 60


def test_old_windows_are_dropped() -> None:
    clock = Clock()
    limits = Cooldowns({"review": Limit(3, 30.0)}, clock)
    limits.SWEEP_AT = 10
    for user in range(10):
        limits.use("review", user)
    clock.now += 31
    limits.use("review", 99)  # the sweep drops the ten windows that emptied
    assert len(limits) == 1


def test_a_normal_player_never_meets_the_limits() -> None:
    """Replay and review: 3 per 30 s; daily: 5 per 60 s (the user guide says so)."""
    assert LIMITS["replay"] == Limit(3, 30.0)
    assert LIMITS["review"] == Limit(3, 30.0)
    assert LIMITS["daily"] == Limit(5, 60.0)


def test_every_catalogue_says_when_to_try_again() -> None:
    for lang in catalogues():
        text = error_text(Cooldown("replay", 1_700_000_030.0), lang)
        assert "<t:1700000030:R>" in text and "{" not in text, lang


@pytest.fixture
async def languages(tmp_path: Path) -> AsyncIterator[Languages]:
    store = await Store.open(tmp_path / "cooldowns.db")
    try:
        yield Languages(store)
    finally:
        await store.close()


async def test_the_fourth_review_press_is_answered_privately_with_when(
    languages: Languages,
) -> None:
    """The Review button: three presses are looked at (no such deal here), the fourth of
    the same person is told in Turkish when to try again, before any work or deferral;
    another person's press is looked at as usual."""
    clock = Clock()

    async def no_game(table_id: int) -> Any:
        raise KeyError(table_id)

    bot: Any = SimpleNamespace(
        store=SimpleNamespace(games=SimpleNamespace(load_game=no_game)),
        service=SimpleNamespace(tables={}, finished={}),
    )
    reviews = Reviews(bot, languages, Cooldowns(clock=clock))
    no_deal = error_text_of("error.no_deal", "tr")
    for _ in range(3):
        press: Any = FakeInteraction(locale="tr")
        await reviews.on_review_button(press, 5, 0)
        assert press.calls[-1] == ("edit_original", no_deal)
    fourth: Any = FakeInteraction(locale="tr")
    await reviews.on_review_button(fourth, 5, 0)
    ((route, text),) = fourth.calls  # one private answer, nothing deferred
    assert route == "respond"
    assert text == error_text(Cooldown("review", clock.now + 30), "tr")
    assert "<t:" in text and "yeniden isteyebilirsin" in text
    other: Any = FakeInteraction(locale="tr", user=SimpleNamespace(id=8))
    await reviews.on_review_button(other, 5, 0)
    assert other.calls[-1] == ("edit_original", no_deal)


def error_text_of(key: str, lang: str) -> str:
    from cogs.i18n import t

    return t(key, lang)


async def test_a_cooldown_refusal_goes_through_the_one_answer(languages: Languages) -> None:
    interaction: Any = FakeInteraction(locale="de")
    await fail(interaction, Cooldown("daily", 1_700_000_060.0), languages)
    ((route, text),) = interaction.calls
    assert route == "respond" and "<t:1700000060:R>" in text and "wieder" in text
