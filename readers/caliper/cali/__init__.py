"""The ``.cali`` text format: ``text`` (read a block at a time), ``lines`` (records
into arrays), ``meta`` (attributes and the metadata tree), ``decode`` (records
into the shared record table)."""
