"""Renderers: turn findings (and the trace) into something to read. One module per format."""
