import torch

from nets import D, G
from train_fns import GAN_training_function

config = {
    "dim_z": 16,
    "batch_size": 16,
    "num_D_steps": 2,
    "num_D_accumulations": 1,
    "G_lr": 1e-4,
    "D_lr": 4e-4,
    "iters": 12,
}


def sample_digits_like(n):
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, 16), torch.linspace(-1, 1, 16), indexing="ij")
    w = torch.rand(n, 1, 1) * 0.3 + 0.1
    bars = (xx.abs().unsqueeze(0) < w).float()
    return (bars * 2 - 1).unsqueeze(1)


def main():
    torch.manual_seed(0)
    g, d = G(config["dim_z"]), D()
    G_optim = torch.optim.Adam(g.parameters(), lr=config["G_lr"], betas=(0.0, 0.999))
    D_optim = torch.optim.Adam(d.parameters(), lr=config["D_lr"], betas=(0.0, 0.999))
    train = GAN_training_function(g, d, G_optim, D_optim, config)
    for it in range(config["iters"]):
        x = sample_digits_like(config["batch_size"] * config["num_D_steps"])
        metrics = train(x)
        if it % 5 == 0:
            print(f"itr {it:3d}  " + "  ".join(f"{k} {v:+.4f}" for k, v in metrics.items()))


if __name__ == "__main__":
    main()
