import torch

from trainer import WGANGPTrainer

HPARAMS = {
    "data_dim": 6,
    "batch_size": 128,
    "iterations": 120,
    "lr": 2e-4,
    "n_critic": 5,
    "lambda_gp": 10.0,
    "print_every": 20,
}


def make_tabular_sampler(dim, seed=0):
    g = torch.Generator().manual_seed(seed)
    a = torch.randn(dim, dim, generator=g)
    cov_factor = a / dim ** 0.5
    mean = torch.randn(dim, generator=g)

    def sample(n):
        return torch.randn(n, dim) @ cov_factor.T + mean

    return sample, mean, cov_factor @ cov_factor.T


def main(hp):
    torch.manual_seed(0)
    sampler, mean, cov = make_tabular_sampler(hp["data_dim"])
    trainer = WGANGPTrainer(sampler, hp["data_dim"], lr=hp["lr"],
                            n_critic=hp["n_critic"], lambda_gp=hp["lambda_gp"])
    for it in range(1, hp["iterations"] + 1):
        stats = trainer.train_iteration(hp["batch_size"])
        if it % hp["print_every"] == 0:
            print(f"iter {it:4d} " + " ".join(f"{k} {v:.4f}" for k, v in stats.items()))

    with torch.no_grad():
        gen = trainer.G(torch.randn(4000, trainer.z_dim))
    print(f"mean error {torch.linalg.vector_norm(gen.mean(0) - mean).item():.4f} "
          f"cov error {torch.linalg.matrix_norm(torch.cov(gen.T) - cov).item():.4f}")


if __name__ == "__main__":
    main(HPARAMS)
