"""Seed 003, the Stargrunt house rules by the Dustup author, as game options: the house close combat
(``close_combat: "house"``) with its pursuit and concealment shift."""
