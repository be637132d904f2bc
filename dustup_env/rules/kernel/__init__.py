"""The kernel: the game, its turn sequence and decision stack, state, dice, events, measurement, battlefield."""
