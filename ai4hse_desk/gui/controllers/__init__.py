"""Controllers: QObjects that carry requests between the views and the core, through signals."""
