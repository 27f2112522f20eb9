import copy

import torch
import torch.nn as nn


class EMA(nn.Module):
    """Exponential moving average of a model's weights, used for evaluation."""

    def __init__(self, model: nn.Module, decay: float = 0.999):
        super().__init__()
        self.module = copy.deepcopy(model)
        self.module.eval()
        self.decay = decay
        for p in self.module.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model: nn.Module):
        for ema_v, model_v in zip(self.module.parameters(), model.parameters()):
            ema_v.copy_(self.decay * ema_v + (1.0 - self.decay) * model_v)

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)


def build_ema(model, cfg):
    if not cfg.get("enabled", False):
        return None
    return EMA(model, decay=cfg["decay"])


def maybe_update(ema_model, model, step, cfg):
    if ema_model is None or step < cfg["start_step"]:
        return
    if step % cfg["every"] == 0:
        ema_model.update(model)
