import torch
import torch.nn as nn

from generate_sine_wave import make_waves


class Sequence(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.hidden = hidden
        self.lstm1 = nn.LSTMCell(1, hidden)
        self.lstm2 = nn.LSTMCell(hidden, hidden)
        self.linear = nn.Linear(hidden, 1)

    def forward(self, input, future=0):
        outputs = []
        n = input.size(0)
        h_t = torch.zeros(n, self.hidden, dtype=input.dtype)
        c_t = torch.zeros(n, self.hidden, dtype=input.dtype)
        h_t2 = torch.zeros(n, self.hidden, dtype=input.dtype)
        c_t2 = torch.zeros(n, self.hidden, dtype=input.dtype)

        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs.append(output)
        for _ in range(future):
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs.append(output)
        return torch.cat(outputs, dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    data = make_waves()
    input, target = data[4:, :-1], data[4:, 1:]
    test_input, test_target = data[:4, :-1], data[:4, 1:]

    seq = Sequence().double()
    criterion = nn.MSELoss()
    optimizer = torch.optim.LBFGS(seq.parameters(), lr=0.8, max_iter=10)

    for i in range(4):
        def closure():
            optimizer.zero_grad()
            out = seq(input)
            loss = criterion(out, target)
            loss.backward()
            return loss

        loss = optimizer.step(closure)
        with torch.no_grad():
            future = 20
            pred = seq(test_input, future=future)
            test_loss = criterion(pred[:, :-future], test_target)
        print(f"step {i} loss {loss.item():.6f} test loss {test_loss.item():.6f}")
