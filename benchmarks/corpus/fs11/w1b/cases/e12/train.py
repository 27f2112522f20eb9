import argparse

import torch

from hook_points import bind
from interventions import INTERVENTIONS
from model import HookedTransformer

MODEL_CFG = {"d_vocab": 48, "d_model": 32, "n_heads": 4, "d_mlp": 64, "n_layers": 2, "n_ctx": 16}


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=6)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--intervention", default="clip", choices=sorted(INTERVENTIONS))
    p.add_argument("--hook-filter", default="hook_resid_mid")
    p.add_argument("--max-norm", type=float, default=0.05)
    p.add_argument("--factor", type=float, default=0.5)
    return p.parse_args()


def build_bwd_hooks(model, args, store):
    fn = INTERVENTIONS[args.intervention]
    if args.intervention == "record":
        hook = bind(fn, store=store)
    elif args.intervention == "scale":
        hook = bind(fn, factor=args.factor)
    else:
        hook = bind(fn, max_norm=args.max_norm)
    names = [n for n in model.hook_dict if n.endswith(args.hook_filter)]
    return [(n, hook) for n in names]


def main():
    args = parse_args()
    torch.manual_seed(0)
    model = HookedTransformer(MODEL_CFG)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    data = torch.randint(0, MODEL_CFG["d_vocab"], (args.steps, args.batch_size, MODEL_CFG["n_ctx"]))
    store = {}
    bwd_hooks = build_bwd_hooks(model, args, store)
    for step in range(args.steps):
        tokens = data[step]
        with model.hooks(bwd_hooks=bwd_hooks):
            logits = model(tokens)
            loss = model.loss_fn(logits, tokens)
            loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
