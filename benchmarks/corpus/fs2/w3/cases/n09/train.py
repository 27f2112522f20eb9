import math

import torch

from meta import MAML
from model import Regressor

CFG = dict(meta_batch=4, k_shot=10, k_query=10, iterations=60, inner_lr=0.01,
           inner_steps=1, meta_lr=3e-3, seed=0)


def sample_sinusoid_tasks(n_tasks, k_shot, k_query, g):
    tasks = []
    for _ in range(n_tasks):
        amp = 0.1 + 4.9 * torch.rand(1, generator=g)
        phase = math.pi * torch.rand(1, generator=g)
        x = 10 * torch.rand(k_shot + k_query, 1, generator=g) - 5
        y = amp * torch.sin(x - phase)
        tasks.append((x[:k_shot], y[:k_shot], x[k_shot:], y[k_shot:]))
    return tasks


def main(cfg):
    torch.manual_seed(cfg["seed"])
    g = torch.Generator().manual_seed(cfg["seed"])
    model = Regressor()
    maml = MAML(model, cfg["inner_lr"], cfg["inner_steps"], cfg["meta_lr"])
    val_tasks = sample_sinusoid_tasks(8, cfg["k_shot"], cfg["k_query"], g)
    for it in range(cfg["iterations"]):
        tasks = sample_sinusoid_tasks(cfg["meta_batch"], cfg["k_shot"], cfg["k_query"], g)
        train_loss = maml.meta_step(tasks)
        if it % 10 == 0 or it == cfg["iterations"] - 1:
            print(f"iter {it}: meta-train {train_loss:.3f} meta-val {maml.evaluate(val_tasks):.3f}")


if __name__ == "__main__":
    main(CFG)
