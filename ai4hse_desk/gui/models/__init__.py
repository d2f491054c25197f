"""Qt models: thin adapters over the review index and the scores rows (they filter nothing)."""
