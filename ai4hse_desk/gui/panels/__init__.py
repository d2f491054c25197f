"""Panels: the parts of a page that show one thing (the question, the verdict, the response …)."""
