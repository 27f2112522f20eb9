import torch

from model import SkipGanomaly

OPT = {"nc": 1, "nf": 16, "lr": 2e-4, "w_adv": 1.0, "w_con": 50.0, "w_lat": 1.0,
       "batch_size": 16, "iters": 12, "isize": 32}


def normal_batch(n, size):
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, size), torch.linspace(-1, 1, size), indexing="ij")
    r = torch.rand(n, 1, 1) * 0.4 + 0.3
    img = ((xx ** 2 + yy ** 2).unsqueeze(0) < r ** 2).float() * 2 - 1
    return (img + 0.05 * torch.randn_like(img)).unsqueeze(1)


def main():
    torch.manual_seed(0)
    model = SkipGanomaly(OPT)
    for it in range(OPT["iters"]):
        x = normal_batch(OPT["batch_size"], OPT["isize"])
        model.set_input(x)
        errs = model.optimize_params()
        if it % 5 == 0:
            print(f"iter {it:3d}  " + "  ".join(f"{k} {v:.4f}" for k, v in errs.items()))


if __name__ == "__main__":
    main()
