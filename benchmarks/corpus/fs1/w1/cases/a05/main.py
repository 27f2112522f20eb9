import compat  # noqa: F401
import torch

from model import build_summarizer
from trainer import SelfCriticalTrainer


def make_batches(n_batches=3, batch_size=4, src_len=12, tgt_len=6, vocab=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n_batches):
        src = torch.randint(2, vocab, (batch_size, src_len), generator=g)
        tgt = src[:, :tgt_len].clone()
        yield {"input_ids": src, "attention_mask": torch.ones_like(src), "labels": tgt}


def main():
    torch.manual_seed(0)
    model = build_summarizer()
    trainer = SelfCriticalTrainer(model)
    for step, batch in enumerate(make_batches()):
        loss, reward = trainer.step(batch)
        print(f"step {step}: loss {loss:.4f} reward {reward:.3f}")


if __name__ == "__main__":
    main()
