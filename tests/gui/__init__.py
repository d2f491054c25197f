"""Qt model and widget tests (offscreen)."""
