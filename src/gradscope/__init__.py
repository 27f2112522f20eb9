"""gradscope: a debugger for PyTorch autograd.

Importing the package imports neither torch nor the command line: `gradscope --help`, reading
a report and the pytest plugin stay fast and torch-free.
"""

__version__ = "0.1.0"
