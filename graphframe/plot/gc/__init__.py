"""The JVM GC plots (issue 32): one module per plot kind, each registered with the plot
registry, and the GC report page; :mod:`.common` holds what they share."""
