"""Views: the window's pages (attempts, scores, key audit) and the docks, composed of panels."""
