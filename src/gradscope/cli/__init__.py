"""The command line. Thin on purpose: parse, hand over, map errors to exit codes.

Exit codes of `gradscope run` (documented in the README):
  the program's own status   when it ran (0, sys.exit(n), 1 for an uncaught exception, ...)
  1                          the script has a syntax error, or the -m module cannot be found
  2                          the script file is missing or unreadable, or gradscope's own
                             options are wrong (unknown option, missing SCRIPT)
This mirrors Python (`python missing.py` exits 2, a syntax error exits 1).
"""

from . import run, graph, check, report, rules  # noqa: F401, I001  (each registers its command on `app`, in --help's order)
from .app import app, main

__all__ = ["app", "main"]
