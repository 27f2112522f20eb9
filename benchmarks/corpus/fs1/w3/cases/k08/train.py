import compat  # noqa: F401
import torch
from torch.utils.data import DataLoader
from transformers import GPT2Config, GPT2LMHeadModel

cfg = dict(vocab_size=96, n_positions=64, n_embd=64, n_layer=3, n_head=4,
           seq_len=32, batch_size=8, lr=3e-3, epochs=2, max_grad_norm=1.0)


def build_model():
    config = GPT2Config(
        vocab_size=cfg["vocab_size"],
        n_positions=cfg["n_positions"],
        n_embd=cfg["n_embd"],
        n_layer=cfg["n_layer"],
        n_head=cfg["n_head"],
        resid_pdrop=0.0,
        embd_pdrop=0.0,
        attn_pdrop=0.0,
        bos_token_id=0,
        eos_token_id=1,
        pad_token_id=1,
    )
    model = GPT2LMHeadModel(config)
    model.config.use_cache = False
    model.activation_checkpointing_enable(activation_checkpointing_kwargs={"use_reentrant": False})
    return model


def make_sequences(n, seq_len, vocab):
    starts = torch.randint(2, vocab, (n, 1))
    steps = torch.randint(1, 4, (n, 1))
    ids = (starts + steps * torch.arange(seq_len)[None]) % (vocab - 2) + 2
    ids[:, 0] = 0
    return ids


@torch.no_grad()
def sample(model, prompt, max_new_tokens=12):
    model.eval()
    attention_mask = torch.ones_like(prompt)
    out = model.generate(prompt, attention_mask=attention_mask, max_new_tokens=max_new_tokens,
                         do_sample=False, use_cache=True)
    model.train()
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    model = build_model()
    data = make_sequences(96, cfg["seq_len"], cfg["vocab_size"])
    loader = DataLoader(data, batch_size=cfg["batch_size"], shuffle=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=0.01)

    model.train()
    for epoch in range(cfg["epochs"]):
        for step, input_ids in enumerate(loader):
            outputs = model(input_ids=input_ids, labels=input_ids)
            outputs.loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["max_grad_norm"])
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
        print(f"epoch {epoch} loss {outputs.loss.item():.4f}")
        generated = sample(model, data[:2, :8])
        print("sample:", generated[0].tolist())
