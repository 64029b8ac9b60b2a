"""The words drawn in the pictures, in English and Turkish.

Every renderer takes ``lang`` (``"en"`` default, ``"tr"``); an unknown language
or a missing key falls back to English. Placeholders use ``str.format`` names.
"""

from __future__ import annotations

EN: dict[str, str] = {
    # suits
    "suit.S": "spades", "suit.H": "hearts", "suit.D": "diamonds", "suit.C": "clubs",
    # presets
    "preset.standard": "Standard", "preset.classic": "Classic", "preset.esli": "Eşli · partners",
    "preset.koz-maca": "Koz Maça", "preset.kanli": "Kanlı · blind bids",
    # seats
    "seat": "Seat {n}", "player": "Player {n}", "team": "team {t}",
    "pos.0": "you", "pos.1": "right", "pos.2": "across", "pos.3": "left",
    # table
    "contract": "CONTRACT", "tricks": "tricks", "trick": "trick", "team_tricks": "team",
    "pts": "pts", "trump": "trump", "trump_broken": "trump broken", "forced": "FORCED",
    "not_yet": "Not yet", "auction_running": "Auction running",
    "fixed_trump": "{suit} are trump", "deal": "DEAL", "of_n": "of {n}",
    "of_n_extra": "of {n} (extra)", "bid_tag": "BID {n}", "bid_line": "Bid {n}", "pass": "Pass",
    "act.auction": "to bid", "act.trump": "names trump", "act.play": "to play",
    "turn": "TURN", "status": "STATUS", "deal_over": "Deal over",
    "tricks_played": "{n} of 13 tricks played", "trick_n": "Trick {n} of 13",
    "no_bid": "No bid yet", "high_bid_n": "High bid {n}", "naming_trump": "is naming trump",
    "lead": "LEAD", "last_trick": "LAST TRICK", "dealer_chip": "D", "bot": "BOT",
    # auction
    "auction": "AUCTION · İHALE", "bidding": "Bidding", "deal_sub": "Deal {n} of {count}",
    "high_bid": "HIGH BID", "none_yet": "none yet", "dealer": "dealer",
    "min_bid": "Minimum bid {n}", "all_pass_forced": "all pass → dealer holds {n}",
    "all_pass_must": "the dealer must bid if all pass", "always_trump": "{suit} are always trump",
    "blind": "hands shown after the auction", "to_call": "▶ {name} to call",
    "holds": "{name} holds the contract: {n}",
    # deal summary
    "deal_head": "DEAL {n} OF {count}", "made_it": "{name} made it",
    "went_down": "{name} went down", "made_badge": "MADE", "down_badge": "DOWN",
    "no_contract": "No contract", "contract_line": "{name} bid {n}",
    "forced_paren": " (forced)", "trump_line": " · {suit} trump",
    "col.player": "PLAYER", "col.contract": "CONTRACT", "col.tricks": "TRICKS",
    "col.result": "RESULT", "col.deal": "DEAL", "col.total": "TOTAL",
    "made": "made", "down": "down", "holder": "contract",
    # match result
    "match_result": "MATCH RESULT", "match_so_far": "MATCH SO FAR", "wins": "{name} wins!",
    "team_wins": "Team {t} wins: {a} & {b}", "shared_win": "Shared win",
    "standings": "Standings", "n_deals": "{n} deals", "one_deal": "1 deal",
    "extra": " ({n} extra)",
    # hand
    "your_hand": "Your hand", "playable": "{n} playable", "n_cards": "{n} cards",
    "suit_trump": "{suit} trump", "no_cards": "No cards",
    "hidden": "hidden until the auction ends",
    # leaderboard
    "leaderboard": "Leaderboard", "game": "İHALELİ BATAK", "col.rating": "RATING",
    "col.wins": "WINS", "col.played": "PLAYED", "col.win_pct": "WIN %",
    "no_games": "No games played yet",
}

TR: dict[str, str] = {
    "suit.S": "maça", "suit.H": "kupa", "suit.D": "karo", "suit.C": "sinek",
    "preset.standard": "Standart", "preset.classic": "Klasik", "preset.esli": "Eşli",
    "preset.koz-maca": "Koz Maça", "preset.kanli": "Kanlı",
    "seat": "Oyuncu {n}", "player": "Oyuncu {n}", "team": "{t} takımı",
    "pos.0": "sen", "pos.1": "sağ", "pos.2": "karşı", "pos.3": "sol",
    "contract": "İHALE", "tricks": "el", "trick": "el", "team_tricks": "takım",
    "pts": "puan", "trump": "koz", "trump_broken": "koz açıldı", "forced": "ZORUNLU",
    "not_yet": "Henüz yok", "auction_running": "İhale sürüyor",
    "fixed_trump": "Koz {suit}", "deal": "TUR", "of_n": "/ {n}",
    "of_n_extra": "/ {n} (ek)", "bid_tag": "İHALE {n}", "bid_line": "Teklif {n}", "pass": "Pas",
    "act.auction": "teklif verecek", "act.trump": "koz seçiyor", "act.play": "oynayacak",
    "turn": "SIRA", "status": "DURUM", "deal_over": "Tur bitti",
    "tricks_played": "13 elin {n} tanesi oynandı", "trick_n": "El {n} / 13",
    "no_bid": "Henüz teklif yok", "high_bid_n": "En yüksek {n}", "naming_trump": "koz seçiyor",
    "lead": "İLK", "last_trick": "SON EL", "dealer_chip": "D", "bot": "BOT",
    "auction": "İHALE", "bidding": "Teklifler", "deal_sub": "Tur {n} / {count}",
    "high_bid": "EN YÜKSEK TEKLİF", "none_yet": "henüz yok", "dealer": "dağıtan",
    "min_bid": "En az {n}", "all_pass_forced": "herkes pas → dağıtan {n} ile oynar",
    "all_pass_must": "herkes pas derse dağıtan teklif verir", "always_trump": "koz hep {suit}",
    "blind": "kartlar ihaleden sonra açılır", "to_call": "▶ Sıra: {name}",
    "holds": "İhale {name}: {n}",
    "deal_head": "TUR {n} / {count}", "made_it": "{name} ihaleyi çıkardı",
    "went_down": "{name} battı", "made_badge": "ÇIKTI", "down_badge": "BATTI",
    "no_contract": "İhale yok", "contract_line": "{name}: {n} ihale",
    "forced_paren": " (zorunlu)", "trump_line": " · koz {suit}",
    "col.player": "OYUNCU", "col.contract": "HEDEF", "col.tricks": "EL",
    "col.result": "SONUÇ", "col.deal": "TUR", "col.total": "TOPLAM",
    "made": "çıktı", "down": "battı", "holder": "ihale",
    "match_result": "MAÇ SONUCU", "match_so_far": "MAÇ DURUMU", "wins": "{name} kazandı!",
    "team_wins": "{t} takımı kazandı: {a} & {b}", "shared_win": "Berabere",
    "standings": "Puan durumu", "n_deals": "{n} tur", "one_deal": "1 tur",
    "extra": " ({n} ek tur)",
    "your_hand": "Elin", "playable": "{n} oynanabilir", "n_cards": "{n} kart",
    "suit_trump": "koz {suit}", "no_cards": "Kart yok",
    "hidden": "kartlar ihaleden sonra açılır",
    "leaderboard": "Sıralama", "game": "İHALELİ BATAK", "col.rating": "PUAN",
    "col.wins": "GALİBİYET", "col.played": "MAÇ", "col.win_pct": "ORAN",
    "no_games": "Henüz oyun yok",
}

LABELS: dict[str, dict[str, str]] = {"en": EN, "tr": TR}


def text_for(lang: str, key: str, **values: object) -> str:
    """The label ``key`` in ``lang`` (English when missing), with ``values`` filled in."""
    template = LABELS.get(lang, EN).get(key) or EN[key]
    return template.format(**values) if values else template


def upper(lang: str, s: str) -> str:
    """Capitals the way ``lang`` writes them (Turkish: i → İ, ı → I)."""
    if lang == "tr":
        s = s.replace("i", "İ").replace("ı", "I")
    return s.upper()


def suit_name(lang: str, suit: str) -> str:
    return text_for(lang, f"suit.{suit}")
