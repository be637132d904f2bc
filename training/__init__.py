"""Training scripts for Dustup AI agents."""
