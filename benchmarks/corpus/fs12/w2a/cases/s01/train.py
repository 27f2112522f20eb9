import torch

from engine import SequentialEngine

CONFIG = {
    "x_dim": 8,
    "theta_dim": 2,
    "hidden": 64,
    "lr": 1e-3,
    "epochs": 5,
    "batch_size": 64,
    "rounds": 3,
    "sims_per_round": 512,
    "reinit_each_round": True,
}


class Prior:
    def sample(self, n):
        return torch.rand(n, 2) * 4 - 2


def simulator(theta):
    t = torch.linspace(0, 1, 8)
    signal = theta[:, :1] * torch.sin(3 * t) + theta[:, 1:] * t
    return signal + 0.1 * torch.randn_like(signal)


def main():
    torch.manual_seed(0)
    prior = Prior()
    engine = SequentialEngine(simulator, prior, CONFIG)
    x_obs = simulator(torch.tensor([[0.7, -1.2]]))[0]

    theta = prior.sample(CONFIG["sims_per_round"])
    for r in range(CONFIG["rounds"]):
        if CONFIG["reinit_each_round"]:
            engine.reset_network()
        x = simulator(theta)
        loss = engine.train_round(theta, x)
        est = engine.propose(x_obs, 256).mean(0)
        print(f"round {r}: nll {loss:.4f}  posterior mean {est.tolist()}")
        theta = torch.cat([theta, engine.propose(x_obs, CONFIG["sims_per_round"])])


if __name__ == "__main__":
    main()
