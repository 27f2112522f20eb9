import torch
import torch.nn.functional as F


class GradCAM:
    """Keeps the activations and gradients of one layer for attention maps."""

    def __init__(self, model, layer_name):
        self.model = model
        self.layer_name = layer_name
        self.activations = None
        self.gradients = None
        layer = dict(model.named_modules())[layer_name]
        self.handles = [
            layer.register_forward_hook(self._save_activation),
            layer.register_full_backward_hook(self._save_gradient),
        ]

    def _save_activation(self, module, inputs, output):
        self.activations = output

    def _save_gradient(self, module, grad_input, grad_output):
        self.gradients = grad_output[0]

    def attention_map(self, size):
        weights = self.gradients.mean(dim=(2, 3), keepdim=True).detach()
        cam = F.relu((weights * self.activations).sum(dim=1, keepdim=True))
        cam = F.interpolate(cam, size=size, mode="bilinear", align_corners=False)
        flat = cam.flatten(1)
        lo = flat.min(dim=1, keepdim=True)[0]
        hi = flat.max(dim=1, keepdim=True)[0]
        return ((flat - lo) / (hi - lo + 1e-6)).view_as(cam)

    def remove(self):
        for h in self.handles:
            h.remove()


def soft_mask(images, cam, sigma=10.0, omega=0.5):
    mask = torch.sigmoid(sigma * (cam - omega))
    return images - images * mask
