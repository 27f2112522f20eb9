import torch


class FeatureTap:
    """Captures the outputs of named submodules on every forward."""

    def __init__(self, model, names):
        self.features = {}
        self.handles = []
        modules = dict(model.named_modules())
        for name in names:
            self.handles.append(modules[name].register_forward_hook(self._make_hook(name)))

    def _make_hook(self, name):
        def hook(module, inputs, output):
            self.features[name] = output
        return hook

    def remove(self):
        for h in self.handles:
            h.remove()


class GradNormLogger:
    def __init__(self, modules):
        self.norms = {}
        for name, m in modules.items():
            m.register_full_backward_hook(self._make_hook(name))

    def _make_hook(self, name):
        def hook(module, grad_input, grad_output):
            self.norms[name] = grad_output[0].detach().norm().item()
        return hook


def clip_grad_value_hooks(model, clip):
    handles = []
    for p in model.parameters():
        if p.requires_grad:
            handles.append(p.register_hook(lambda g: torch.clamp(g, -clip, clip)))
    return handles
