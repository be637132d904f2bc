"""``dustup engine``: the stdio JSON-lines protocol for front-ends (docs/protocol.md)."""
from __future__ import annotations

import argparse
import signal
import sys


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "engine", help="speak the JSON-lines protocol on stdin/stdout (an AI opponent for front-ends)",
        description="Read one JSON request per line on stdin, write exactly one JSON response per line on "
                    "stdout (logs on stderr). Start with {\"cmd\": \"hello\"} or {\"cmd\": \"new\", \"scenario\": "
                    "\"skirmish\", \"you\": 0, \"ai\": \"hard\"}; {\"cmd\": \"quit\"} or end of input stops. "
                    "The protocol is documented in docs/protocol.md.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(func=_run)


def _run(args) -> int:
    from dustup_env.service.protocol import serve_stdio

    try:
        return serve_stdio()
    except KeyboardInterrupt:
        print("dustup engine: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the front-end went away
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        return 0
