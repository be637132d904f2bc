"""The game server's database (SQLAlchemy Core; SQLite by default, any SQLAlchemy URL works).

Two tables: ``games`` (one row per game: its settings, the AI's time control with both clocks' time left, the
hashes of its tokens, how many decisions it has, over/result) and ``decisions`` (one row per decision applied, in
order).  A game is stored as its replay recipe; :meth:`Store.append` writes the decisions of one request and
the game's new counters (and clocks) in ONE transaction, committed before the server answers, so an acknowledged
move is never lost and a move that was not committed was never acknowledged.  Tokens are stored as SHA-256 hashes
only.

Schema versions (``dustup_meta``'s ``schema``): 1, the first; 2 added ``games.time_control``.  A database of an
older version is migrated when the server opens it; a newer one is refused.
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
import time

from sqlalchemy import (BigInteger, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text,
                        create_engine, event, insert, select, text, update)
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

SCHEMA_VERSION = 2

metadata = MetaData()
meta = Table("dustup_meta", metadata, Column("key", String(64), primary_key=True), Column("value", Text))
games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("scenario", Text, nullable=False),  # the scenario document (JSON)
    Column("seed", BigInteger, nullable=False),
    Column("secret_seed", Boolean, nullable=False, default=False),
    Column("options", Text, nullable=False),  # JSON
    Column("ai", String(300)),
    Column("ai_side", Integer),
    Column("ai_seed", BigInteger, nullable=False),
    Column("ai_from", Integer, nullable=False, default=0),
    Column("token0", String(64)),  # sha256 hex of side 0's token (null: the AI's side)
    Column("token1", String(64)),
    Column("n_decisions", Integer, nullable=False),
    Column("over", Boolean, nullable=False, default=False),
    Column("result", Text),  # JSON, once over
    # JSON, null without one: {"movetime_ms": M} or {"clock_ms": [T0, T1], "increment_ms": I, "mark": W}, the
    # clocks as the last stored request left them and W the wall-clock time (seconds) the side to move's clock has
    # been running since (Session.record)
    Column("time_control", Text),
)
decisions = Table(
    "decisions", metadata,
    Column("game", String(32), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("option", Text, nullable=False),  # JSON array
)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def database_url(db: str) -> str:
    """``--db``: a database URL (``sqlite:///x.db``, ``postgresql://...``) or a file path (SQLite);
    ``:memory:`` is a throw-away in-memory database."""
    if db == ":memory:":
        return "sqlite://"
    if "://" in db:
        return db
    return "sqlite:///" + os.path.abspath(os.path.expanduser(db))


class StoreError(Exception):
    pass


class Store:
    def __init__(self, db: str):
        self.url = database_url(db)
        kw: dict = {}
        if self.url == "sqlite://":
            kw = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        elif self.url.startswith("sqlite"):
            kw = {"connect_args": {"check_same_thread": False, "timeout": 30}}
        self.engine: Engine = create_engine(self.url, **kw)
        # SQLite has one writer at a time and its busy handler waits by sleeping (up to 100 ms a try):
        # writers of this process queue on a lock instead, and wake as soon as the previous commit is done
        self._write = threading.Lock() if self.url.startswith("sqlite") else _NoLock()
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        with self._write, self.engine.begin() as c:
            row = c.execute(select(meta.c.value).where(meta.c.key == "schema")).first()
            if row is None:
                c.execute(insert(meta).values(key="schema", value=str(SCHEMA_VERSION)))
            elif row[0] != str(SCHEMA_VERSION):
                version = int(row[0]) if str(row[0]).isdigit() else None
                if version is None or version > SCHEMA_VERSION:
                    raise StoreError(f"{self.display_url}: database schema {row[0]} (this server reads "
                                     f"{SCHEMA_VERSION} and older)")
                self._migrate(c, version)

    @staticmethod
    def _migrate(c, version: int) -> None:
        """Bring a database of schema ``version`` to :data:`SCHEMA_VERSION` (in the caller's transaction)."""
        if version < 2:  # the AI's time control and clocks, kept with the game
            c.execute(text("ALTER TABLE games ADD COLUMN time_control TEXT"))
        c.execute(update(meta).where(meta.c.key == "schema").values(value=str(SCHEMA_VERSION)))

    @property
    def display_url(self) -> str:
        """The database URL without its password (for logs)."""
        return self.engine.url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ writes
    def create(self, game_id: str, rec: dict, token_hashes: tuple, secret_seed: bool, over: bool,
               result: dict | None) -> None:
        now = time.time()
        with self._write, self.engine.begin() as c:
            c.execute(insert(games).values(
                id=game_id, created=now, updated=now, scenario=json.dumps(rec["scenario"]), seed=rec["seed"],
                secret_seed=secret_seed, options=json.dumps(rec["options"]), ai=rec["ai"], ai_side=rec["ai_side"],
                ai_seed=rec["ai_seed"], ai_from=rec["ai_from"], token0=token_hashes[0], token1=token_hashes[1],
                n_decisions=len(rec["decisions"]), over=over, result=json.dumps(result) if result else None,
                time_control=_json_or_none(rec.get("time_control"))))
            self._insert(c, game_id, 0, rec["decisions"])

    def append(self, game_id: str, start: int, options: list, over: bool, result: dict | None,
               time_control: dict | None = None) -> None:
        """Decisions ``start``, ``start + 1``, ... of the game, its counters and its time control (the clocks
        after them), in one transaction."""
        if not options:
            return
        with self._write, self.engine.begin() as c:
            n = c.execute(update(games).where(games.c.id == game_id, games.c.n_decisions == start).values(
                n_decisions=start + len(options), over=over, result=json.dumps(result) if result else None,
                time_control=_json_or_none(time_control), updated=time.time())).rowcount
            if n != 1:
                raise StoreError(f"game {game_id}: stored decisions are not at {start} (concurrent writer?)")
            self._insert(c, game_id, start, options)

    def configure(self, game_id: str, n_decisions: int, ai: str | None, ai_from: int,
                  time_control: dict | None) -> None:
        """The game's AI (a strength level set mid-game: the agent and the decision it took over at) and its
        time control, at ``n_decisions`` decisions stored."""
        with self._write, self.engine.begin() as c:
            n = c.execute(update(games).where(games.c.id == game_id, games.c.n_decisions == n_decisions).values(
                ai=ai, ai_from=ai_from, time_control=_json_or_none(time_control), updated=time.time())).rowcount
            if n != 1:
                raise StoreError(f"game {game_id}: stored decisions are not at {n_decisions} (concurrent writer?)")

    @staticmethod
    def _insert(c, game_id: str, start: int, options: list) -> None:
        if options:
            c.execute(insert(decisions), [{"game": game_id, "idx": start + i, "option": json.dumps(list(o))}
                                          for i, o in enumerate(options)])

    # ------------------------------------------------------------------ reads
    def load(self, game_id: str) -> dict | None:
        """The game's record (:meth:`Session.record` fields), tokens hashes and flags, or None."""
        with self.engine.connect() as c:
            row = c.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            opts = [json.loads(r[0]) for r in c.execute(
                select(decisions.c.option).where(decisions.c.game == game_id).order_by(decisions.c.idx))]
        if len(opts) != row["n_decisions"]:
            raise StoreError(f"game {game_id}: {len(opts)} decisions stored, {row['n_decisions']} expected")
        return {"scenario": json.loads(row["scenario"]), "seed": row["seed"], "options": json.loads(row["options"]),
                "ai": row["ai"], "ai_side": row["ai_side"], "ai_seed": row["ai_seed"], "ai_from": row["ai_from"],
                "decisions": opts, "tokens": (row["token0"], row["token1"]), "secret_seed": bool(row["secret_seed"]),
                "over": bool(row["over"]),
                "time_control": json.loads(row["time_control"]) if row["time_control"] else None}

    def count(self) -> int:
        from sqlalchemy import func
        with self.engine.connect() as c:
            return c.execute(select(func.count()).select_from(games)).scalar_one()


def _json_or_none(v) -> str | None:
    return json.dumps(v) if v is not None else None


class _NoLock:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")  # readers do not block the writer
    cur.execute("PRAGMA synchronous=FULL")  # a commit is on disk before the server answers
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()
