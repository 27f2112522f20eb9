import torch

from config import TrainConfig
from model import TransformerLM
from trainer import Trainer


def epoch_batches(cfg, generator):
    for _ in range(cfg.batches_per_epoch):
        tokens = torch.randint(1, cfg.vocab_size, (cfg.batch_size, cfg.seq_len), generator=generator)
        tokens[:, -2:] = 0
        yield tokens


def main():
    cfg = TrainConfig()
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    trainer = Trainer(cfg, TransformerLM(cfg))
    for epoch in range(cfg.max_epoch):
        trainer.begin_epoch(epoch)
        losses = [trainer.train_step(tokens) for tokens in epoch_batches(cfg, gen)]
        print(f"epoch {epoch}: loss {sum(losses) / len(losses):.4f}")
    return trainer


if __name__ == "__main__":
    trainer = main()
