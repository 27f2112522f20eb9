import torch
import torch.nn.functional as F

from model import TinyLM

CONFIG = dict(
    vocab_size=97,
    dim=64,
    heads=4,
    layers=3,
    max_len=64,
    seq_len=16,
    batch_size=4,
    lr=3e-4,
    steps=3,
    gradient_checkpointing=True,
    use_cache=True,
)


def get_batch(cfg):
    ids = torch.randint(0, cfg["vocab_size"], (cfg["batch_size"], cfg["seq_len"] + 1))
    return ids[:, :-1], ids[:, 1:]


@torch.no_grad()
def sample(model, prompt, n_new):
    model.eval()
    logits, cache = model(prompt, use_cache=True)
    out = [prompt]
    for _ in range(n_new):
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        out.append(nxt)
        logits, cache = model(nxt, use_cache=True, cache=cache)
    model.train()
    return torch.cat(out, dim=1)


def main(cfg=CONFIG):
    torch.manual_seed(0)
    model = TinyLM(cfg["vocab_size"], cfg["dim"], cfg["heads"], cfg["layers"], cfg["max_len"])
    model.gradient_checkpointing = cfg["gradient_checkpointing"]
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    model.train()
    for step in range(cfg["steps"]):
        inputs, targets = get_batch(cfg)
        logits, _ = model(inputs, use_cache=cfg["use_cache"])
        loss = F.cross_entropy(logits.reshape(-1, cfg["vocab_size"]), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
    print(sample(model, inputs[:1, :4], 8).tolist())


if __name__ == "__main__":
    main()
