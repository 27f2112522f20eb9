import torch

import compat  # noqa: F401
from transformers import GPT2Config, GPT2LMHeadModel

from trainer import LMTrainer

MODEL_ARGS = dict(vocab_size=128, n_positions=32, n_embd=32, n_layer=2, n_head=2,
                  resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, bos_token_id=0, eos_token_id=0)


def random_batches(n, bs, seq, seed):
    g = torch.Generator().manual_seed(seed)
    return [torch.randint(0, MODEL_ARGS["vocab_size"], (bs, seq), generator=g) for _ in range(n)]


def main():
    torch.manual_seed(42)
    model = GPT2LMHeadModel(GPT2Config(**MODEL_ARGS))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.0)
    trainer = LMTrainer(model, optimizer, gradient_checkpointing=True)
    trainer.fit(random_batches(4, 4, 16, seed=1), random_batches(1, 4, 16, seed=2))
    return model, trainer


if __name__ == "__main__":
    model, trainer = main()
