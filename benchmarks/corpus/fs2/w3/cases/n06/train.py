import compat  # noqa: F401
import torch
from transformers import GPT2Config, GPT2LMHeadModel

from lora import inject_lora, mark_only_lora_as_trainable, trainable_parameters

CFG = dict(vocab_size=128, n_positions=64, n_embd=64, n_layer=2, n_head=4,
           seq_len=32, batch_size=4, steps=6, lr=5e-3, seed=0)


def build_model(cfg):
    config = GPT2Config(vocab_size=cfg["vocab_size"], n_positions=cfg["n_positions"],
                        n_embd=cfg["n_embd"], n_layer=cfg["n_layer"], n_head=cfg["n_head"],
                        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, use_cache=False,
                        bos_token_id=0, eos_token_id=0)
    model = GPT2LMHeadModel(config)
    inject_lora(model, target_modules=("c_attn", "c_proj"), r=4, alpha=8)
    mark_only_lora_as_trainable(model)
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": True})
    model.enable_input_require_grads()
    return model


def batches(cfg, g):
    for _ in range(cfg["steps"]):
        start = torch.randint(0, cfg["vocab_size"], (cfg["batch_size"], 1), generator=g)
        yield (start + torch.arange(cfg["seq_len"])) % cfg["vocab_size"]


def main(cfg):
    torch.manual_seed(cfg["seed"])
    g = torch.Generator().manual_seed(cfg["seed"])
    model = build_model(cfg)
    n_train = sum(p.numel() for p in trainable_parameters(model))
    n_all = sum(p.numel() for p in model.parameters())
    print(f"trainable params: {n_train} / {n_all}")
    optimizer = torch.optim.AdamW(trainable_parameters(model), lr=cfg["lr"], weight_decay=0.0)
    model.train()
    for step, input_ids in enumerate(batches(cfg, g)):
        out = model(input_ids=input_ids, labels=input_ids)
        out.loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        print(f"step {step}: loss {out.loss.item():.4f}")


if __name__ == "__main__":
    main(CFG)
