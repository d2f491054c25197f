"""The review server: the same review on a PostgreSQL database whose walls hold it.

The coordinator publishes what the review needs from the audit file (:mod:`.publish`)
into a versioned schema (:mod:`.migrations`, ``sql/``); reviewers and adjudicators log
in as their own PostgreSQL roles (:mod:`.connection`) and reach everything through the
schema's functions (:mod:`.client`); the coordinator collects the whole review as a
notes export for the store beside the audit file (:mod:`.collect`). What a login may
read and write is decided by the database — row security, SECURITY DEFINER functions,
append-only triggers — never by this package.
"""
