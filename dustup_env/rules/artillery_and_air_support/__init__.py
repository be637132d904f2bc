"""Seed 000 "Artillery and Air Support": ammunition, on-table and off-table fire, fire support requests.  Not
built yet (docs/rules-coverage.md); docs/architecture.md shows where it plugs into the kernel."""
