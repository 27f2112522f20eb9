import torch
import torch.nn.functional as F

from model import GrowingRegressor

CONFIG = {
    "block": "residual",
    "grow_at": [2, 4],
    "epochs": 6,
    "steps": 8,
    "lr": 2e-3,
}


def make_optimizer(model, lr):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
    return opt, sched


def target_fn(x):
    return torch.sin(x[:, 0]) + 0.5 * x[:, 1] * x[:, 2]


def run(cfg):
    torch.manual_seed(0)
    model = GrowingRegressor(8, 32, cfg["block"])
    optimizer, scheduler = make_optimizer(model, cfg["lr"])

    for epoch in range(cfg["epochs"]):
        if epoch in cfg["grow_at"]:
            model.grow()
            optimizer, scheduler = make_optimizer(model, cfg["lr"])
            print(f"epoch {epoch}: grew to {len(model.blocks)} blocks")

        for _ in range(cfg["steps"]):
            x = torch.randn(64, 8)
            loss = F.mse_loss(model(x), target_fn(x))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            scheduler.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    return model, optimizer


if __name__ == "__main__":
    model, optimizer = run(CONFIG)
