"""Small reusable widgets: plain-text labels, check lists, read-only tables, the search bar."""
