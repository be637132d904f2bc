"""Seed 000 "ADDITIONAL RULES": casualty evacuation; buildings and fortifications (with seed 004's building assault
as a game option).  Fire, smoke, minefields, electronic warfare and drones are to come (docs/rules-coverage.md)."""
