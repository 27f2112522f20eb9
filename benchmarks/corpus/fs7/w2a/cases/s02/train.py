import argparse

import torch

from model import TiDEModel

DEFAULTS = {
    "target": ["load", "price"],
    "n_past_covariates": 2,
    "n_future_covariates": 3,
    "max_encoder_length": 24,
    "max_prediction_length": 6,
    "hidden_size": 32,
    "dropout": 0.1,
    "learning_rate": 3e-3,
    "batch_size": 16,
    "epochs": 3,
    "batches_per_epoch": 4,
}


def make_batch(hp, generator):
    n_targets = len(hp["target"]) if isinstance(hp["target"], list) else 1
    b, enc, dec = hp["batch_size"], hp["max_encoder_length"], hp["max_prediction_length"]
    t = torch.arange(enc + dec, dtype=torch.float32)
    phase = torch.rand(b, 1, 1, generator=generator) * 6.28
    series = torch.sin(t.view(1, -1, 1) / 4.0 + phase) + 0.1 * torch.randn(b, enc + dec, n_targets, generator=generator)
    past_cov = torch.randn(b, enc, hp["n_past_covariates"], generator=generator)
    future_cov = torch.randn(b, enc + dec, hp["n_future_covariates"], generator=generator)
    x = {
        "encoder_cont": torch.cat([series[:, :enc], past_cov], dim=2),
        "decoder_cont": future_cov,
    }
    y = [series[:, enc:, i] for i in range(n_targets)]
    return x, y


def compute_loss(prediction, target):
    if isinstance(prediction, list):
        return sum((p - y).abs().mean() for p, y in zip(prediction, target)) / len(prediction)
    return (prediction - target[0]).abs().mean()


class Trainer:
    def __init__(self, model, hp):
        self.model = model
        self.hp = hp
        self.optimizer = torch.optim.Adam(model.parameters(), lr=hp["learning_rate"])

    def training_step(self, x, y):
        self.optimizer.zero_grad()
        out = self.model(x)
        loss = compute_loss(out["prediction"], y)
        loss.backward()
        self.optimizer.step()
        return loss.detach()

    def fit(self, generator):
        for epoch in range(self.hp["epochs"]):
            self.model.train()
            losses = []
            for _ in range(self.hp["batches_per_epoch"]):
                x, y = make_batch(self.hp, generator)
                losses.append(self.training_step(x, y))
            print("epoch %d train_loss %.4f" % (epoch, torch.stack(losses).mean().item()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=DEFAULTS["epochs"])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    hp = dict(DEFAULTS, epochs=args.epochs)
    torch.manual_seed(args.seed)
    generator = torch.Generator().manual_seed(args.seed)
    model = TiDEModel(hp)
    trainer = Trainer(model, hp)
    trainer.fit(generator)
    return model


if __name__ == "__main__":
    model = main()
