import torch
import torch.nn.functional as F

from model import TextEncoder

BASE_VOCAB = 200
NEW_TOKENS = 20
GRAD_CLIP_VALUE = 0.5


def add_grad_hooks(model, num_old_tokens):
    mask = torch.zeros(model.embedding.num_embeddings, 1)
    mask[num_old_tokens:] = 1.0
    model.embedding.weight.register_hook(lambda grad: grad * mask)

    for name, p in model.rnn.named_parameters():
        p.register_hook(lambda grad: grad.clamp(-GRAD_CLIP_VALUE, GRAD_CLIP_VALUE))


def make_batch(vocab, batch=8, max_len=12):
    lengths = torch.randint(3, max_len + 1, (batch,))
    ids = torch.randint(1, vocab, (batch, max_len))
    ids[torch.arange(max_len).unsqueeze(0) >= lengths.unsqueeze(1)] = 0
    ids[:, 0] = torch.randint(BASE_VOCAB, vocab, (batch,))
    labels = torch.randint(0, 3, (batch,))
    return ids, lengths, labels


def main():
    torch.manual_seed(0)
    model = TextEncoder(BASE_VOCAB)
    old_rows = model.resize_token_embeddings(BASE_VOCAB + NEW_TOKENS)
    add_grad_hooks(model, old_rows)

    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(12):
        ids, lengths, labels = make_batch(BASE_VOCAB + NEW_TOKENS)
        logits = model(ids, lengths)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 4 == 0:
            print(f"step {step} loss={loss.item():.4f}")
    return model


if __name__ == "__main__":
    model = main()
