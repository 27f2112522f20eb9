import torch

from profiles import build_profile

CONFIG = {
    "lens": {"type": "nfw", "log_kappa_s": -0.5, "log_r_s": 0.3},
    "truth": {"type": "nfw", "log_kappa_s": -0.2, "log_r_s": 0.0},
    "lr": 0.05,
    "iters": 40,
}


def simulate_arcs(truth, n=48, noise=0.01, seed=4):
    g = torch.Generator().manual_seed(seed)
    r = torch.rand(n, generator=g) * 0.9 + 0.05
    with torch.no_grad():
        alpha = truth(r)
    return r, alpha + noise * torch.randn(n, generator=g)


def fit(cfg=CONFIG):
    torch.manual_seed(0)
    truth = build_profile(cfg["truth"])
    r_obs, alpha_obs = simulate_arcs(truth)
    lens = build_profile(cfg["lens"])
    opt = torch.optim.Adam(lens.parameters(), lr=cfg["lr"])
    for it in range(cfg["iters"]):
        alpha = lens(r_obs)
        loss = ((alpha - alpha_obs) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if it % 10 == 0:
            print(f"iter {it:3d}  chi2 {loss.item():.5f}")
    return lens, truth


if __name__ == "__main__":
    lens, truth = fit()
    print({n: round(p.item(), 4) for n, p in lens.named_parameters()})
