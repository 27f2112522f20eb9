import torch

from model import TinyLM
from trainer import Trainer

config = {
    "vocab_size": 64,
    "hidden": 32,
    "heads": 4,
    "layers": 2,
    "max_position_embeddings": 16,
    "train_seq_len": 16,
    "eval_seq_len": 32,
    "batch_size": 8,
    "lr": 3e-4,
    "weight_decay": 0.01,
    "max_grad_norm": 1.0,
    "epochs": 2,
    "log_interval": 2,
    "eval_interval": 4,
}


def make_batches(n, batch_size, seq_len, vocab_size):
    return [torch.randint(0, vocab_size, (batch_size, seq_len)) for _ in range(n)]


def main():
    torch.manual_seed(0)
    model = TinyLM(config["vocab_size"], config["hidden"], config["heads"],
                   config["layers"], config["max_position_embeddings"])
    train_batches = make_batches(6, config["batch_size"], config["train_seq_len"], config["vocab_size"])
    eval_batches = make_batches(2, config["batch_size"], config["eval_seq_len"], config["vocab_size"])
    trainer = Trainer(model, config, train_batches, eval_batches)
    trainer.train()
    print("final eval ppl", trainer.evaluate())


if __name__ == "__main__":
    main()
