"""Seed 000 "MORALE": confidence tests, panic, terror, leadership tests, death of a leader."""
