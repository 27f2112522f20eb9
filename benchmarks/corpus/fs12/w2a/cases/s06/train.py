import torch

from model import ResponseSelector
from post_training import PostTrainer

HPARAMS = {
    "vocab": 300,
    "seq_len": 32,
    "batch_size": 16,
    "learning_rate": 3e-4,
    "weight_decay": 0.01,
    "warmup_steps": 5,
    "max_gradient_norm": 1.0,
    "num_steps": 20,
}


def make_batch(hp):
    ids = torch.randint(5, hp["vocab"], (hp["batch_size"], hp["seq_len"]))
    mlm_labels = torch.full_like(ids, -100)
    mask = torch.rand(ids.shape) < 0.15
    mlm_labels[mask] = ids[mask]
    ids = ids.masked_fill(mask, 4)
    labels = torch.randint(0, 2, (hp["batch_size"],))
    return {"ids": ids, "mlm_labels": mlm_labels, "labels": labels}


def main():
    torch.manual_seed(0)
    model = ResponseSelector(HPARAMS["vocab"])
    trainer = PostTrainer(model, HPARAMS)
    for step in range(HPARAMS["num_steps"]):
        loss = trainer.train_step(make_batch(HPARAMS))
        if step % 5 == 0:
            print(f"step {step:3d}  loss {loss:.4f}")


if __name__ == "__main__":
    main()
