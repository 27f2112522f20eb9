import argparse

import torch
import torch.nn.functional as F

from modeling import Decoder, DecoderConfig


def get_batch(step, batch_size, seq_len, vocab):
    g = torch.Generator().manual_seed(step)
    tokens = torch.randint(0, vocab, (batch_size, seq_len + 1), generator=g)
    return tokens[:, :-1], tokens[:, 1:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--seq-len", type=int, default=24)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--grad-ckpt", action="store_true", default=True)
    args = parser.parse_args()

    torch.manual_seed(0)
    cfg = DecoderConfig(gradient_checkpointing=args.grad_ckpt)
    model = Decoder(cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    model.train()
    for step in range(args.steps):
        inputs, targets = get_batch(step, args.batch_size, args.seq_len, cfg.vocab_size)
        logits, _ = model(inputs)
        loss = F.cross_entropy(logits.reshape(-1, cfg.vocab_size), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
