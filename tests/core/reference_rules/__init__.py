"""A frozen copy of the track rules as they stood before issue 16 (the test reference).

``tests/core/test_extract_differential.py`` runs these and the package's rules
on the same texts and asserts equal verdicts. Only the imports differ from the
package's modules at commit aee6c24 (``ai4hse_desk.protocol.X`` →
``reference_rules.X``); the shared vocabulary (``outcome``) is the package's.
Never edit the rules here: they are the behaviour the new code must keep.
"""
