import torch

from model import Encoder, loss_fn


def make_batch(batch_size=8, seq_len=20, vocab=50):
    tokens = torch.randint(1, vocab, (batch_size, seq_len))
    lengths = torch.randint(5, seq_len + 1, (batch_size,))
    tokens[torch.arange(seq_len)[None, :] >= lengths[:, None]] = 0
    labels = (tokens[:, 0] % 2).long()
    return tokens, labels


def main():
    torch.manual_seed(0)
    model = Encoder(vocab=50)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.05)
    for step in range(10):
        model.train()
        tokens, labels = make_batch()
        loss = loss_fn(model(tokens), labels)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        if step % 5 == 4:
            model.eval()
            with torch.no_grad():
                val_tokens, val_labels = make_batch()
                acc = (model(val_tokens).argmax(-1) == val_labels).float().mean()
            print(f"step {step}  loss {loss.item():.4f}  val_acc {acc.item():.3f}")
    return model


if __name__ == "__main__":
    model = main()
