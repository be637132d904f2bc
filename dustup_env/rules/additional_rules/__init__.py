"""Seed 000 "ADDITIONAL RULES": casualty evacuation.  Fire, smoke, minefields, buildings, electronic warfare and
drones are to come (docs/rules-coverage.md)."""
