from contextlib import contextmanager
from functools import partial

import torch.nn as nn


class HookPoint(nn.Module):
    """Identity module that gives a name to an activation so hooks can be attached to it."""

    def __init__(self):
        super().__init__()
        self.name = None
        self.fwd_hooks = []
        self.bwd_hooks = []

    def add_hook(self, hook, dir="fwd"):
        if dir == "fwd":

            def full_hook(module, module_input, module_output):
                return hook(module_output, hook=self)

            handle = self.register_forward_hook(full_hook)
            self.fwd_hooks.append(handle)
        elif dir == "bwd":

            def full_hook(module, module_input, module_output):
                return hook(module_output[0], hook=self)

            handle = self.register_full_backward_hook(full_hook)
            self.bwd_hooks.append(handle)
        else:
            raise ValueError(f"Invalid direction {dir}")

    def remove_hooks(self, dir="both"):
        if dir in ("fwd", "both"):
            for h in self.fwd_hooks:
                h.remove()
            self.fwd_hooks = []
        if dir in ("bwd", "both"):
            for h in self.bwd_hooks:
                h.remove()
            self.bwd_hooks = []

    def forward(self, x):
        return x


class HookedRootModule(nn.Module):
    def setup(self):
        self.hook_dict = {}
        for name, module in self.named_modules():
            if isinstance(module, HookPoint):
                module.name = name
                self.hook_dict[name] = module

    def add_hook(self, name, hook, dir="fwd"):
        if callable(name):
            for hp_name, hp in self.hook_dict.items():
                if name(hp_name):
                    hp.add_hook(hook, dir=dir)
        else:
            self.hook_dict[name].add_hook(hook, dir=dir)

    def reset_hooks(self):
        for hp in self.hook_dict.values():
            hp.remove_hooks("both")

    @contextmanager
    def hooks(self, fwd_hooks=(), bwd_hooks=()):
        try:
            for name, hook in fwd_hooks:
                self.add_hook(name, hook, dir="fwd")
            for name, hook in bwd_hooks:
                self.add_hook(name, hook, dir="bwd")
            yield self
        finally:
            self.reset_hooks()


def bind(hook, **kwargs):
    return partial(hook, **kwargs)
