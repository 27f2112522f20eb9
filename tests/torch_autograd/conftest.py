"""PyTorch's own autograd tests (third-party, in upstream/) are collected only on request.

The default `pytest` run of this repository skips them: they take minutes and they test torch,
not gradscope. tests/torch_autograd/run_autograd_tests.py sets GRADSCOPE_UPSTREAM_TESTS=1 to
run them (plain, under `gradscope run`, and with `--gradscope`).
"""

import os

if os.environ.get("GRADSCOPE_UPSTREAM_TESTS") != "1":
    collect_ignore_glob = ["upstream/*", "upstream/**"]
