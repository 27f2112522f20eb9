"""Class activation maps for torchvision classifiers (Grad-CAM, Layer-CAM)."""
import torch
import torch.nn.functional as F


def locate_layer(model, name):
    modules = dict(model.named_modules())
    if name not in modules:
        raise KeyError(f"no submodule named {name!r} in {type(model).__name__}")
    return modules[name]


class GradCAM:
    def __init__(self, model, target_layer):
        self.model = model
        self.target = locate_layer(model, target_layer)
        self.activations = None
        self.gradients = None
        self.handles = []
        self._register_hooks()

    def _register_hooks(self):
        self.handles.append(self.target.register_forward_hook(self._store_activation))
        self.handles.append(self.target.register_full_backward_hook(self._store_gradient))

    def _store_activation(self, module, inputs, output):
        self.activations = output.detach()

    def _store_gradient(self, module, grad_input, grad_output):
        self.gradients = grad_output[0].detach()

    def _hook_output_grad(self, module, inputs, output):
        output.register_hook(self._store_output_grad)

    def _store_output_grad(self, grad):
        self.gradients = grad.detach()

    def remove(self):
        for h in self.handles:
            h.remove()
        self.handles = []

    def _weights(self):
        return self.gradients.mean(dim=(2, 3), keepdim=True)

    def __call__(self, images, class_idx=None):
        self.model.zero_grad(set_to_none=True)
        scores = self.model(images)
        if class_idx is None:
            class_idx = scores.argmax(dim=1)
        picked = scores.gather(1, class_idx.view(-1, 1)).sum()
        picked.backward()
        cam = F.relu((self._weights() * self.activations).sum(dim=1))
        cam = cam / cam.flatten(1).amax(dim=1).clamp_min(1e-8).view(-1, 1, 1)
        return cam, class_idx


class LayerCAM(GradCAM):
    """Layer-CAM: element-wise weighting by the positive gradients."""

    def _register_hooks(self):
        self.handles.append(self.target.register_forward_hook(self._store_activation))
        self.handles.append(self.target.register_forward_hook(self._hook_output_grad))

    def _weights(self):
        return F.relu(self.gradients)


METHODS = {"gradcam": GradCAM, "layercam": LayerCAM}
