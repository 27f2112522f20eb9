"""The real-library suite (tests/realworld) runs only on request: it takes minutes and needs
transformers, timm, lightning and torchvision (`pip install -e .[realworld]`).

Ask for it with any of:
  GRADSCOPE_REALWORLD=1 pytest            (from anywhere)
  pytest -m realworld                     (from the repository root)
  pytest tests/realworld --realworld      (the option exists where this conftest is loaded at
                                           start-up, i.e. when tests/realworld is on the command line)
Otherwise its tests are collected and skipped, with that hint as the reason.
"""

import os

import pytest

REASON = ("real-library suite: run with GRADSCOPE_REALWORLD=1, `pytest -m realworld` "
          "or `pytest tests/realworld --realworld`")


def pytest_addoption(parser):
    parser.addoption("--realworld", action="store_true", default=False,
                     help="run the real-library suite in tests/realworld (slow; needs the realworld extra)")


def requested(config) -> bool:
    if os.environ.get("GRADSCOPE_REALWORLD") == "1":
        return True
    try:
        if config.getoption("--realworld"):
            return True
    except ValueError:  # this conftest was loaded after the command line was parsed
        pass
    markexpr = config.getoption("markexpr", default="") or ""
    return "realworld" in markexpr and "not realworld" not in markexpr


def pytest_collection_modifyitems(config, items):
    if requested(config):
        return
    skip = pytest.mark.skip(reason=REASON)
    for item in items:
        if item.get_closest_marker("realworld") is not None:
            item.add_marker(skip)
