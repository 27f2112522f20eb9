import torch
import torch.nn.functional as F


class GradCAM:
    """Class activation maps weighted by the gradient of the class score."""

    def __init__(self, model, target_layer):
        self.model = model
        self.activations = None
        self.gradients = None
        modules = dict(model.named_modules())
        if target_layer not in modules:
            raise KeyError(f"unknown layer {target_layer!r}")
        layer = modules[target_layer]
        self.handles = [
            layer.register_forward_hook(self._save_activation),
            layer.register_full_backward_hook(self._save_gradient),
        ]

    def _save_activation(self, module, inputs, output):
        self.activations = output.detach()

    def _save_gradient(self, module, grad_input, grad_output):
        self.gradients = grad_output[0].detach()

    def remove(self):
        for h in self.handles:
            h.remove()

    def __call__(self, images, class_idx=None):
        self.model.zero_grad(set_to_none=True)
        logits = self.model(images)
        if class_idx is None:
            class_idx = logits.argmax(dim=1)
        score = logits.gather(1, class_idx.view(-1, 1)).sum()
        score.backward()
        weights = self.gradients.mean(dim=(2, 3), keepdim=True)
        cam = F.relu((weights * self.activations).sum(dim=1, keepdim=True))
        cam = F.interpolate(cam, size=images.shape[-2:], mode="bilinear",
                            align_corners=False)
        flat = cam.flatten(1)
        lo = flat.min(dim=1)[0].view(-1, 1, 1, 1)
        hi = flat.max(dim=1)[0].view(-1, 1, 1, 1)
        return (cam - lo) / (hi - lo + 1e-8), logits.detach()
