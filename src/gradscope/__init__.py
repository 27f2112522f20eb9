"""gradscope: a debugger for PyTorch autograd.

Importing the package imports neither torch nor the command line: `gradscope --help`, reading
a report and the pytest plugin stay fast and torch-free.
"""

__version__ = "0.1.0"


def __getattr__(name: str):
    # `gradscope.record`, `gradscope.Recording`, `gradscope.RecordingError`: loaded on first use,
    # so that `import gradscope` stays cheap (torch is imported when a recording starts).
    if name in ("record", "Recording"):
        from . import api

        return getattr(api, name)
    if name == "RecordingError":
        from .errors import RecordingError

        return RecordingError
    raise AttributeError(f"module 'gradscope' has no attribute {name!r}")


def load_ipython_extension(shell) -> None:
    """`%load_ext gradscope`: the %%gradscope and %gradscope magics (see gradscope.ipython)."""
    from . import ipython

    ipython.load(shell)


def unload_ipython_extension(shell) -> None:
    from . import ipython

    ipython.unload(shell)


__all__ = ["Recording", "RecordingError", "record"]
