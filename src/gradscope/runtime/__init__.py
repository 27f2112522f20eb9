"""The runtime: starts a program and watches it while the recorder records."""
