import torch
import torch.nn as nn

from model import VGRNN


ARGS = {
    "num_nodes": 30,
    "timesteps": 5,
    "h_dim": 32,
    "z_dim": 16,
    "lr": 1e-2,
    "clip": 10.0,
    "epochs": 8,
}


def normalize(adj):
    adj = adj + torch.eye(adj.size(0))
    deg = adj.sum(1)
    d_inv_sqrt = deg.pow(-0.5)
    return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]


def load_snapshots(num_nodes, timesteps, seed):
    g = torch.Generator().manual_seed(seed)
    adjs = []
    base = (torch.rand(num_nodes, num_nodes, generator=g) < 0.1).float()
    for _ in range(timesteps):
        flip = (torch.rand(num_nodes, num_nodes, generator=g) < 0.02).float()
        a = (base + flip).clamp(max=1.0)
        a = ((a + a.t()) > 0).float()
        a.fill_diagonal_(0)
        adjs.append(a)
    xs = [torch.eye(num_nodes) for _ in range(timesteps)]
    return xs, adjs, [normalize(a) for a in adjs]


def main():
    torch.manual_seed(0)
    xs, adjs, norm_adjs = load_snapshots(ARGS["num_nodes"], ARGS["timesteps"], seed=5)
    model = VGRNN(ARGS["num_nodes"], ARGS["h_dim"], ARGS["z_dim"])
    optimizer = torch.optim.Adam(model.parameters(), lr=ARGS["lr"])
    clip = ARGS["clip"]

    for k in range(ARGS["epochs"]):
        optimizer.zero_grad()
        kld_loss, nll_loss, _ = model(xs, adjs, norm_adjs)
        loss = kld_loss + nll_loss
        loss.backward()
        optimizer.step()

        nn.utils.clip_grad_norm_(model.parameters(), clip)

        print(f"epoch {k}: kld {kld_loss.item():.3f} nll {nll_loss.item():.3f}")
    return model


if __name__ == "__main__":
    model = main()
