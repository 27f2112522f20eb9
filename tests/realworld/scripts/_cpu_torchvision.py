"""Make ``import torchvision`` work with a CPU-only torch when torchvision's C++ ops can't load.

Why: the torchvision 0.28.0 wheel on PyPI is a CUDA build. Its extension ``torchvision/_C.so``
links against ``libtorch_cuda.so``/``libc10_cuda.so``, which the CPU build of torch 2.13 does
not ship, so the extension fails to load. torchvision is built to live without it (it only
registers its autograd, autocast and meta kernels when ``torchvision.extension._has_ops()``),
except for two unconditional ``@torch.library.register_fake`` decorators in
``torchvision/_meta_registrations.py``: ``torchvision::nms`` and ``torchvision::qnms``.
Registering a fake kernel needs the operator's schema, so ``import torchvision`` (and with it
``import timm``, ``import lightning``, the vision parts of ``transformers``) dies with
``RuntimeError: operator torchvision::nms does not exist``.

Fix: define just those two schemas (copied from torchvision's C++ sources) before torchvision
is imported. No kernels are registered: ``torchvision.ops.nms`` etc. still fail with
torchvision's own "Couldn't load custom C++ ops" message, and nothing a model such as ResNet
or a ViT uses is touched. Where the extension does load (a matching CPU or CUDA install),
this module does nothing.

Usage: ``import _cpu_torchvision  # noqa: F401`` before importing torchvision, timm,
lightning or transformers.
"""

import glob
import importlib.util
import os

import torch

_SCHEMAS = {
    "torchvision::nms": "(Tensor dets, Tensor scores, float iou_threshold) -> Tensor",
    "torchvision::qnms": "(Tensor dets, Tensor scores, float iou_threshold) -> Tensor",
}


def _extension_loads() -> bool:
    """Whether torchvision's own ``_C`` extension loads (then its ops are real; leave them)."""
    spec = importlib.util.find_spec("torchvision")
    if spec is None or not spec.submodule_search_locations:
        return True  # no torchvision: nothing to fix
    for folder in spec.submodule_search_locations:
        for path in glob.glob(os.path.join(folder, "_C*.so")) + glob.glob(os.path.join(folder, "_C*.pyd")):
            try:
                torch.ops.load_library(path)
                return True
            except (OSError, RuntimeError):
                return False
    return False


def _install() -> None:
    if _extension_loads():
        return
    for name, schema in _SCHEMAS.items():
        namespace, op = name.split("::")
        if not hasattr(getattr(torch.ops, namespace), op):
            torch.library.define(name, schema)


_install()
