"""The database schema as an ordered list of migrations.

Each entry of ``MIGRATIONS`` moves the database from version ``i`` to ``i + 1``
(``PRAGMA user_version``). A migration is a tuple of single SQL statements, run
inside one ``BEGIN IMMEDIATE`` transaction together with the version bump, so a
database is always at exactly one version: a crash or an error in the middle of
a migration leaves it at the previous one.

Never edit a migration that has shipped; append a new one instead.
"""

from __future__ import annotations

from collections.abc import Sequence

# "BATK" as a big-endian integer: marks the file as a batak-bot database.
APPLICATION_ID = 0x4241544B

Migration = Sequence[str]

V1: Migration = (
    # -- server settings -------------------------------------------------------------
    """
    CREATE TABLE guild_settings (
        guild_id              INTEGER PRIMARY KEY,
        language              TEXT    NOT NULL,
        preset                TEXT    NOT NULL,
        deals                 INTEGER,
        pace                  TEXT    NOT NULL,
        live_turn_timeout_s   INTEGER NOT NULL,
        async_turn_timeout_s  INTEGER NOT NULL,
        bot_level             TEXT    NOT NULL,
        use_threads           INTEGER NOT NULL,
        updated_at            TEXT    NOT NULL
    )
    """,
    # -- tables in progress (and their history) ------------------------------------
    """
    CREATE TABLE games (
        id                INTEGER PRIMARY KEY,
        guild_id          INTEGER NOT NULL,
        channel_id        INTEGER NOT NULL,
        thread_id         INTEGER,
        host_id           INTEGER NOT NULL,
        kind              TEXT    NOT NULL DEFAULT 'table',
        status            TEXT    NOT NULL
                          CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
        phase             TEXT    NOT NULL,
        move              INTEGER NOT NULL DEFAULT 0 CHECK (move >= 0),
        to_act            INTEGER CHECK (to_act BETWEEN 0 AND 3),
        settings          TEXT    NOT NULL,
        snapshot          TEXT,
        snapshot_move     INTEGER,
        table_message_id  INTEGER,
        created_at        TEXT    NOT NULL,
        updated_at        TEXT    NOT NULL,
        finished_at       TEXT
    )
    """,
    "CREATE INDEX games_open ON games (status) WHERE status IN ('lobby', 'playing')",
    "CREATE INDEX games_guild ON games (guild_id, status)",
    "CREATE INDEX games_channel ON games (channel_id, status)",
    "CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL",
    """
    CREATE TABLE game_seats (
        game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        user_id    INTEGER,
        bot_level  TEXT,
        name       TEXT,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX game_seats_user ON game_seats (user_id, game_id) WHERE user_id IS NOT NULL",
    """
    CREATE TABLE game_actions (
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        move        INTEGER NOT NULL CHECK (move >= 1),
        seat        INTEGER CHECK (seat BETWEEN 0 AND 3),
        action      TEXT    NOT NULL,
        actor       TEXT    NOT NULL,
        at_ms       INTEGER NOT NULL,  -- Unix time in milliseconds
        PRIMARY KEY (game_id, move)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE game_messages (
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        message_id  INTEGER NOT NULL,
        kind        TEXT    NOT NULL,
        channel_id  INTEGER,
        created_at  TEXT    NOT NULL,
        PRIMARY KEY (game_id, message_id)
    ) WITHOUT ROWID
    """,
    # -- finished matches ----------------------------------------------------------
    """
    CREATE TABLE matches (
        id           INTEGER PRIMARY KEY,
        guild_id     INTEGER NOT NULL,
        game_id      INTEGER UNIQUE REFERENCES games (id) ON DELETE SET NULL,
        preset       TEXT    NOT NULL,
        rules        TEXT    NOT NULL,
        seed         INTEGER,
        partnership  INTEGER NOT NULL,
        deals        INTEGER NOT NULL,
        finished_at  TEXT    NOT NULL,
        month        TEXT    NOT NULL
    )
    """,
    "CREATE INDEX matches_guild ON matches (guild_id, id)",
    """
    CREATE TABLE match_players (
        match_id         INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat             INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        guild_id         INTEGER NOT NULL,
        player_key       TEXT    NOT NULL,
        user_id          INTEGER,
        bot_level        TEXT,
        total            INTEGER NOT NULL,
        placement        INTEGER NOT NULL,
        won              INTEGER NOT NULL,
        deals            INTEGER NOT NULL,
        contracts_taken  INTEGER NOT NULL,
        contracts_made   INTEGER NOT NULL,
        went_down        INTEGER NOT NULL,
        mu_before        REAL    NOT NULL,
        sigma_before     REAL    NOT NULL,
        mu_after         REAL    NOT NULL,
        sigma_after      REAL    NOT NULL,
        PRIMARY KEY (match_id, seat)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX match_players_player ON match_players (guild_id, player_key, match_id)",
    # all deal records of a match as zlib-compressed JSON Lines (batak-deal/1)
    """
    CREATE TABLE match_records (
        match_id  INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
        jsonl_z   BLOB    NOT NULL
    )
    """,
    # -- standings: one row per (guild, period, player); period is 'all' or 'YYYY-MM' --
    """
    CREATE TABLE standings (
        guild_id         INTEGER NOT NULL,
        period           TEXT    NOT NULL,
        player_key       TEXT    NOT NULL,
        user_id          INTEGER,
        bot_level        TEXT,
        matches          INTEGER NOT NULL DEFAULT 0,
        wins             INTEGER NOT NULL DEFAULT 0,
        deals            INTEGER NOT NULL DEFAULT 0,
        deal_score_sum   INTEGER NOT NULL DEFAULT 0,
        contracts_taken  INTEGER NOT NULL DEFAULT 0,
        contracts_made   INTEGER NOT NULL DEFAULT 0,
        went_down        INTEGER NOT NULL DEFAULT 0,
        mu               REAL    NOT NULL,
        sigma            REAL    NOT NULL,
        ordinal          REAL    NOT NULL,
        start_ordinal    REAL    NOT NULL,
        last_match_at    TEXT    NOT NULL,
        PRIMARY KEY (guild_id, period, player_key)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX standings_rating ON standings (guild_id, period, ordinal DESC)",
    "CREATE INDEX standings_wins ON standings (guild_id, period, wins DESC, matches)",
    # -- daily deals -----------------------------------------------------------------
    """
    CREATE TABLE daily_results (
        guild_id     INTEGER NOT NULL,
        day          TEXT    NOT NULL,
        user_id      INTEGER NOT NULL,
        game_id      INTEGER REFERENCES games (id) ON DELETE SET NULL,
        score        INTEGER,
        placement    INTEGER,
        details      TEXT,
        started_at   TEXT    NOT NULL,
        finished_at  TEXT,
        PRIMARY KEY (guild_id, day, user_id)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX daily_board ON daily_results (guild_id, day, score DESC)",
)

V2: Migration = (
    # -- one open table per host --------------------------------------------------
    # ``hosting`` is the host's user id while a table (not a daily) is open and its
    # host holds a seat; NULL once it closes or the host leaves. The unique index makes
    # a second open table of the same host in a server impossible, whoever races.
    "ALTER TABLE games ADD COLUMN hosting INTEGER",
    # ``rematch_of``: the finished table this lobby is the rematch of; unique, so
    # however many people press Rematch at once, one lobby is created.
    "ALTER TABLE games ADD COLUMN rematch_of INTEGER REFERENCES games (id) ON DELETE SET NULL",
    # Tables opened before this version: the newest open table of each host keeps the claim.
    """
    UPDATE games SET hosting = host_id
    WHERE kind = 'table' AND status IN ('lobby', 'playing')
      AND EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = games.id
                  AND s.user_id = games.host_id)
      AND id = (SELECT max(g.id) FROM games g JOIN game_seats s
                ON s.game_id = g.id AND s.user_id = g.host_id
                WHERE g.guild_id = games.guild_id AND g.host_id = games.host_id
                  AND g.kind = 'table' AND g.status IN ('lobby', 'playing'))
    """,
    # Rematches used to be marked in the settings only; the first one of each table counts.
    """
    UPDATE games SET rematch_of = json_extract(settings, '$.rematch_of')
    WHERE json_valid(settings) AND json_type(settings, '$.rematch_of') = 'integer'
      AND json_extract(settings, '$.rematch_of') IN (SELECT id FROM games)
      AND id = (SELECT min(g.id) FROM games g WHERE json_valid(g.settings)
                AND json_extract(g.settings, '$.rematch_of')
                    = json_extract(games.settings, '$.rematch_of'))
    """,
    "CREATE UNIQUE INDEX games_one_open_per_host ON games (guild_id, hosting) "
    "WHERE hosting IS NOT NULL",
    "CREATE UNIQUE INDEX games_rematch ON games (rematch_of) WHERE rematch_of IS NOT NULL",
    # -- messages to post once what they announce is stored -------------------------
    # Written in the same transaction as the match result (or daily result) and the
    # closing of its table; the bot posts them and then marks them announced, so a
    # crash in between is repaired by posting what is still pending at start-up.
    """
    CREATE TABLE announcements (
        id            INTEGER PRIMARY KEY,
        guild_id      INTEGER NOT NULL,
        game_id       INTEGER REFERENCES games (id) ON DELETE SET NULL,
        match_id      INTEGER REFERENCES matches (id) ON DELETE CASCADE,
        channel_id    INTEGER,
        kind          TEXT    NOT NULL,
        payload       TEXT    NOT NULL CHECK (json_valid(payload)),
        created_at    TEXT    NOT NULL,
        announced_at  TEXT
    )
    """,
    "CREATE INDEX announcements_pending ON announcements (guild_id, id) WHERE announced_at IS NULL",
    "CREATE INDEX announcements_game ON announcements (game_id) WHERE game_id IS NOT NULL",
)

V3_RATED_MATCHES_AND_PERSONAL_SETTINGS: Migration = (
    # -- rated and casual matches ----------------------------------------------------
    # A rated match changed its players' ratings and standings; a casual one (rules
    # changed from the preset, or hints allowed) is kept for the history only. Every
    # match recorded before this version changed the standings, so it is rated.
    "ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1))",
    # -- server: hints at casual tables ----------------------------------------------
    # Off by default; hints are never given at rated tables or in the daily match.
    "ALTER TABLE guild_settings ADD COLUMN casual_hints INTEGER NOT NULL DEFAULT 0",
    # -- personal settings: one row per Discord user, for every server -----------------
    # NULL is "not chosen": the Discord locale (else the server's language), the
    # two-colour deck, the dark pictures, the default notifications.
    """
    CREATE TABLE user_settings (
        user_id        INTEGER PRIMARY KEY,
        language       TEXT,
        four_colour    INTEGER CHECK (four_colour IN (0, 1)),
        theme          TEXT    CHECK (theme IN ('dark', 'light')),
        notifications  TEXT,
        updated_at     TEXT    NOT NULL
    )
    """,
)

MIGRATIONS: tuple[Migration, ...] = (V1, V2, V3_RATED_MATCHES_AND_PERSONAL_SETTINGS)

LATEST_VERSION = len(MIGRATIONS)
