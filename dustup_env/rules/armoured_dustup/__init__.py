"""Seed 000 "ARMOURED DUSTUP": heavy weapons, guided weapons and vehicles, one module per section of the rulebook
(docs/rules-coverage.md says what each covers; docs/architecture.md how they plug into the kernel)."""
