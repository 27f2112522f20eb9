import torch
import torch.nn.functional as F

from adapt import add_tokens, freeze_all_but, train_only_rows
from model import TextEncoder

params = dict(
    base_vocab=300,
    new_tokens=20,
    seq_len=24,
    batch_size=32,
    steps=80,
    lr=5e-3,
    aux_weight=0.5,
    aux_grad_scale=0.2,
    seed=2,
)


def domain_batch(p, new_ids, gen):
    b, t = p["batch_size"], p["seq_len"]
    ids = torch.randint(0, p["base_vocab"], (b, t), generator=gen)
    labels = torch.randint(0, 3, (b,), generator=gen)
    new = torch.tensor(new_ids)
    slots = torch.randint(0, t, (b, 4), generator=gen)
    picks = new[(labels[:, None] * 6 + torch.randint(0, 6, (b, 4), generator=gen)) % len(new_ids)]
    ids.scatter_(1, slots, picks)
    return ids, labels


def main(p):
    torch.manual_seed(p["seed"])
    gen = torch.Generator().manual_seed(p["seed"])
    model = TextEncoder(p["base_vocab"])
    new_ids = add_tokens(model, p["new_tokens"])
    model.aux_grad_scale = p["aux_grad_scale"]

    freeze_all_but(model, ["embeddings", "classifier", "aux_head", "proj"])
    handle = train_only_rows(model.embeddings.weight, new_ids)
    optimizer = torch.optim.Adam([q for q in model.parameters() if q.requires_grad], lr=p["lr"])

    model.train()
    for step in range(1, p["steps"] + 1):
        ids, labels = domain_batch(p, new_ids, gen)
        logits, token_logits = model(ids)
        cls_loss = F.cross_entropy(logits, labels)
        mlm_loss = F.cross_entropy(token_logits[:, :-1].reshape(-1, token_logits.size(-1)), ids[:, 1:].reshape(-1))
        loss = cls_loss + p["aux_weight"] * mlm_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 20 == 0:
            print(f"step {step} cls {cls_loss.item():.4f} aux {mlm_loss.item():.4f}")
    handle.remove()

    model.eval()
    with torch.no_grad():
        ids, labels = domain_batch(p, new_ids, gen)
        acc = (model(ids)[0].argmax(1) == labels).float().mean().item()
    print(f"held-out acc {acc:.3f}")


if __name__ == "__main__":
    main(params)
