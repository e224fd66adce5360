"""Reading and writing GraphFrames: the one place that decides what a path is."""
