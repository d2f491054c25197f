"""Alembic migrations of the notes store, run in code by :mod:`ai4hse_desk.notes.backend`.

No ``alembic.ini`` is needed: the backend builds an Alembic ``Config`` whose
``script_location`` is this folder and hands ``env.py`` an open connection
(already inside a locked transaction) through ``config.attributes``. New
migrations go into ``versions/`` as ``vNNNN_<what>.py``; bump
``ai4hse_desk.notes.schema.SCHEMA_HEAD`` with them.
"""
