"""Truncated BPTT done right: the hidden state is detached at the start of each batch."""
import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.LSTM(input_size=2, hidden_size=4, batch_first=True)
head = nn.Linear(4, 1)
optimizer = torch.optim.SGD(list(rnn.parameters()) + list(head.parameters()), lr=0.01)

state = (torch.zeros(1, 1, 4), torch.zeros(1, 1, 4))
for batch in range(4):
    state = tuple(s.detach() for s in state)
    out, state = rnn(torch.randn(1, 5, 2), state)
    loss = head(out).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"batch {batch}: {loss.item():.6f}")
