import torch
import torch.nn as nn

from moe import MoE


class TinyLM(nn.Module):
    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, hidden)
        self.moe = MoE(hidden_size=hidden)
        self.norm = nn.LayerNorm(hidden)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, ids):
        h = self.emb(ids)
        h = h + self.moe(self.norm(h))
        return self.head(h)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyLM()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for step in range(4):
        ids = torch.randint(0, 100, (4, 17))
        logits = model(ids[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, 100), ids[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")
