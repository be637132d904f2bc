"""Seed 000 "Artillery and Air Support": requesting fire support (:mod:`.fire_support_request`), the missions from
the request to the impact (:mod:`.fire_missions`) and the impact (:mod:`.impacts`); docs/architecture.md shows how
they plug into the kernel."""
