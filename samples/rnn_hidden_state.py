"""Truncated BPTT without detach: the hidden state carries the previous batch's graph."""
import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.RNN(input_size=2, hidden_size=4, batch_first=True)
head = nn.Linear(4, 1)
optimizer = torch.optim.SGD(list(rnn.parameters()) + list(head.parameters()), lr=0.01)

hidden = torch.zeros(1, 1, 4)
for batch in range(3):
    x = torch.randn(1, 5, 2)
    out, hidden = rnn(x, hidden)
    loss = head(out).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"batch {batch}: {loss.item():.4f}")
