import torch
import torch.nn.functional as F

from layers import ResidualMLP

CFG = dict(in_dim=6, hidden=32, out_dim=1, depth=2, n=512, batch_size=64, epochs=4,
           lr=3e-3, seed=0)


def make_dataset(cfg):
    x = torch.randn(cfg["n"], cfg["in_dim"])
    y = (x[:, :1].sin() + 0.5 * x[:, 1:2] * x[:, 2:3]).squeeze(1)
    return x, y + 0.05 * torch.randn_like(y)


def main(cfg):
    torch.manual_seed(cfg["seed"])
    x, y = make_dataset(cfg)
    model = ResidualMLP(cfg["in_dim"], cfg["hidden"], cfg["out_dim"], cfg["depth"])
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(cfg["n"])
        running = 0.0
        for idx in perm.split(cfg["batch_size"]):
            pred = model(x[idx]).squeeze(1)
            loss = F.mse_loss(pred, y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item() * len(idx)
        print(f"epoch {epoch}: mse {running / cfg['n']:.4f}")


if __name__ == "__main__":
    main(CFG)
