"""AI4HSE Desk: an independent reviewer's desk for AI4HSE-Bench audit databases."""

__version__ = "0.1.0"
AUDIT_FORMAT = "ai4hse-audit"
AUDIT_SCHEMA_VERSION = 1

__all__ = ["AUDIT_FORMAT", "AUDIT_SCHEMA_VERSION", "__version__"]
