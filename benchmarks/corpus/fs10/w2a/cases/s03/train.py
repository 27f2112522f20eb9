import torch
import torch.nn as nn

from model import TabularNet

CONFIG = {
    "n_cont": 6,
    "cat_cardinalities": [5, 11, 3],
    "dim": 32,
    "num_layers": 3,
    "lr": 1e-3,
    "epochs": 4,
    "batch_size": 32,
}


def make_dataset(n, cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    x_cont = torch.randn(n, cfg["n_cont"], generator=g)
    x_cat = torch.stack([torch.randint(0, c, (n,), generator=g) for c in cfg["cat_cardinalities"]], dim=1)
    y = x_cont[:, 0] * 2.0 - x_cont[:, 1] + 0.5 * (x_cat[:, 0] == 2).float()
    return x_cont, x_cat, y


def batches(data, batch_size):
    x_cont, x_cat, y = data
    for i in range(0, len(y), batch_size):
        yield x_cont[i:i + batch_size], x_cat[i:i + batch_size], y[i:i + batch_size]


def fit(model, data, cfg):
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    criterion = nn.MSELoss()
    for epoch in range(cfg["epochs"]):
        model.train()
        total = 0.0
        for x_cont, x_cat, y in batches(data, cfg["batch_size"]):
            optimizer.zero_grad()
            pred = model(x_cont, x_cat)
            loss = criterion(pred, y)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(y)
        print(f"epoch {epoch}: mse {total / len(data[2]):.4f}")
    return optimizer


def main():
    torch.manual_seed(0)
    model = TabularNet(CONFIG["n_cont"], CONFIG["cat_cardinalities"],
                       dim=CONFIG["dim"], num_layers=CONFIG["num_layers"])
    data = make_dataset(256, CONFIG)
    optimizer = fit(model, data, CONFIG)
    return model, optimizer


if __name__ == "__main__":
    model, optimizer = main()
