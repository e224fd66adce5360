"""Hatchet's literal and ``to_json`` layouts, written and read back exactly."""
