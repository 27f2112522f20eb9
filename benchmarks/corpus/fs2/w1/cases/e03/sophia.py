import torch
from torch.optim import Optimizer


class SophiaG(Optimizer):
    def __init__(self, params, lr=1e-4, betas=(0.965, 0.99), rho=0.04, weight_decay=1e-1, bs=512):
        defaults = dict(lr=lr, betas=betas, rho=rho, weight_decay=weight_decay, bs=bs)
        super().__init__(params, defaults)

    @torch.no_grad()
    def update_hessian(self):
        for group in self.param_groups:
            beta2 = group["betas"][1]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if "hessian" not in state:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p)
                    state["hessian"] = torch.zeros_like(p)
                state["hessian"].mul_(beta2).addcmul_(p.grad, p.grad, value=1 - beta2)

    @torch.no_grad()
    def step(self, closure=None, bs=None):
        for group in self.param_groups:
            beta1 = group["betas"][0]
            bs = bs or group["bs"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if "hessian" not in state:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p)
                    state["hessian"] = torch.zeros_like(p)
                state["step"] += 1
                p.mul_(1 - group["lr"] * group["weight_decay"])
                state["exp_avg"].mul_(beta1).add_(p.grad, alpha=1 - beta1)
                ratio = (state["exp_avg"].abs() / (group["rho"] * bs * state["hessian"] + 1e-15)).clamp(None, 1)
                p.addcmul_(state["exp_avg"].sign(), ratio, value=-group["lr"])
