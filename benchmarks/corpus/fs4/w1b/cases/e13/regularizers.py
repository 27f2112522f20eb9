import torch
from torch.func import vjp


class JacobianNormRegularizer:
    """Random-projection estimate of ||d logits / d x||_F^2 (Hoffman et al., 2019)."""

    def __init__(self, n_proj=1):
        self.n_proj = n_proj

    def __call__(self, model, x):
        logits, vjp_fn = vjp(model, x)
        penalty = x.new_zeros(())
        for _ in range(self.n_proj):
            v = torch.randn_like(logits)
            v = v / v.norm(dim=1, keepdim=True)
            (jv,) = vjp_fn(v)
            penalty = penalty + jv.pow(2).sum() / x.size(0)
        return logits, penalty * logits.size(1) / self.n_proj
