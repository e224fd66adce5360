"""The marks of a DUMPI file: its first bytes and its footer (sniffing needs them
without the record layouts of :mod:`.layouts`)."""

MAGIC = b"\xff\xaa\xddDUMPI"
FOOTER_MAGIC = 0xF007FEE7
