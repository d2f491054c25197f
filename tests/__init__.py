"""The test suite (a package, so that each folder's conftest and helpers have one module name)."""
