"""Run a callback right after the program's own `import torch` finishes.

gradscope does not import torch itself before the program runs: importing torch has visible
effects (warnings such as "Failed to initialize NumPy" on stderr, time), and they must happen
where and when they happen under plain Python. A program cannot make a tensor before it imports
torch, so starting the recorder just after that import loses nothing.
"""

from __future__ import annotations

import importlib.abc
import sys
from typing import Callable


class _AfterExec(importlib.abc.Loader):
    """Wraps torch's real loader for the duration of its import, then steps aside."""

    def __init__(self, loader, callback: Callable[[], None]):
        self._loader = loader
        self._callback = callback

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module) -> None:
        # Put the real loader back before torch's own code can look at it.
        module.__loader__ = self._loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        self._callback()

    def __getattr__(self, name):
        return getattr(self._loader, name)


class TorchImportWatcher(importlib.abc.MetaPathFinder):
    """A meta-path finder that only watches for `torch`; it never changes how it is found."""

    def __init__(self, callback: Callable[[], None]):
        self._callback = callback

    def install(self) -> None:
        if "torch" in sys.modules:  # already imported (e.g. by the -m target's package)
            self._callback()
        else:
            sys.meta_path.insert(0, self)

    def uninstall(self) -> None:
        if self in sys.meta_path:
            sys.meta_path.remove(self)

    def find_spec(self, fullname, path, target=None):
        if fullname != "torch":
            return None
        self.uninstall()  # one shot; also keeps the search below from finding us again
        for finder in sys.meta_path:
            find_spec = getattr(finder, "find_spec", None)
            if find_spec is None:
                continue
            spec = find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _AfterExec(spec.loader, self._callback)
                return spec
        return None
