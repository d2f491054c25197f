"""Dialogs that ask the reviewer: flags, attempt notes, histories, the reviewer's name."""
