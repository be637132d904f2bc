"""Reactions (seed 001, game option ``reactions``) and interrupts (seed 004, game option ``interrupt``): two ways of
breaking the strict alternation of activations, each a decision of the reacting side pushed in the kernel's
reaction windows (:mod:`.reactions`, :mod:`.interrupt`).  Both are off by default: a game without them plays as
before."""
