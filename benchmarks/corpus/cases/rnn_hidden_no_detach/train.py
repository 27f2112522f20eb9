import math

import torch
import torch.nn as nn

torch.manual_seed(1)

TIME_STEP = 10
INPUT_SIZE = 1
LR = 0.02


class RNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(input_size=INPUT_SIZE, hidden_size=32, num_layers=1, batch_first=True)
        self.out = nn.Linear(32, 1)

    def forward(self, x, h_state):
        r_out, h_state = self.rnn(x, h_state)
        outs = [self.out(r_out[:, t, :]) for t in range(r_out.size(1))]
        return torch.stack(outs, dim=1), h_state


def sin_cos_window(step):
    start, end = step * math.pi, (step + 1) * math.pi
    steps = torch.linspace(start, end, TIME_STEP)
    x = torch.sin(steps)[None, :, None]
    y = torch.cos(steps)[None, :, None]
    return x, y


rnn = RNN()
optimizer = torch.optim.Adam(rnn.parameters(), lr=LR)
loss_func = nn.MSELoss()

h_state = None
for step in range(20):
    x, y = sin_cos_window(step)
    prediction, h_state = rnn(x, h_state)
    loss = loss_func(prediction, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.4f}")
