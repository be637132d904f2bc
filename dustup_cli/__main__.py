"""``python -m dustup_cli ...`` runs the ``dustup`` command line."""
import sys

from dustup_cli.cli import main

sys.exit(main())
