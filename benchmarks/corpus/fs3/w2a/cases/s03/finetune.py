import torch

from gpt import GPT, GPTConfig
from muon import SingleDeviceMuonWithAuxAdam

config = {
    "seed": 1337,
    "freeze_layers": 2,
    "freeze_embeddings": True,
    "steps": 20,
    "batch_size": 8,
    "muon_lr": 0.02,
    "adam_lr": 3e-3,
    "weight_decay": 0.1,
}


def get_batch(data, block_size, batch_size):
    ix = torch.randint(len(data) - block_size - 1, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + block_size] for i in ix])
    return x, y


def freeze(model, cfg):
    if cfg["freeze_embeddings"]:
        model.embed.requires_grad_(False)
        model.pos_embed.requires_grad_(False)
    for block in model.blocks[:cfg["freeze_layers"]]:
        block.requires_grad_(False)


def build_optimizer(model, cfg):
    hidden_matrix_params = [p for n, p in model.blocks.named_parameters() if p.ndim >= 2]
    embed_params = [p for n, p in model.named_parameters() if "embed" in n]
    scalar_params = [p for p in model.parameters() if p.ndim < 2]
    head_params = [model.lm_head.weight]
    adam_groups = [dict(params=head_params, lr=cfg["adam_lr"]), dict(params=embed_params, lr=cfg["adam_lr"]),
                   dict(params=scalar_params, lr=cfg["adam_lr"])]
    adam_groups = [dict(**g, betas=(0.8, 0.95), eps=1e-10, weight_decay=cfg["weight_decay"], use_muon=False)
                   for g in adam_groups]
    muon_group = dict(params=hidden_matrix_params, lr=cfg["muon_lr"], momentum=0.95,
                      weight_decay=cfg["weight_decay"], use_muon=True)
    return SingleDeviceMuonWithAuxAdam([*adam_groups, muon_group])


if __name__ == "__main__":
    torch.manual_seed(config["seed"])
    gptconf = GPTConfig()
    model = GPT(gptconf)
    freeze(model, config)
    optimizer = build_optimizer(model, config)

    text = torch.randint(0, gptconf.vocab_size, (4096,))
    model.train()
    for it in range(config["steps"]):
        x, y = get_batch(text, gptconf.block_size, config["batch_size"])
        loss = model(x, y)
        loss.backward()
        optimizer.step()
        model.zero_grad(set_to_none=True)
        if it % 5 == 0:
            print(f"iter {it}: loss {loss.item():.4f}")
