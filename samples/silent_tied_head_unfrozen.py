"""Fine-tuning only the output head of a small language model whose head shares its weight with
the token embedding (tied weights). Freezing everything and then unfreezing the head unfreezes
the embedding too: the "frozen" embedding trains."""
import torch
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, vocab=40, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.body = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.head.weight = self.embed.weight

    def forward(self, tokens):
        return self.head(self.body(self.embed(tokens))[0])


torch.manual_seed(0)
model = TinyLM()
for param in model.parameters():
    param.requires_grad = False
model.head.weight.requires_grad = True
optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
tokens = torch.randint(0, 40, (4, 9))
for step in range(3):
    logits = model(tokens[:, :-1])
    loss = nn.functional.cross_entropy(logits.reshape(-1, 40), tokens[:, 1:].reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
