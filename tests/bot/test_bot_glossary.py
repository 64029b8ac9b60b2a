"""One word for each idea of the game, in every catalogue, for texts and pictures alike.

Each catalogue's ``_glossary`` (read by :func:`locales.glossary`) gives the word of every
idea (deal, trick, bid...), the forms it takes in a text, the words that must never stand
for it, and the form of address. A key is *about* the ideas its English text names (the
English glossary's words, the ``{n:count.tricks}`` entries it counts with, and the few in
:data:`EXTRA` where English says it in other words). Then, in every language:

- a text uses the word of an idea only when it is about that idea (Turkish "el" is the
  trick: a text about the deal that says "El 1/3" fails);
- a text about an idea does not use a word the glossary rules out for it ("dostane");
- the texts and the pictures that name an idea (:data:`NAMES`) use its glossary word;
- every text speaks to the player in the one form of address of its language.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

import locales
from locales import Glossary

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = ("en", "tr", "de", "pt", "uk", "sw", "es", "fr")
IDEAS = (
    "deal",
    "trick",
    "auction",
    "bid",
    "contract",
    "trump",
    "pass",
    "dealer",
    "match",
    "round",
    "partner",
    "seat",
    "rated",
    "casual",
    "down",
    "hand",
    "computer",
)

Entry = str | dict[str, str]

# Keys about an idea that their English text names in other words ("made it": the
# contract; "daily": the daily match; "to call": to bid).
EXTRA: dict[str, set[str]] = {
    "button.add_bot": {"computer"},
    "preset.kanli": {"auction"},
    "img.made_it": {"contract"},
    "deal.made": {"contract"},
    "deal.down": {"contract"},
    "hint.trump": {"contract"},
    "hint.pass-forced": {"contract"},
    "hint.outlook-beat": {"down"},
    "img.to_call": {"bid"},
    "summary.no_trump_yet": {"trump"},
    "img.extra": {"deal"},
    "rules.basics": {"dealer"},
    "by.daily": {"match"},
    "img.col.played": {"match"},
    "img.no_games": {"match"},
    "watch.title": {"match"},
    "notice.done": {"match"},
    "lobby.help": {"match"},
    "error.stale": {"match"},
    "error.watch_seated": {"match"},
    "history.by_computers": {"match"},
    "error.not_seated": {"seat"},
    "refusal.not-held": {"hand"},
    "review.effect.set": {"down"},
    "result.tryout": {"match"},  # "a try-out": a short match
    "house.tryout": {"casual"},  # a try-out table is a casual table
    "lobby.tryout": {"casual"},
    "lobby.tryout_hints": {"casual"},
    "img.provisional": {
        "rated"
    },  # "not ranked yet": not on the rated board  # "the contract would likely have been set"
    "refusal.trump-not-broken": {"trick"},  # "lead": open the next trick
    "cmd.leaderboard": {"rated"},
    "alt.leaderboard": {"rated"},
}

# Names of the game and its rule sets, the same in every language: not glossary words.
PROPER_NAMES = ("İhaleli Batak", "Koz Maça", "Eşli", "Kanlı")

# Texts and picture labels that name the idea: each uses the language's glossary word.
NAMES: dict[str, tuple[str, ...]] = {
    "deal": (
        "summary.deal",
        "deal.title",
        "count.deals",
        "img.deal",
        "img.deal_head",
        "img.deal_sub",
        "img.col.deal",
        "img.n_deals",
        "history.deal_line",
        "opt.deals",
        "replay.posted",
        "review.title",
        "daily.compare_deal",
    ),
    "trick": (
        "count.tricks",
        "img.trick_n",
        "img.tricks_played",
        "img.last_trick",
        "summary.last_trick",
        "img.col.tricks",
        "img.n_tricks",
        "img.tricks_word",
    ),
    "auction": ("summary.calls", "img.auction", "img.auction_running", "review.decision_auction"),
    "bid": (
        "hand.your_bid",
        "action.bid",
        "img.bid_tag",
        "img.bid_line",
        "img.act.auction",
        "img.high_bid",
        "img.high_bid_n",
        "img.no_bid",
        "img.min_bid",
    ),
    "contract": ("img.contract", "summary.contract", "img.holds", "img.no_contract"),
    "trump": ("count.trumps", "action.trump", "img.suit_trump", "img.trump_line"),
    "pass": ("button.pass", "img.pass", "action.pass"),
    "dealer": ("img.dealer", "summary.deal", "img.replay.dealer"),
    "match": ("count.matches", "img.match_result", "summary.over", "result.title"),
    "partner": ("hint.pass-partner", "rules.partnership"),
    "seat": ("img.seat", "button.seat_n", "lobby.joined", "seat.empty"),
    "rated": ("img.rated", "lobby.rated", "house.rated", "history.rated"),
    "casual": (
        "img.casual",
        "lobby.casual",
        "house.casual",
        "history.casual",
        "opt.casual",
        "result.casual",
    ),
    "down": ("img.down_badge", "img.went_down", "img.down", "review.down", "deal.down"),
    "hand": ("cmd.hand", "button.show_hand", "img.your_hand", "hand.picture_title", "alt.hand"),
    "computer": ("seat.bot", "seat.bot_level", "img.computers", "leaderboard.bots"),
}


def raw(lang: str) -> dict[str, Entry]:
    with (ROOT / "locales" / f"{lang}.json").open(encoding="utf-8") as f:
        data: dict[str, Entry] = json.load(f)
    return {k: v for k, v in data.items() if not k.startswith("_")}


def texts(entry: Entry) -> list[str]:
    return [entry] if isinstance(entry, str) else [v for k, v in entry.items() if k[0] != "_"]


ENGLISH = raw("en")


@cache
def about(key: str) -> frozenset[str]:
    """The ideas the English text of ``key`` names (with the entries it counts with)."""
    english = locales.glossary("en")
    ideas = set(EXTRA.get(key, ()))
    for text in texts(ENGLISH.get(key, "")):
        ideas |= {idea for idea, term in english.terms.items() if term.found("en", text)}
        # {bid}, {trump}, {tricks}, {deals}, {dealer}, {seat}: the value names the idea
        for name in locales.fields(text):
            ideas |= {idea for idea in IDEAS if name in (idea, idea + "s")}
        for spec in locales.specs(text):
            if spec in ENGLISH and spec != key:
                ideas |= about(spec)
    return frozenset(ideas)


def _owned(g: Glossary, word: str, ideas: frozenset[str]) -> bool:
    """Whether ``word`` is a form of one of ``ideas`` (Turkish "ihale": auction and contract)."""
    return any(g.terms[i].found(g.lang, word) for i in ideas if i in g.terms)


def wrong_words(lang: str, key: str, text: str) -> list[str]:
    """What ``text`` (the value of ``key`` in ``lang``) does against the glossary."""
    g = locales.glossary(lang)
    ideas = about(key)
    for name in PROPER_NAMES:
        text = text.replace(name, " ").replace(locales.upper(lang, name), " ")
    problems = []
    for idea, term in g.terms.items():
        if term.normal or idea in ideas:
            continue
        for word in term.found(lang, text):
            if not _owned(g, word, ideas):
                named = ", ".join(sorted(ideas)) or "none of the glossary's ideas"
                problems.append(
                    f"{lang} {key}: {word!r} is the word for the {idea}, "
                    f"but this text is about {named}"
                )
    for idea in sorted(ideas & set(g.terms)):
        term = g.terms[idea]
        for word in term.misused(lang, text):
            if not _owned(g, word, ideas):
                problems.append(
                    f"{lang} {key}: {word!r} must not stand for the {idea}; "
                    f"the glossary word is {term.word!r}"
                )
    return problems


def wrong_address(lang: str, key: str, text: str) -> list[str]:
    address = locales.glossary(lang).address
    return [
        f"{lang} {key}: {word!r} speaks to the player in the other form; "
        f"the texts say {address.use!r}"
        for word in address.other_form(lang, text)
    ]


def problems(lang: str, catalogue: dict[str, Entry], check: object) -> list[str]:
    assert callable(check)
    return [p for key, e in catalogue.items() for text in texts(e) for p in check(lang, key, text)]


def test_every_catalogue_has_the_glossary_of_every_idea() -> None:
    for lang in EXPECTED:
        g = locales.glossary(lang)
        assert tuple(g.terms) == IDEAS, lang
        assert g.address.use, lang
        for idea, term in g.terms.items():
            assert term.word.strip() and term.forms, (lang, idea)
            # the word the glossary gives matches its own forms (else the checks miss it)
            assert term.found(lang, term.word), (lang, idea)


def test_the_layer_leaves_the_glossary_out_of_the_messages() -> None:
    assert not any(k.startswith("_") for cat in locales.catalogues().values() for k in cat)
    assert locales.glossary("tr").terms["deal"].word == "tur"
    with pytest.raises(KeyError):
        locales.glossary("xx")


@pytest.mark.parametrize("lang", EXPECTED)
def test_each_word_stands_for_its_own_idea(lang: str) -> None:
    assert problems(lang, raw(lang), wrong_words) == []


@pytest.mark.parametrize("lang", EXPECTED)
def test_texts_and_pictures_name_each_idea_with_its_word(lang: str) -> None:
    g = locales.glossary(lang)
    cat = raw(lang)
    missing = [
        f"{lang} {key}: {text!r} does not say {g.terms[idea].word!r} ({idea})"
        for idea, keys in NAMES.items()
        for key in keys
        for text in texts(cat[key])
        if not g.terms[idea].found(lang, text)
    ]
    assert missing == []


@pytest.mark.parametrize("lang", EXPECTED)
def test_one_form_of_address(lang: str) -> None:
    assert problems(lang, raw(lang), wrong_address) == []


def test_the_checks_catch_the_collisions_of_issue_29() -> None:
    """The Turkish of before the glossary: each line is one mistake the checks must name."""
    before = {
        "summary.deal": "El {n}/{of} · dağıtan {dealer}",
        "rules.match": "Bir maç {deals:count.deals} sürer",
        "count.deals": {"one": "{n} el", "other": "{n} el"},
        "img.trick_n": "TUR {n} / 13",
        "hand.your_bid": "Sıra sende: ihale ver ya da pas geç.",
        "house.casual": "Dostane masa: puanlar değişmez.",
        "button.show_hand": "Elimi göster",
    }
    found = problems("tr", before, wrong_words)
    for key, word in (
        ("summary.deal", "el"),
        ("count.deals", "el"),
        ("img.trick_n", "tur"),
        ("hand.your_bid", "ihale"),
        ("house.casual", "dostane"),
        ("button.show_hand", "elimi"),
    ):
        assert any(p.startswith(f"tr {key}: {word!r}") for p in found), (key, found)
    # the plural entry counts with count.deals, so its "el" is not the sentence's fault
    assert not any(p.startswith("tr rules.match") for p in found)
    assert problems("tr", {"summary.deal": "Tur {n}/{of} · dağıtan {dealer}"}, wrong_words) == []

    address = {
        "error.hint_rated": "İpucu için serbest bir masa açın.",
        "settings.me_show": "Ayarlarınız: eliniz, geçmişiniz.",
        "opt.my_language": "Botun sizinle konuştuğu dil",
        "hand.your_bid": "Sıra sende: teklif ver ya da pas geç.",
        "cmd.watch": "Buradaki bir maçı yalnız sen izle",
    }
    said = problems("tr", address, wrong_address)
    assert sorted(p.split(":")[0] for p in said) == [
        "tr error.hint_rated",
        "tr opt.my_language",
        "tr settings.me_show",
        "tr settings.me_show",
        "tr settings.me_show",
    ]
    assert problems("de", {"x": "Öffnen Sie Ihre Karten."}, wrong_address)
    assert not problems("de", {"x": "Öffne deine Karten; sie bleiben verdeckt."}, wrong_address)
    assert problems("fr", {"x": "Choisissez votre place."}, wrong_address)
    assert problems("uk", {"x": "Натисніть «Сісти»."}, wrong_address)


def test_the_docs_table_shows_every_catalogues_words() -> None:
    """docs/glossary.md's table of every language is the catalogues' glossary."""
    docs = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    table = docs.split("## Every language", 1)[1]
    rows = {
        cells[0]: cells[1:]
        for line in table.splitlines()
        if line.startswith("| ")
        for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    langs = rows["idea"]
    assert sorted(langs) == sorted(EXPECTED)
    for idea in IDEAS:
        assert rows[idea] == [locales.glossary(lang).terms[idea].word for lang in langs], idea
    assert rows["address"] == [locales.glossary(lang).address.use for lang in langs]


def test_a_word_that_only_looks_like_a_form_is_not_it() -> None:
    """Turkish "turnuva" (a tournament) starts like "tur" (a deal) and is another word."""
    deal = locales.glossary("tr").terms["deal"]
    assert deal.found("tr", "Turnuva bitti; son tur da oynandı, turlar bitti.") == [
        "tur",
        "turlar",
    ]
    assert locales.glossary("tr").terms["round"].found("tr", "3. raunt başladı") == ["raunt"]
