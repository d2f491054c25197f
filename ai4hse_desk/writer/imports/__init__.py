"""New audit databases from public benchmarks and runs: HSE-Bench, EnviroExam, a
questions CSV (each a new file), and ``import responses`` (a run added to a
database the desk itself made)."""
