import torch

from sae import TopKSAE
from topk_trainer import TopKTrainer

CFG = {"d_model": 16, "d_hidden": 64, "k": 4, "k_aux": 16, "lambda_aux": 1 / 32,
       "dead_after": 5, "lr": 3e-3, "steps": 60}


def activation_stream(g, n_steps, batch=64, d_model=16, n_atoms=24):
    atoms = torch.randn(n_atoms, d_model, generator=g)
    for _ in range(n_steps):
        coef = torch.rand(batch, n_atoms, generator=g) * (torch.rand(batch, n_atoms, generator=g) < 0.1)
        yield coef @ atoms


def main(cfg=CFG):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(6)
    sae = TopKSAE(cfg["d_model"], cfg["d_hidden"], cfg["k"])
    trainer = TopKTrainer(sae, cfg["lr"], cfg["k_aux"], cfg["lambda_aux"], cfg["dead_after"])
    for step, batch in enumerate(activation_stream(g, cfg["steps"])):
        log = trainer.run_batch(batch, log=step % 15 == 0)
        if log is not None:
            print(f"step {step:3d}  " + "  ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}"
                                              for k, v in log.items()))
    return sae, trainer


if __name__ == "__main__":
    sae, trainer = main()
