import argparse
import math

import torch

from modeling import CausalLM, Config


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--gradient_checkpointing", action="store_true", default=True)
    p.add_argument("--max_steps", type=int, default=60)
    p.add_argument("--batch_size", type=int, default=16)
    p.add_argument("--seq_len", type=int, default=32)
    p.add_argument("--learning_rate", type=float, default=3e-3)
    p.add_argument("--logging_steps", type=int, default=10)
    return p.parse_args()


def synthetic_stream(batch_size, seq_len, vocab, gen):
    start = torch.randint(0, vocab, (batch_size, 1), generator=gen)
    step = torch.randint(1, 4, (batch_size, 1), generator=gen)
    return (start + step * torch.arange(seq_len)) % vocab


def main():
    args = parse()
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    cfg = Config()
    model = CausalLM(cfg)
    if args.gradient_checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate, weight_decay=0.01)

    model.train()
    for step in range(1, args.max_steps + 1):
        batch = synthetic_stream(args.batch_size, args.seq_len, cfg.vocab_size, gen)
        loss, _ = model(batch, labels=batch)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()
        if step % args.logging_steps == 0:
            print(f"step {step} loss {loss.item():.4f} ppl {math.exp(loss.item()):.2f}")

    model.eval()
    with torch.no_grad():
        batch = synthetic_stream(8, args.seq_len, cfg.vocab_size, gen)
        loss, _ = model(batch, labels=batch)
    print(f"eval loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
