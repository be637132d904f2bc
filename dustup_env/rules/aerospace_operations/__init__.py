"""Seed 000 "AEROSPACE OPERATIONS": aircraft, anti-aircraft fire, landing and insertion.  Not built yet
(docs/rules-coverage.md); docs/architecture.md shows where it plugs into the kernel."""
