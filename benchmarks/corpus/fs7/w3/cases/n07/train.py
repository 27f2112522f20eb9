import torch
import torch.nn.functional as F

from model import TinyLM

HPARAMS = {"vocab_size": 50, "block_size": 32, "batch_size": 8, "iters": 20, "lr": 3e-3, "pad_id": 0}


def get_batch(hp, gen):
    idx = torch.randint(1, hp["vocab_size"], (hp["batch_size"], hp["block_size"] + 1), generator=gen)
    lengths = torch.randint(hp["block_size"] // 2, hp["block_size"] + 2, (hp["batch_size"],), generator=gen)
    keep = torch.arange(hp["block_size"] + 1)[None, :] < lengths[:, None]
    idx = idx.masked_fill(~keep, hp["pad_id"])
    x, y = idx[:, :-1], idx[:, 1:].clone()
    y[y == hp["pad_id"]] = -1
    return x, y, keep[:, :-1].long()


def main(hp):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = TinyLM(hp["vocab_size"], block_size=hp["block_size"])
    optimizer = torch.optim.AdamW(model.parameters(), lr=hp["lr"], betas=(0.9, 0.95))
    model.train()
    for it in range(hp["iters"]):
        x, y, mask = get_batch(hp, gen)
        logits = model(x, pad_mask=mask)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1), ignore_index=-1)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        if it % 5 == 0:
            print(f"iter {it} loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    model = main(HPARAMS)
