import math

import torch
import torch.nn.functional as F

from data import batchify, get_chunk, synthetic_stream
from lm import CharLSTM, repackage

ARGS = {"vocab": 40, "bsz": 8, "bptt": 20, "accum": 2, "lr": 3e-3, "clip": 0.5,
        "eval_every": 3, "epochs": 2, "tie": True, "pad_id": 0}


@torch.no_grad()
def evaluate(model, source, args):
    model.eval()
    hidden = model.init_hidden(source.size(0))
    total, count = 0.0, 0
    for i in range(0, source.size(1) - 1, args["bptt"]):
        x, y = get_chunk(source, i, args["bptt"])
        logits, hidden = model(x, hidden)
        total += F.cross_entropy(logits.flatten(0, 1), y.flatten(), reduction="sum").item()
        count += y.numel()
    model.train()
    return total / count


def main(args=ARGS):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    train_data = batchify(synthetic_stream(8 * 200, args["vocab"], gen), args["bsz"])
    val_data = batchify(synthetic_stream(8 * 60, args["vocab"], gen), args["bsz"])
    model = CharLSTM(args["vocab"], tie=args["tie"])
    optimizer = torch.optim.Adam(model.parameters(), lr=args["lr"])
    model.train()
    step = 0
    for epoch in range(args["epochs"]):
        hidden = model.init_hidden(args["bsz"])
        optimizer.zero_grad()
        for k, i in enumerate(range(0, train_data.size(1) - 1, args["bptt"])):
            x, y = get_chunk(train_data, i, args["bptt"])
            y = y.clone()
            y[x == args["pad_id"]] = -100
            hidden = repackage(hidden)
            logits, hidden = model(x, hidden)
            loss = F.cross_entropy(logits.flatten(0, 1), y.flatten(), ignore_index=-100)
            (loss / args["accum"]).backward()
            if (k + 1) % args["accum"] == 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), args["clip"])
                optimizer.step()
                optimizer.zero_grad()
                step += 1
                if step % args["eval_every"] == 0:
                    val = evaluate(model, val_data, args)
                    print(f"epoch {epoch} step {step} train {loss.item():.3f} "
                          f"val_ppl {math.exp(val):.2f}")
    return model


if __name__ == "__main__":
    model = main()
