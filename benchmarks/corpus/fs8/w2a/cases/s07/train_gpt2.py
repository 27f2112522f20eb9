import compat  # noqa: F401

import argparse
import math

import torch
from accelerate import Accelerator
from transformers import GPT2Config, GPT2LMHeadModel

from data import DataLoaderLite


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--batch_size", type=int, default=4)
    p.add_argument("--sequence_length", type=int, default=16)
    p.add_argument("--num_iterations", type=int, default=3)
    p.add_argument("--learning_rate", type=float, default=1e-3)
    p.add_argument("--grad_clip", type=float, default=1.0)
    p.add_argument("--check_init", type=int, default=1)
    return p.parse_args()


def build_model(vocab_size):
    config = GPT2Config(
        vocab_size=vocab_size, n_positions=64, n_embd=48, n_layer=2, n_head=4,
        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, bos_token_id=0, eos_token_id=0,
    )
    return GPT2LMHeadModel(config)


def check_init(model, loader, accelerator, vocab_size):
    x, y = loader.next_batch()
    out = model(input_ids=x, labels=y)
    accelerator.backward(out.loss)
    total = torch.sqrt(sum(p.grad.pow(2).sum() for p in model.parameters() if p.grad is not None))
    accelerator.print(f"init check: loss {out.loss.item():.4f} (expected ~{math.log(vocab_size):.4f}) "
                      f"grad norm {total.item():.4f}")


def main():
    args = parse_args()
    torch.manual_seed(42)
    accelerator = Accelerator(cpu=True)
    vocab_size = 96
    model = build_model(vocab_size)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate,
                                  betas=(0.9, 0.95), weight_decay=0.0)
    model, optimizer = accelerator.prepare(model, optimizer)
    train_loader = DataLoaderLite(args.batch_size, args.sequence_length, vocab_size, "train", 0)
    val_loader = DataLoaderLite(args.batch_size, args.sequence_length, vocab_size, "val", 0)

    if args.check_init:
        check_init(model, val_loader, accelerator, vocab_size)

    model.train()
    for step in range(args.num_iterations):
        x, y = train_loader.next_batch()
        out = model(input_ids=x, labels=y)
        loss = out.loss
        accelerator.backward(loss)
        norm = accelerator.clip_grad_norm_(model.parameters(), args.grad_clip)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        accelerator.print(f"step {step + 1}/{args.num_iterations} | loss {loss.item():.6f} | norm {norm:.4f}")
    return model


if __name__ == "__main__":
    main()
