import torch
import torch.nn.functional as F


def resolve_layer(model, dotted):
    module = model
    for part in dotted.split("."):
        module = module[int(part)] if part.isdigit() else getattr(module, part)
    return module


class GradCAM:
    def __init__(self, model, target_layer):
        self.model = model
        self.activations = None
        self.gradients = None
        layer = resolve_layer(model, target_layer)
        self.handles = [
            layer.register_forward_hook(self._save_activation),
            layer.register_full_backward_hook(self._save_gradient),
        ]

    def _save_activation(self, module, inputs, output):
        self.activations = output.detach()

    def _save_gradient(self, module, grad_input, grad_output):
        self.gradients = grad_output[0].detach()

    def heatmap(self):
        weights = self.gradients.mean(dim=(2, 3), keepdim=True)
        cam = F.relu((weights * self.activations).sum(dim=1))
        cam = cam - cam.amin(dim=(1, 2), keepdim=True)
        return cam / (cam.amax(dim=(1, 2), keepdim=True) + 1e-6)

    def remove(self):
        for h in self.handles:
            h.remove()
