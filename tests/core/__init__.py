"""Core tests: no Qt, real SQLite files."""
