from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F


def locate_candidate_layer(model, input_shape=(3, 64, 64)):
    module_mode = model.training
    model.eval()
    output_shapes = []

    def _record_output_shape(module, input, output, name=None):
        output_shapes.append((name, output.shape))

    hook_handles = []
    for n, m in model.named_modules():
        if isinstance(m, nn.Conv2d) or (isinstance(m, nn.Sequential) and n):
            hook_handles.append(m.register_forward_hook(partial(_record_output_shape, name=n)))
    with torch.no_grad():
        _ = model(torch.zeros((1, *input_shape), device=next(model.parameters()).device))
    for handle in hook_handles:
        handle.remove()
    model.training = module_mode
    candidate = None
    for layer_name, output_shape in output_shapes[::-1]:
        if len(output_shape) == 4 and (output_shape[2] > 1 or output_shape[3] > 1):
            candidate = layer_name
            break
    return candidate


class _CAM:
    def __init__(self, model, target_layer=None, input_shape=(3, 64, 64)):
        self.submodule_dict = dict(model.named_modules())
        if target_layer is None:
            target_layer = locate_candidate_layer(model, input_shape)
        self.target_names = [target_layer]
        self.model = model
        self.hook_a = [None]
        self.hook_handles = []
        for idx, name in enumerate(self.target_names):
            self.hook_handles.append(self.submodule_dict[name].register_forward_hook(partial(self._hook_a, idx=idx)))
        self._hooks_enabled = True
        self._relu = False

    def _hook_a(self, module, input, output, idx=0):
        if self._hooks_enabled:
            self.hook_a[idx] = output.data

    def remove_hooks(self):
        for handle in self.hook_handles:
            handle.remove()
        self.hook_handles.clear()

    def _get_weights(self, class_idx, scores):
        raise NotImplementedError

    def __call__(self, class_idx, scores, normalized=True):
        weights = self._get_weights(class_idx, scores)
        cams = []
        for w, act in zip(weights, self.hook_a):
            cam = (w[..., None, None] * act).sum(1)
            if self._relu:
                cam = F.relu(cam)
            if normalized:
                flat = cam.flatten(1)
                lo, hi = flat.min(1).values, flat.max(1).values
                cam = (cam - lo[:, None, None]) / (hi - lo).clamp(min=1e-7)[:, None, None]
            cams.append(cam)
        return cams


class _GradCAM(_CAM):
    def __init__(self, model, target_layer=None, input_shape=(3, 64, 64)):
        super().__init__(model, target_layer, input_shape)
        self._relu = True
        self.hook_g = [None]
        for idx, name in enumerate(self.target_names):
            self.hook_handles.append(self.submodule_dict[name].register_forward_hook(partial(self._hook_g, idx=idx)))

    def _store_grad(self, grad, idx=0):
        if self._hooks_enabled:
            self.hook_g[idx] = grad.data

    def _hook_g(self, module, input, output, idx=0):
        if self._hooks_enabled:
            self.hook_handles.append(output.register_hook(partial(self._store_grad, idx=idx)))

    def _backprop(self, scores, class_idx):
        loss = scores.gather(1, torch.as_tensor(class_idx).view(-1, 1)).sum()
        self.model.zero_grad()
        loss.backward(retain_graph=True)


class GradCAM(_GradCAM):
    def _get_weights(self, class_idx, scores):
        self._backprop(scores, class_idx)
        return [grad.flatten(2).mean(-1) for grad in self.hook_g]


class XGradCAM(_GradCAM):
    def _get_weights(self, class_idx, scores):
        self._backprop(scores, class_idx)
        weights = []
        for act, grad in zip(self.hook_a, self.hook_g):
            num = (grad * act).flatten(2).sum(-1)
            den = act.flatten(2).sum(-1).clamp(min=1e-7)
            weights.append(num / den)
        return weights
