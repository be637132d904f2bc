"""Dustup for front-ends: one :class:`~.session.Session` per game, served over the stdio protocol
(:mod:`.protocol`, ``dustup engine``) and over HTTP (:mod:`.server`, ``dustup serve``, with a page)."""
from .session import ServiceError, Session  # noqa: F401
