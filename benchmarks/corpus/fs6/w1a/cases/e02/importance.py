import torch
import torch.nn as nn

TRACKED_TYPES = {
    "bn": (nn.BatchNorm2d,),
    "conv": (nn.Conv2d,),
}


class TaylorImportance:
    """First-order Taylor channel importance |a * dL/da|, averaged over batches."""

    def __init__(self, track="bn"):
        self.types = TRACKED_TYPES[track]
        self.handles = []
        self.activations = {}
        self.scores = {}
        self.batches = 0

    def attach(self, model):
        for name, module in model.named_modules():
            if isinstance(module, self.types):
                self.handles.append(module.register_forward_hook(self._make_forward_hook(name)))
                self.handles.append(module.register_full_backward_hook(self._make_backward_hook(name)))

    def detach(self):
        for h in self.handles:
            h.remove()
        self.handles.clear()

    def _make_forward_hook(self, name):
        def hook(module, inputs, output):
            self.activations[name] = output.detach()
        return hook

    def _make_backward_hook(self, name):
        def hook(module, grad_input, grad_output):
            act = self.activations.pop(name)
            score = (act * grad_output[0]).sum(dim=(2, 3)).abs().mean(dim=0)
            self.scores[name] = self.scores.get(name, 0) + score
        return hook

    def ranking(self, fraction):
        flat = []
        for name, s in self.scores.items():
            for c, v in enumerate(s.tolist()):
                flat.append((v, name, c))
        flat.sort()
        return flat[: int(len(flat) * fraction)]
