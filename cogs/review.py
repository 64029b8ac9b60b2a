"""Replays, reviews and the daily comparison: finished deals looked at again.

- ``/batak replay`` posts the animated replay of a finished deal (drawn in the heavy
  worker, made to fit the server's upload limit), from a table, a stored match, today's
  daily (once the person has finished it) or an uploaded ``batak-deal/1`` file;
- ``/batak review`` and the Review button of a deal summary answer privately with
  :func:`batak.review.review_deal`, computed in the heavy worker and cached per deal;
- the Compare button of ``/batak daily`` lists today's daily deals as everyone in the
  server played them.

Nothing here decides anything about the game: the deals come from the store or the
service, the judgements from :mod:`batak.review`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import json
import logging
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from batak import Deal, Match
from batak.records import RecordError, deal_from_record, loads
from batak.review import Review, pars_of_records, review_record
from batak.scoring import side_tricks
from batak.solver import native_search
from data import user_key
from images.replay_fit import fit_replay
from tables import ServiceError, Table, TableSettings, workers

from .components import Press, view_of
from .cooldowns import Cooldowns
from .i18n import t
from .replies import Languages, fail, guild_of, send
from .text.review import CompareRow, compare_text, review_text
from .text.words import seat_names

if TYPE_CHECKING:
    from bot import BatakBot

    from .batak_cog import BatakCog

log = logging.getLogger(__name__)

MAX_REPLAY_BYTES = 8 * 1024 * 1024
"""The replay is kept at or under 8 MB, and under the server's own limit."""

MAX_UPLOAD_BYTES = 2 * 1024 * 1024
"""A larger upload is refused unread (a 20-deal match is about 40 kB)."""

COMPARE_PAR_NODES = 10_000_000 if native_search() else 200_000
"""Solver nodes per par in the daily comparison (cached per hands and contract, so
everyone who reached the same contract shares one search): one to three seconds at
most with the C search, whose full deals mostly need 0.01 to 4 million."""

REVIEW_RE = r"br:(?P<table>[0-9]{1,18}):(?P<deal>[0-9]{1,2})"
COMPARE_RE = r"bd:(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2})"


@dataclass(frozen=True, slots=True)
class FoundDeal:
    """A finished deal to show: its record, the seats' names, the seats of people (their
    decisions are reviewed), its number in the match and, for a daily deal, its day."""

    record: dict[str, Any]
    names: tuple[str, ...]
    people: tuple[int, ...]
    number: int
    daily_day: str | None = None


def _pick(records: Sequence[dict[str, Any]], deal: int | None) -> tuple[dict[str, Any], int]:
    if not records:
        raise ServiceError("error.no_deal")
    if deal is None:
        return records[-1], len(records)
    if not 1 <= deal <= len(records):
        raise ServiceError("error.bad_deal_number", count=len(records))
    return records[deal - 1], deal


def read_upload(data: bytes, deal: int | None) -> tuple[dict[str, Any], int]:
    """The chosen deal's record from an uploaded file (one deal or JSON Lines). A bad file
    is refused in the reader's words: not text, empty, a line that is no JSON, or a field
    of a record (``error.bad_record_field``); the field's path (``auction[3].bid``) and
    the record reader's detail stay as the format writes them."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ServiceError("error.record_not_text") from exc
    try:
        deals = loads(text)
    except RecordError as exc:
        raise record_error(exc) from exc
    if not deals:
        raise ServiceError("error.record_empty")
    chosen, number = _pick([_record(d, i) for i, d in enumerate(deals, 1)], deal)
    return chosen, number


def record_error(exc: RecordError) -> ServiceError:
    """The refusal of a record the reader could not take: the line and the field's path
    in a sentence of the reader's language, the reader's detail (English) as written."""
    problem = exc.problem.replace("`", "'")  # shown in code marks
    if exc.line is not None and exc.field is not None:
        field = exc.field.replace("`", "'")
        return ServiceError("error.bad_record_field", line=exc.line, field=field, problem=problem)
    if exc.line is not None:
        detail = problem.removeprefix("not JSON: ")
        return ServiceError("error.bad_record_line", line=exc.line, problem=detail)
    return ServiceError("error.bad_record", reason=str(exc))


def _record(deal: Deal, number: int) -> dict[str, Any]:
    if not deal.is_over:
        raise ServiceError("error.record_unfinished", n=number)
    return deal.to_record()


def _key(record: dict[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


def _par_key(record: dict[str, Any]) -> str:
    """What the par depends on: the rules, the hands, the contract and who leads."""
    keep = ("rules", "dealer", "hands", "contract")
    return json.dumps({k: record.get(k) for k in keep}, sort_keys=True, separators=(",", ":"))


class Reviews:
    """Finds finished deals and answers ``/batak replay``, ``/batak review`` and the
    Review and Compare buttons."""

    def __init__(
        self, bot: BatakBot, languages: Languages, cooldowns: Cooldowns | None = None
    ) -> None:
        self.bot = bot
        self.cooldowns = cooldowns if cooldowns is not None else Cooldowns()
        """How often one person may ask for a replay or a review (uploads included)."""
        self.store = bot.store
        self.service = bot.service
        self.languages = languages
        self._reviews: OrderedDict[tuple[str, tuple[int, ...]], Review] = OrderedDict()
        self._pars: OrderedDict[str, int | None] = OrderedDict()
        self._running: dict[tuple[str, tuple[int, ...]], asyncio.Future[Review]] = {}

    # ------------------------------------------------------------------ finding deals
    async def find(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        match: int | None,
        deal: int | None,
        file: discord.Attachment | None,
    ) -> FoundDeal:
        guild_id = guild_of(interaction)
        user_id = interaction.user.id
        if file is not None:
            if file.size > MAX_UPLOAD_BYTES:
                raise ServiceError("error.record_too_big", mb=MAX_UPLOAD_BYTES // 2**20)
            record, number = read_upload(await file.read(), deal)
            names = tuple(t("seat.player", lang, n=i + 1) for i in range(4))
            return FoundDeal(record, names, (), number)
        if match is not None:
            return await self._from_match(interaction, lang, guild_id, match, deal)
        found = self._from_tables(interaction, lang, deal)
        if found is not None:
            return found
        recent = await self.store.matches.recent_matches(guild_id, user_key(user_id), limit=1)
        if recent:
            return await self._from_match(interaction, lang, guild_id, recent[0].id, deal)
        daily = await self._from_daily(guild_id, user_id, lang, deal)
        if daily is not None:
            return daily
        raise ServiceError("error.no_deal")

    def _from_tables(
        self, interaction: discord.Interaction[Any], lang: str, deal: int | None
    ) -> FoundDeal | None:
        """The open table here (or the person's one table), else the newest finished
        table of this channel the person sat at."""
        channel_id = interaction.channel_id or 0
        user_id = interaction.user.id
        candidates: list[Table] = []
        here = self.service.table_here(channel_id, user_id)
        if here is not None:
            candidates.append(here)
        candidates.extend(
            t_
            for t_ in reversed(list(self.service.finished.values()))
            if channel_id in (t_.game.channel_id, t_.game.thread_id)
            and t_.seat_of(user_id) is not None
        )
        for table in candidates:
            if table.is_daily or table.match is None or not table.match.finished:
                continue
            return self._of_table(table, lang, deal)
        return None

    def _of_table(self, table: Table, lang: str, deal: int | None) -> FoundDeal:
        assert table.match is not None
        records = [d.to_record() for d in table.match.finished]
        record, number = _pick(records, deal)
        people = tuple(i for i, s in enumerate(table.seats) if s.user_id is not None)
        return FoundDeal(record, tuple(seat_names(table, lang)), people, number)

    async def _from_match(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        guild_id: int,
        match_id: int,
        deal: int | None,
    ) -> FoundDeal:
        summary = await self.store.matches.get_match(match_id)
        if summary is None or summary.guild_id != guild_id or not summary.records:
            raise ServiceError("error.no_match", id=match_id)
        record, number = _pick(list(summary.records), deal)
        by_seat = sorted(summary.players, key=lambda p: p.seat)
        names: list[str] = []
        for p in by_seat:
            if p.user_id is not None:
                names.append(await self._name(interaction, p.user_id))
            else:
                names.append(t("seat.bot", lang, n=p.seat + 1))
        people = tuple(p.seat for p in by_seat if p.user_id is not None)
        return FoundDeal(record, tuple(names), people, number)

    async def _from_daily(
        self, guild_id: int, user_id: int, lang: str, deal: int | None, day: str | None = None
    ) -> FoundDeal | None:
        """The person's own finished daily match of ``day`` (default today)."""
        result = await self.store.daily.daily_result(guild_id, user_id, day=day)
        if result is None or not result.finished:
            return None
        records = list((result.details or {}).get("records") or [])
        if not records:
            return None
        record, number = _pick(records, deal)
        names = (t("daily.you", lang), *(t("seat.bot", lang, n=i + 1) for i in range(1, 4)))
        return FoundDeal(record, names, (0,), number, result.day)

    async def _name(self, interaction: discord.Interaction[Any], user_id: int) -> str:
        guild = interaction.guild
        member = guild.get_member(user_id) if guild is not None else None
        if member is not None:
            return member.display_name
        user = self.bot.get_user(user_id)
        if user is None:
            try:
                user = await self.bot.fetch_user(user_id)
            except discord.HTTPException:
                return f"#{user_id}"
        return user.display_name

    async def table_deal(self, table_id: int, index: int, lang: str) -> FoundDeal:
        """Deal ``index`` (0-based) of a table, open, just finished or only stored."""
        table = self.service.tables.get(table_id) or self.service.finished.get(table_id)
        if table is None:
            try:
                game = await self.store.games.load_game(table_id)
            except Exception as exc:
                raise ServiceError("error.no_deal") from exc
            settings = TableSettings.from_dict(game.settings)
            from batak import parse_action

            m = Match.replay(
                settings.rule_set(),
                settings.match_seed(),
                [parse_action(a) for a in game.actions],
                settings.first_dealer,
            )
            table = Table(game=game, match=m, rules=settings.rule_set())
        if table.match is None or not 0 <= index < len(table.match.finished):
            raise ServiceError("error.no_deal")
        if table.is_daily:
            raise ServiceError("error.daily_spoiler")
        return self._of_table(table, lang, index + 1)

    async def check_spoiler(self, guild_id: int, user_id: int, found: FoundDeal) -> None:
        """A daily deal of today only for someone who has finished today's daily."""
        if found.daily_day is None:
            return
        mine = await self.store.daily.daily_result(guild_id, user_id, day=found.daily_day)
        if mine is None or not mine.finished:
            raise ServiceError("error.daily_spoiler")

    # ------------------------------------------------------------------ replay
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        match: int | None,
        deal: int | None,
        file: discord.Attachment | None,
    ) -> None:
        self.cooldowns.use("replay", interaction.user.id)
        lang = await self.languages.of(interaction)
        guild_id = guild_of(interaction)
        if file is not None:  # reading it may take a while: answer Discord first
            await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self.find(interaction, lang, match, deal, file)
        await self.check_spoiler(guild_id, interaction.user.id, found)
        private = found.daily_day is not None or file is not None
        if not interaction.response.is_done():
            interaction.extras["public"] = not private  # an error then goes privately
            await interaction.response.defer(ephemeral=private, thinking=True)
        limit = MAX_REPLAY_BYTES
        if interaction.guild is not None:
            limit = min(limit, interaction.guild.filesize_limit)
        try:
            data, fmt = await workers.HEAVY.run(  # never before a table's picture
                fit_replay, found.record, list(found.names), limit, lang
            )
        except ValueError as exc:
            raise ServiceError("error.replay_too_big") from exc
        name = f"batak-replay-{found.number}.{fmt}"
        log.info("replay of deal %s: %d bytes (%s)", found.number, len(data), fmt)
        files = [
            discord.File(
                io.BytesIO(data),
                filename=name,
                description=t("replay.alt", lang, n=found.number),
            )
        ]
        await send(
            interaction, t("replay.posted", lang, n=found.number), ephemeral=private, files=files
        )

    # ------------------------------------------------------------------ review
    async def review_of(self, found: FoundDeal) -> Review:
        """The cached review, else computed in the heavy worker (once per deal even
        when several people ask at the same time)."""
        key = (_key(found.record), found.people)
        done = self._reviews.get(key)
        if done is not None:
            self._reviews.move_to_end(key)
            return done
        running = self._running.get(key)
        if running is None:
            running = asyncio.ensure_future(
                workers.HEAVY.run(review_record, found.record, found.people)
            )
            self._running[key] = running
            running.add_done_callback(lambda _f: self._running.pop(key, None))
        review = await asyncio.shield(running)
        self._reviews[key] = review
        while len(self._reviews) > 256:
            self._reviews.popitem(last=False)
        return review

    async def review(
        self,
        interaction: discord.Interaction[Any],
        match: int | None,
        deal: int | None,
        file: discord.Attachment | None = None,
    ) -> None:
        self.cooldowns.use("review", interaction.user.id)
        lang = await self.languages.of(interaction)
        guild_id = guild_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self.find(interaction, lang, match, deal, file)
        await self.check_spoiler(guild_id, interaction.user.id, found)
        await self._answer_review(interaction, found, lang)

    async def _answer_review(
        self, interaction: discord.Interaction[Any], found: FoundDeal, lang: str
    ) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        review = await self.review_of(found)
        await send(interaction, review_text(review, found.names, found.number, lang))

    async def on_review_button(
        self, interaction: discord.Interaction[Any], table_id: int, index: int
    ) -> None:
        try:
            self.cooldowns.use("review", interaction.user.id)
            lang = await self.languages.of(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await self.table_deal(table_id, index, lang)
            await self._answer_review(interaction, found, lang)
        except Exception as exc:
            await fail(interaction, exc, self.languages)

    # ------------------------------------------------------------------ daily comparison
    async def pars(self, records: Sequence[dict[str, Any]]) -> list[int | None]:
        keys = [_par_key(r) for r in records]
        todo = {k: r for r, k in zip(records, keys, strict=True) if k not in self._pars}
        if todo:
            found = await workers.HEAVY.run(pars_of_records, list(todo.values()), COMPARE_PAR_NODES)
            self._pars.update(zip(todo, found, strict=True))
            while len(self._pars) > 2048:
                self._pars.popitem(last=False)
        return [self._pars.get(k) for k in keys]

    async def on_compare_button(self, interaction: discord.Interaction[Any], day: str) -> None:
        try:
            self.cooldowns.use("review", interaction.user.id)
            await self._compare(interaction, day)
        except Exception as exc:
            await fail(interaction, exc, self.languages)

    async def _compare(self, interaction: discord.Interaction[Any], day: str) -> None:
        lang = await self.languages.of(interaction)
        guild_id = guild_of(interaction)
        mine = await self.store.daily.daily_result(guild_id, interaction.user.id, day=day)
        if mine is None or not mine.finished:
            raise ServiceError("daily.compare_locked")
        await interaction.response.defer(ephemeral=True, thinking=True)
        results = await self.store.daily.daily_leaderboard(guild_id, day=day, limit=25)
        played = [(r, list((r.details or {}).get("records") or [])) for r in results]
        played = [(r, recs) for r, recs in played if recs]
        if not played:
            await send(interaction, t("daily.compare_nobody", lang))
            return
        flat = [rec for _r, recs in played for rec in recs]
        pars = iter(await self.pars(flat))
        deals: list[list[CompareRow]] = []
        for r, recs in played:
            name = await self._name(interaction, r.user_id)
            for i, rec in enumerate(recs):
                d = deal_from_record(rec)
                assert d.contract is not None and d.trump is not None and d.scores is not None
                holder = d.contract.seat
                side = side_tricks(d.rules, d.tricks_won, holder)
                who = name if holder == 0 else t("seat.bot", lang, n=holder + 1)
                row = CompareRow(
                    name, who, d.contract.bid, d.trump.letter, side, d.scores[0], next(pars)
                )
                while len(deals) <= i:
                    deals.append([])
                deals[i].append(row)
        await send(interaction, compare_text(day, deals, lang))


# ----------------------------------------------------------------------------- buttons
@dataclass(frozen=True, slots=True)
class ReviewClick:
    """A click on the Review button of deal ``deal`` (0-based) of table ``table``."""

    table: int
    deal: int


@dataclass(frozen=True, slots=True)
class CompareClick:
    """A click on the Compare button of the daily match of ``day``."""

    day: str


def review_id(table: int, deal: int) -> str:
    return f"br:{table}:{deal}"


def compare_id(day: str) -> str:
    return f"bd:{day}"


def parse_review_id(custom_id: str) -> ReviewClick | CompareClick | None:
    """The click of a Review or Compare button; ``None`` for any other id. Only the exact
    ids this module writes are taken (writing the parts again gives the same string)."""
    m = re.fullmatch(REVIEW_RE, custom_id)
    if m is not None:
        click = ReviewClick(int(m["table"]), int(m["deal"]))
        return click if review_id(click.table, click.deal) == custom_id else None
    m = re.fullmatch(COMPARE_RE, custom_id)
    if m is not None:
        try:
            day = dt.date.fromisoformat(m["day"]).isoformat()
        except ValueError:
            return None
        return CompareClick(day) if compare_id(day) == custom_id else None
    return None


class ReviewButton(Press[ReviewClick], template=REVIEW_RE):
    """The Review button of a deal summary: pressed anywhere in the table's server (the
    review is private, and ``/batak review`` works there too)."""

    server_wide = True

    def __init__(self, table: int, deal: int, *, label: str) -> None:
        custom_id = review_id(table, deal)
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, custom_id=custom_id
        )
        super().__init__(button, self.read(custom_id))

    @classmethod
    def read(cls, custom_id: str) -> ReviewClick | None:
        click = parse_review_id(custom_id)
        return click if isinstance(click, ReviewClick) else None

    @staticmethod
    def table_of(click: ReviewClick) -> int:
        return click.table

    async def handle(
        self, cog: BatakCog, interaction: discord.Interaction[Any], click: ReviewClick
    ) -> None:
        await cog.reviews.on_review_button(interaction, click.table, click.deal)


class CompareButton(Press[CompareClick], template=COMPARE_RE):
    """The Compare button of ``/batak daily``: it names a day, no table (the server is
    the one it is pressed in)."""

    def __init__(self, day: str, *, label: str) -> None:
        custom_id = compare_id(day)
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=discord.ButtonStyle.primary, custom_id=custom_id
        )
        super().__init__(button, self.read(custom_id))

    @classmethod
    def read(cls, custom_id: str) -> CompareClick | None:
        click = parse_review_id(custom_id)
        return click if isinstance(click, CompareClick) else None

    @staticmethod
    def table_of(click: CompareClick) -> None:
        return None

    async def handle(
        self, cog: BatakCog, interaction: discord.Interaction[Any], click: CompareClick
    ) -> None:
        await cog.reviews.on_compare_button(interaction, click.day)


def review_view(table_id: int, index: int, lang: str) -> discord.ui.View:
    """The view under a deal summary: its Review button."""
    return view_of([ReviewButton(table_id, index, label=t("button.review", lang))])


def compare_view(day: str, lang: str) -> discord.ui.View:
    """The Compare button of ``/batak daily`` once today's daily is finished."""
    return view_of([CompareButton(day, label=t("button.compare", lang))])


__all__ = [
    "CompareButton",
    "CompareClick",
    "FoundDeal",
    "ReviewButton",
    "ReviewClick",
    "Reviews",
    "compare_view",
    "parse_review_id",
    "read_upload",
    "review_view",
]
