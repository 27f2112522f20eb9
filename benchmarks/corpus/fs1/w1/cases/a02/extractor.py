"""Smooth Grad-CAM++ style activation extractor (hooks a target layer of a classifier)."""

import torch
import torch.nn.functional as F


class SmoothGradCAMpp:
    def __init__(self, model, target_layer, num_samples=4, std=0.2):
        self.model = model
        self.num_samples = num_samples
        self.std = std
        self.hook_a = None
        self.hook_g = None
        self._hooks_enabled = True
        self.handles = [target_layer.register_forward_hook(self._hook_activation)]

    def _hook_activation(self, module, inputs, output):
        if not self._hooks_enabled:
            return
        self.hook_a = output.detach()
        self.handles.append(output.register_hook(self._store_grad))

    def _store_grad(self, grad):
        if self._hooks_enabled:
            self.hook_g = grad.detach()

    def _backprop(self, scores, class_idx):
        loss = scores.gather(1, class_idx.view(-1, 1)).sum()
        self.model.zero_grad(set_to_none=True)
        loss.backward(retain_graph=True)

    def _weights(self, images, class_idx):
        grad_2 = torch.zeros_like(self.hook_a)
        grad_3 = torch.zeros_like(self.hook_a)
        for _ in range(self.num_samples):
            noisy = images + self.std * torch.randn_like(images)
            scores = self.model(noisy)
            self._backprop(scores, class_idx)
            grad_2 += self.hook_g.pow(2)
            grad_3 += self.hook_g.pow(3)
        grad_2 /= self.num_samples
        grad_3 /= self.num_samples
        alpha = grad_2 / (2 * grad_2 + (grad_3 * self.hook_a).sum(dim=(2, 3), keepdim=True) + 1e-7)
        return alpha.mul(F.relu(self.hook_g)).sum(dim=(2, 3), keepdim=True)

    def __call__(self, images, scores, class_idx=None):
        if class_idx is None:
            class_idx = scores.argmax(dim=1)
        weights = self._weights(images, class_idx)
        cam = F.relu((weights * self.hook_a).sum(dim=1))
        return cam / cam.flatten(1).amax(1).clamp_min(1e-7).view(-1, 1, 1)

    def remove_hooks(self):
        for h in self.handles:
            h.remove()
        self.handles = []
