import math

import torch
from torch.optim import Optimizer


class PaLMAdamW(Optimizer):
    """AdamW with the PaLM second-moment schedule (beta2_t = 1 - t ** -decay)."""

    def __init__(self, params, lr=1e-3, beta1=0.9, beta2_decay=0.8, eps=1e-8, weight_decay=0.0):
        defaults = dict(lr=lr, beta1=beta1, beta2_decay=beta2_decay, eps=eps, weight_decay=weight_decay)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        if closure is None:
            loss = None
        else:
            loss = closure()

        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            if not params:
                continue
            for p in params:
                state = self.state[p]
                if not state:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p)
                    state["exp_avg_sq"] = torch.zeros_like(p)
                state["step"] += 1
                t = state["step"]
                beta1 = group["beta1"]
                beta2 = 1.0 - t ** (-group["beta2_decay"])
                state["exp_avg"].lerp_(p.grad, 1 - beta1)
                state["exp_avg_sq"].mul_(beta2).addcmul_(p.grad, p.grad, value=1 - beta2)
                denom = state["exp_avg_sq"].sqrt().add_(group["eps"])
                bias_correction = 1 - beta1 ** t
                if group["weight_decay"]:
                    p.mul_(1 - group["lr"] * group["weight_decay"])
                p.addcdiv_(state["exp_avg"], denom, value=-group["lr"] / bias_correction)
        return loss


OPTIMIZERS = {
    "adamw": lambda params, cfg: torch.optim.AdamW(params, lr=cfg["lr"], weight_decay=cfg["weight_decay"]),
    "palm_adamw": lambda params, cfg: PaLMAdamW(params, lr=cfg["lr"], weight_decay=cfg["weight_decay"]),
}


def build_optimizer(params, cfg):
    name = cfg["name"].lower()
    if name not in OPTIMIZERS:
        raise KeyError(f"unknown optimizer {name!r}; choose from {sorted(OPTIMIZERS)}")
    return OPTIMIZERS[name](params, cfg)


def cosine_lr(step, total, warmup):
    if step < warmup:
        return (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return 0.5 * (1 + math.cos(math.pi * progress))
