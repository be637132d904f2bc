"""Seed 000 "RULES OVERVIEW": seizing the initiative, random activation, and the inbound chart's reinforcements
(the turn sequence, passing and unit activation themselves are the kernel's)."""
