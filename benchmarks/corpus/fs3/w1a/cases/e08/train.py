"""Train the binary VAE on synthetic binarized patterns."""
import torch

from model import BinaryVAE, elbo_loss

CONFIG = {
    "x_dim": 64,
    "z_dim": 16,
    "prior": "learned",
    "beta": 0.5,
    "lr": 1e-3,
    "batch_size": 32,
    "steps": 6,
    "log_every": 2,
}


def make_batch(batch_size, x_dim, protos):
    idx = torch.randint(0, len(protos), (batch_size,))
    noise = (torch.rand(batch_size, x_dim) < 0.05).float()
    return (protos[idx] + noise).clamp(max=1.0)


def main():
    torch.manual_seed(0)
    protos = (torch.rand(8, CONFIG["x_dim"]) < 0.3).float()
    model = BinaryVAE(x_dim=CONFIG["x_dim"], z_dim=CONFIG["z_dim"], prior=CONFIG["prior"])
    optimizer = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])
    for step in range(CONFIG["steps"]):
        x = make_batch(CONFIG["batch_size"], CONFIG["x_dim"], protos)
        loss, rec, kl = elbo_loss(model, x, beta=CONFIG["beta"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            model.prior_probs.clamp_(1e-3, 1 - 1e-3)
        if step % CONFIG["log_every"] == 0:
            print(f"step {step}: loss {loss.item():.3f} rec {rec:.3f} kl {kl:.3f}")


if __name__ == "__main__":
    main()
