import torch

from model import DemandForecaster

CONFIG = {
    "features": ["price", "promo", "weekday", "temperature", "lag_1", "lag_7"],
    "scale_features": ["temperature"],
    "hidden": 32,
    "lr": 1e-3,
    "epochs": 5,
    "batch_size": 64,
}


def load_data(cfg, n=512, seed=0):
    g = torch.Generator().manual_seed(seed)
    price = 2 + 8 * torch.rand(n, generator=g)
    promo = (torch.rand(n, generator=g) < 0.2).float()
    weekday = torch.randint(0, 7, (n,), generator=g).float()
    temperature = 15 + 10 * torch.randn(n, generator=g)
    lag_1 = 200 + 150 * torch.rand(n, generator=g)
    lag_7 = lag_1 + 30 * torch.randn(n, generator=g)
    x = torch.stack([price, promo, weekday, temperature, lag_1, lag_7], 1)
    y = 0.8 * lag_1 - 10 * price + 40 * promo + 5 * torch.randn(n, generator=g)
    for name in cfg["scale_features"]:
        j = cfg["features"].index(name)
        x[:, j] = (x[:, j] - x[:, j].mean()) / x[:, j].std()
    return x, y


torch.manual_seed(0)
x, y = load_data(CONFIG)
model = DemandForecaster(len(CONFIG["features"]), CONFIG["hidden"])
optimizer = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])

for epoch in range(CONFIG["epochs"]):
    perm = torch.randperm(len(x))
    total = 0.0
    for i in range(0, len(x), CONFIG["batch_size"]):
        idx = perm[i:i + CONFIG["batch_size"]]
        optimizer.zero_grad()
        loss = model.loss(x[idx], y[idx])
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        total += loss.item() * len(idx)
    print(f"epoch {epoch} nll {total / len(x):.3f}")
