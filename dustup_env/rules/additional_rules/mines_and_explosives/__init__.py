"""Seed 000 "ADDITIONAL RULES › Mines and Explosives" (L1924-1994): minefields (AP, AT, mixed and dummy counters),
mine clearing (infantry lanes, rushing, ploughs and rollers, line charges), several counters, command-detonated
mines, booby traps and improvised explosive devices.

* :mod:`.minefields`: the counters as table entities, the tests of a unit moving through them (the kernel's
  ``move_step`` point), no prop in a minefield, infantry lanes, ploughs and rollers, line charges, the scenario's
  ``mines`` and ``mine_clearing`` data, the ``mines`` observation piece and the dice procedures the odds use;
* :mod:`.command_detonated`: command-detonated mines, fired by a decision of their side in the kernel's reaction
  windows (mid-move and at the end of an enemy activation);
* :mod:`.booby_traps`: booby traps and IEDs.

Every counter is its owner's secret (``known="owner"``) until it is found or set off: then both sides know it
(``table.reveal``).  The rules switch on only in a game whose scenario places a counter or gives a unit a clearing
device (:func:`.minefields.has_mines`), so every other game plays as before.
"""
