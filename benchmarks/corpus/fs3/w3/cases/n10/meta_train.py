import torch

from learner import MAML, SineRegressor
from tasks import SineTasks

CONFIG = {"meta_lr": 1e-3, "meta_batch": 2, "iterations": 6, "inner_lr": 0.01, "inner_steps": 2,
          "first_order": False}


def meta_train():
    torch.manual_seed(1)
    model = SineRegressor()
    maml = MAML(model, CONFIG["inner_lr"], CONFIG["inner_steps"], CONFIG["first_order"])
    meta_opt = torch.optim.Adam(model.parameters(), lr=CONFIG["meta_lr"])
    tasks = SineTasks(seed=2)

    for it in range(CONFIG["iterations"]):
        meta_opt.zero_grad()
        total = 0.0
        for _ in range(CONFIG["meta_batch"]):
            (xs, ys), (xq, yq) = tasks.sample()
            adapted = maml.adapt(xs, ys)
            loss = maml.query_loss(adapted, xq, yq) / CONFIG["meta_batch"]
            loss.backward()
            total += loss.item()
        meta_opt.step()
        if it % 2 == 0:
            print(f"iter {it} meta_loss {total:.4f}")
    return model, maml


if __name__ == "__main__":
    model, maml = meta_train()
