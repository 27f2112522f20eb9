import torch
from torch import nn


class L1FilterPruner:
    def __init__(self, model, sparsity):
        self.model = model
        self.sparsity = sparsity

    def compress(self):
        masks = {}
        for name, module in self.model.named_modules():
            if isinstance(module, nn.Conv2d):
                norms = module.weight.detach().abs().sum(dim=(1, 2, 3))
                keep = max(1, int(round(module.out_channels * (1 - self.sparsity))))
                kept = norms.topk(keep).indices.sort().values
                masks[name] = kept
        return masks


def _set_module(model, name, new):
    parent_name, _, child = name.rpartition(".")
    parent = model.get_submodule(parent_name) if parent_name else model
    setattr(parent, child, new)


class ModelSpeedup:
    def __init__(self, model, masks):
        self.model = model
        self.masks = masks

    @torch.no_grad()
    def speedup_model(self):
        prev_kept = None
        modules = list(self.model.named_modules())
        for name, module in modules:
            if isinstance(module, nn.Conv2d):
                kept = self.masks[name]
                in_idx = prev_kept if prev_kept is not None else torch.arange(module.in_channels)
                new = nn.Conv2d(len(in_idx), len(kept), module.kernel_size, module.stride, module.padding,
                                bias=module.bias is not None)
                new.weight.copy_(module.weight[kept][:, in_idx])
                _set_module(self.model, name, new)
                prev_kept = kept
            elif isinstance(module, nn.BatchNorm2d) and prev_kept is not None:
                new = nn.BatchNorm2d(len(prev_kept))
                new.weight.copy_(module.weight[prev_kept])
                new.bias.copy_(module.bias[prev_kept])
                new.running_mean.copy_(module.running_mean[prev_kept])
                new.running_var.copy_(module.running_var[prev_kept])
                _set_module(self.model, name, new)
            elif isinstance(module, nn.Linear) and prev_kept is not None:
                new = nn.Linear(len(prev_kept), module.out_features)
                new.weight.copy_(module.weight[:, prev_kept])
                new.bias.copy_(module.bias)
                _set_module(self.model, name, new)
        return self.model
