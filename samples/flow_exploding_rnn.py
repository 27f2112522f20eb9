"""A plain RNN over 40 steps with large recurrent weights and no gradient clipping: the
gradient is multiplied by the recurrent matrix at every time step and explodes.

    gradscope run --grad-flow samples/flow_exploding_rnn.py
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.RNN(input_size=8, hidden_size=32, nonlinearity="relu", batch_first=True)
head = nn.Linear(32, 1)
with torch.no_grad():
    rnn.weight_hh_l0.copy_(torch.eye(32) * 1.02 + 0.02 * torch.randn(32, 32))
optimizer = torch.optim.SGD(list(rnn.parameters()) + list(head.parameters()), lr=1e-5)
x, y = torch.rand(16, 40, 8) * 0.1, torch.randn(16, 1)
for step in range(5):
    optimizer.zero_grad()
    output, _ = rnn(x)
    loss = nn.functional.mse_loss(head(output[:, -1]), y)
    loss.backward()
    optimizer.step()  # no clip_grad_norm_ before this
print(f"loss after 5 steps: {loss.item():.4f}")
