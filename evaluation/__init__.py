"""Evaluation: simulations between agents, exact odds, (later) tournaments and ratings."""
