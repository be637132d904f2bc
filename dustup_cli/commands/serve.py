"""``dustup serve``: the HTTP game server with its database and the page at ``/`` (docs/server.md)."""
from __future__ import annotations

import sys


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "serve", help="the HTTP game server: play the AI in the browser (page at /, API docs at /docs)",
        description="Serve games over HTTP: the page at / plays the AI in the browser and replays saved "
                    "games; the JSON API (POST /games, GET /games/ID, POST /games/ID/play, ...) is documented "
                    "at /docs and in docs/server.md. Games are stored in a database and survive restarts.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine "
                                                        "only; 0.0.0.0 for every interface)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port, printed)")
    p.add_argument("--db", default="dustup-games.db",
                   help="the database: a SQLite file path (default dustup-games.db), a database URL "
                        "(sqlite:///path, postgresql://...), or :memory: (nothing kept)")
    p.add_argument("--allow-agent", action="append", default=[], metavar="policy:PATH",
                   help="also let clients pick this agent (a trained model: loaded with pickle, so only "
                        "files you trust); repeatable")
    p.add_argument("--cache", type=int, default=1000, help="games kept in memory (others are rebuilt from the "
                                                           "database when used; default 1000)")
    p.add_argument("--max-body", type=int, default=None, metavar="BYTES",
                   help="the largest request body accepted (default 1048576: 1 MiB); a larger one is refused "
                        "with 413 before it is read")
    p.add_argument("--access-log", action="store_true",
                   help="log every request (client address, method, path, status) to stderr")
    p.set_defaults(func=_run)


def _run(args) -> int:
    if not 0 <= args.port <= 65535:
        print(f"dustup serve: --port must be in 0..65535, not {args.port}", file=sys.stderr)
        return 2
    if args.max_body is not None and args.max_body < 1:
        print(f"dustup serve: --max-body must be a number of bytes >= 1, not {args.max_body}", file=sys.stderr)
        return 2
    for a in args.allow_agent:
        if not a.startswith("policy:") or len(a) <= len("policy:"):
            print(f"dustup serve: --allow-agent takes policy:PATH, not {a!r}", file=sys.stderr)
            return 2
    try:
        import uvicorn  # noqa: F401

        from dustup_env.service.server import MAX_BODY_BYTES, create_app
        from dustup_env.service.store import Store, StoreError
    except ImportError as e:
        print(f"dustup serve: needs the serve extra ({e.name} is missing): pip install 'dustup-ai[serve]'",
              file=sys.stderr)
        return 2
    import logging
    import socket

    import uvicorn

    try:
        store = Store(args.db)
    except StoreError as e:
        print(f"dustup serve: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001 - a bad URL or an unreachable database: one line, no traceback
        why = str(getattr(e, "orig", None) or e).splitlines()[0]  # the driver's own message, one line
        print(f"dustup serve: cannot open the database {_masked(args.db)!r}: {why}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="dustup serve: %(message)s", stream=sys.stderr)
    app = create_app(store, allow_agents=tuple(args.allow_agent), cache=args.cache,
                     max_body=MAX_BODY_BYTES if args.max_body is None else args.max_body)
    try:
        fam = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        sock = socket.socket(fam, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
    except OSError as e:
        print(f"dustup serve: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 2
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"dustup serve: http://{host}:{port}/ (API docs at /docs), database {store.display_url} "
          f"({store.count()} games)", file=sys.stderr, flush=True)
    # uvicorn's own loggers go through the handler above (log_config=None: every line "dustup serve: ...");
    # its level "warning" would also silence the access lines (INFO), so the access logger is set apart
    config = uvicorn.Config(app, log_level="warning", log_config=None, access_log=args.access_log,
                            timeout_graceful_shutdown=10)
    if args.access_log:
        logging.getLogger("uvicorn.access").setLevel(logging.INFO)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])  # Ctrl-C / SIGTERM: uvicorn finishes the requests in flight and stops
    except KeyboardInterrupt:
        pass
    finally:
        store.close()
    print("dustup serve: stopped", file=sys.stderr, flush=True)
    return 0


def _masked(db: str) -> str:
    """``--db`` without a password (for messages)."""
    try:
        from sqlalchemy.engine import make_url
        return make_url(db).render_as_string(hide_password=True) if "://" in db else db
    except Exception:  # noqa: BLE001 - not a URL: show it as given
        return db
