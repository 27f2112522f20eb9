from functools import partial

import torch
from lightning.pytorch.callbacks import Callback
from torch import nn

PRUNABLE_TYPES = (nn.Conv2d, nn.Linear)


def get_prunable_layers(module):
    return [(name, m) for name, m in module.named_modules() if isinstance(m, PRUNABLE_TYPES)]


class GMPruningModifier:
    """Gradual magnitude pruning with gradient masking."""

    def __init__(self, params="__ALL_PRUNABLE__", init_sparsity=0.05, final_sparsity=0.5,
                 start_epoch=0, end_epoch=4, update_frequency=1):
        self.params = params
        self.init_sparsity = init_sparsity
        self.final_sparsity = final_sparsity
        self.start_epoch = start_epoch
        self.end_epoch = end_epoch
        self.update_frequency = update_frequency
        self._layers = []
        self._params = []
        self._masks = []
        self._gradient_hooks = []

    def initialize(self, module):
        for name, layer in get_prunable_layers(module):
            if self.params != "__ALL_PRUNABLE__" and name not in self.params:
                continue
            self._layers.append(layer)
            self._params.append(layer.weight)
            self._masks.append(torch.ones_like(layer.weight, dtype=torch.bool))
            self._gradient_hooks.append(None)
        self._create_hooks()

    def _hook_mask_gradient(self, idx, grad):
        return grad.mul(self._masks[idx].to(grad.dtype))

    def _create_hooks(self):
        for idx, (param, layer) in enumerate(zip(self._params, self._layers)):
            if self._gradient_hooks[idx] is None:
                self._gradient_hooks[idx] = param.register_hook(
                    partial(self._hook_mask_gradient, idx))

    def sparsity_at(self, epoch):
        if epoch < self.start_epoch:
            return 0.0
        if epoch >= self.end_epoch:
            return self.final_sparsity
        frac = (epoch - self.start_epoch) / max(1, self.end_epoch - self.start_epoch)
        return self.init_sparsity + (self.final_sparsity - self.init_sparsity) * frac

    @torch.no_grad()
    def update_masks(self, epoch):
        sparsity = self.sparsity_at(epoch)
        for idx, param in enumerate(self._params):
            k = int(sparsity * param.numel())
            if k == 0:
                continue
            threshold = param.abs().flatten().kthvalue(k).values
            self._masks[idx] = param.abs() > threshold
            param.mul_(self._masks[idx])


class PruningCallback(Callback):
    def __init__(self, **modifier_kwargs):
        self.modifier = GMPruningModifier(**modifier_kwargs)

    def on_fit_start(self, trainer, pl_module):
        self.modifier.initialize(pl_module)

    def on_train_epoch_start(self, trainer, pl_module):
        self.modifier.update_masks(trainer.current_epoch)
