"""Seed 000 "ARMOURED DUSTUP": heavy weapons, guided weapons and vehicles.  Not built yet (docs/rules-coverage.md);
docs/architecture.md shows where each part plugs into the kernel."""
