"""Seed 000 "FORCES": unit types, leaders, commanders, quality and leadership, confidence, commitment, fatigue."""
