import argparse
import json

import torch

from cvs import DeepTDA

torch.manual_seed(0)

DEFAULT_CONFIG = {
    "n_states": 2,
    "n_cvs": 1,
    "target_centers": [-7.0, 7.0],
    "target_sigmas": [0.2, 0.2],
    "layers": [45, 24, 12, 1],
    "options": {"nn": {"activation": "relu", "dropout": [0.1, 0.1, None]}},
    "lr": 1e-3,
    "epochs": 5,
    "batch_size": 64,
}


def make_dataset(n_per_state=256, n_features=45):
    xs, ys = [], []
    for state in range(2):
        center = torch.randn(n_features) * (1.0 + state)
        xs.append(center + 0.3 * torch.randn(n_per_state, n_features))
        ys.append(torch.full((n_per_state,), state, dtype=torch.long))
    return torch.cat(xs), torch.cat(ys)


def iterate(x, y, batch_size):
    perm = torch.randperm(len(x))
    for i in range(0, len(x), batch_size):
        idx = perm[i:i + batch_size]
        yield x[idx], y[idx]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default=None)
    args = parser.parse_args()
    cfg = dict(DEFAULT_CONFIG)
    if args.config:
        with open(args.config) as f:
            cfg.update(json.load(f))

    x, y = make_dataset()
    model = DeepTDA(cfg["n_states"], cfg["n_cvs"], cfg["target_centers"],
                    cfg["target_sigmas"], cfg["layers"], options=cfg["options"])
    model.set_input_stats(x)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])

    for epoch in range(cfg["epochs"]):
        model.train()
        total = 0.0
        for batch in iterate(x, y, cfg["batch_size"]):
            loss = model.training_step(batch)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total:.3f}")


if __name__ == "__main__":
    main()
