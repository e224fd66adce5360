"""The scripts and the shim are data for test_scripts.py, not test modules."""

collect_ignore = ["scripts", "shim", "record.py"]
