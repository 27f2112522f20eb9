import torch
import torch.nn.functional as F

from model import ModelArgs, Transformer

PARAMS = {
    "dim": 64,
    "n_layers": 2,
    "n_heads": 4,
    "vocab_size": 256,
    "multiple_of": 32,
    "norm_eps": 1e-5,
    "max_batch_size": 4,
    "max_seq_len": 32,
    "use_kv_cache": True,
}

TRAIN = {"steps": 3, "batch_size": 4, "seq_len": 32, "lr": 3e-4}


def get_batch(step, cfg, vocab):
    g = torch.Generator().manual_seed(step)
    data = torch.randint(0, vocab, (cfg["batch_size"], cfg["seq_len"] + 1), generator=g)
    return data[:, :-1], data[:, 1:]


def main():
    torch.manual_seed(0)
    model_args = ModelArgs(**PARAMS)
    model = Transformer(model_args)
    optimizer = torch.optim.AdamW(model.parameters(), lr=TRAIN["lr"])
    model.train()
    for step in range(TRAIN["steps"]):
        tokens, targets = get_batch(step, TRAIN, model_args.vocab_size)
        logits = model(tokens, start_pos=0)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
