import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

INNER_LR, INNER_STEPS = 0.1, 2


def sample_task():
    amp, phase = torch.rand(1) * 4 + 0.1, torch.rand(1) * 3.14
    def batch(n=10):
        x = torch.rand(n, 1) * 10 - 5
        return x, amp * torch.sin(x + phase)
    return batch


def adapt(model, params, x, y):
    for _ in range(INNER_STEPS):
        loss = F.mse_loss(functional_call(model, params, (x,)), y)
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
        params = {name: p - INNER_LR * g for (name, p), g in zip(params.items(), grads)}
    return params


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(4):
        meta_opt.zero_grad()
        meta_loss = 0.0
        for _ in range(3):
            task = sample_task()
            x_s, y_s = task()
            x_q, y_q = task()
            fast = adapt(model, dict(model.named_parameters()), x_s, y_s)
            meta_loss = meta_loss + F.mse_loss(functional_call(model, fast, (x_q,)), y_q)
        (meta_loss / 3).backward()
        meta_opt.step()
        print(f"meta iter {it}: {meta_loss.item() / 3:.4f}")


if __name__ == "__main__":
    main()
