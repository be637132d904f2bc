"""The ``dustup`` command line: above the engine (``dustup_env``), it drives the agents (``agents``), the
tournaments and odds (``evaluation``) and training (``training``).  ``python -m dustup_cli`` is ``dustup``."""
