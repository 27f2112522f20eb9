import torch
import torch.nn as nn


class KFACPreconditioner:
    """Kronecker-factored preconditioner for Conv2d / Linear layers.

    Input activations are collected with forward pre-hooks, output gradients
    with module backward hooks; the factors are refreshed every
    `update_freq` steps and used to precondition the gradients in `step()`.
    """

    def __init__(self, model, damping=1e-3, factor_decay=0.95, update_freq=1, layer_types=(nn.Conv2d, nn.Linear)):
        self.damping = damping
        self.factor_decay = factor_decay
        self.update_freq = update_freq
        self.steps = 0
        self.modules = []
        self.a_factors, self.g_factors = {}, {}
        self._acts, self._grads = {}, {}
        self._handles = []
        for module in model.modules():
            if isinstance(module, layer_types) and module.weight.requires_grad:
                self.modules.append(module)
                self._handles.append(module.register_forward_pre_hook(self._save_input))
                self._handles.append(module.register_full_backward_hook(self._save_grad_output))

    def _collect(self):
        return self.steps % self.update_freq == 0

    def _save_input(self, module, inputs):
        if torch.is_grad_enabled() and self._collect():
            x = inputs[0].detach()
            if x.dim() == 4:
                x = x.mean(dim=(2, 3))
            self._acts[module] = x

    def _save_grad_output(self, module, grad_input, grad_output):
        if self._collect():
            g = grad_output[0].detach()
            if g.dim() == 4:
                g = g.mean(dim=(2, 3))
            self._grads[module] = g

    @torch.no_grad()
    def _update_factors(self):
        for m in self.modules:
            if m not in self._acts or m not in self._grads:
                continue
            a, g = self._acts[m], self._grads[m]
            a_diag = a.pow(2).mean(0)
            g_diag = g.pow(2).mean(0) * g.size(0)
            if m not in self.a_factors:
                self.a_factors[m], self.g_factors[m] = a_diag, g_diag
            else:
                self.a_factors[m].mul_(self.factor_decay).add_(a_diag, alpha=1 - self.factor_decay)
                self.g_factors[m].mul_(self.factor_decay).add_(g_diag, alpha=1 - self.factor_decay)

    @torch.no_grad()
    def step(self):
        if self._collect():
            self._update_factors()
        for m in self.modules:
            if m.weight.grad is None or m not in self.a_factors:
                continue
            g_f = self.g_factors[m] + self.damping
            a_f = self.a_factors[m] + self.damping
            shape = (-1, a_f.numel()) + (1,) * (m.weight.dim() - 2)
            scale = 1.0 / (g_f.view(-1, 1) * a_f.view(1, -1)).sqrt()
            m.weight.grad.mul_(scale.view(shape))
        self._acts.clear()
        self._grads.clear()
        self.steps += 1
