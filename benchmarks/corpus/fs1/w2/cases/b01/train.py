import compat  # noqa: F401
import torch
from transformers import GPT2Config, GPT2LMHeadModel

from optim_utils import build_optimizer

BASE_VOCAB = 96
SPECIAL_TOKENS = ["<|user|>", "<|assistant|>", "<|tool|>", "<|end|>"]


def load_model():
    config = GPT2Config(
        vocab_size=BASE_VOCAB,
        n_embd=32,
        n_layer=2,
        n_head=2,
        n_positions=64,
        tie_word_embeddings=False,
    )
    return GPT2LMHeadModel(config)


def make_batches(vocab_size, n_batches, batch_size=8, seq_len=24):
    g = torch.Generator().manual_seed(1)
    for _ in range(n_batches):
        ids = torch.randint(0, vocab_size, (batch_size, seq_len), generator=g)
        ids[:, 0] = BASE_VOCAB
        ids[:, seq_len // 2] = BASE_VOCAB + 1
        ids[:, -1] = BASE_VOCAB + 3
        yield ids


def main():
    torch.manual_seed(0)
    model = load_model()
    model.train()

    optimizer = build_optimizer(model, lr=5e-4)

    new_vocab = BASE_VOCAB + len(SPECIAL_TOKENS)
    model.resize_token_embeddings(new_vocab)

    for step, input_ids in enumerate(make_batches(new_vocab, 8)):
        out = model(input_ids=input_ids, labels=input_ids)
        optimizer.zero_grad()
        out.loss.backward()
        optimizer.step()
        if step % 2 == 0:
            print(f"step {step:2d}  lm loss {out.loss.item():.4f}")
    return model, optimizer


if __name__ == "__main__":
    model, optimizer = main()
