"""Renderers: each turns a GraphFrame into text; none looks at the terminal."""
